import ArgumentParser
import AppContract
import KioskRuntime

/// The composition root: parses the command line and hands off to the library targets.
@main
struct Glide: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glide",
        abstract: "A touch-scrolling UI stack for kiosk touchscreens.",
        version: GlideVersion.line(program: "glide"),
        subcommands: [
            DemoCommand.self, RunCommand.self, AuditCommand.self, FeelCommand.self, BenchCommand.self, BoardCommand.self,
            CalibrateCommand.self,
        ])

    /// ArgumentParser's main, with the error that ends the process at priority error in the journal.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exitReporting(error)
        }
    }
}
