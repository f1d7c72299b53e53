import ArgumentParser
import KioskRuntime

/// `glide audit`: one of glide's apps checked against the accessibility rules, as every app's
/// own `audit` subcommand does.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract:
            "Check an app's screens against accessibility rules (WCAG 2.2 AA, the EAA): contrast, target size, labels, overflow, keypad, timeouts, motion.",
        discussion: "Exit status: 0 with no findings, 1 with findings, 2 when the audit could not run.")

    @OptionGroup var app: AppOptions
    @OptionGroup var audit: AuditOptions

    func run() throws {
        try AuditRuntime.run(
            audit,
            app: AppSource { width, height, scale, _, _ in
                try app.makeWindow(width: width, height: height, scale: scale).0
            })
    }
}
