import ArgumentParser
import Catalog
import KioskRuntime
import Runtime
import UI

/// Options that pick an app for `run` and `demo`.
struct AppOptions: ParsableArguments {
    @Option(help: "The app: \(AppFactory.names.joined(separator: ", ")).")
    var app = "catalog"
    @Option(help: "Content manifest for the catalog (default: the shipped Board/content/manifest.json).")
    var manifest: String?
    @Option(help: "Rows in the list app (built as they come into view; 0 to 100,000,000).")
    var rows = AppFactory.defaultRows

    func validate() throws {
        guard (0...100_000_000).contains(rows) else { throw ValidationError("--rows must be 0 to 100,000,000, not \(rows)") }
    }

    /// Builds the app; catalog content problems are printed, and the app shows what it can.
    func makeWindow(width: Int, height: Int, scale: Double) throws -> (Window, CatalogApp?) {
        guard AppFactory.names.contains(app) else {
            throw ValidationError("unknown app '\(app)' (\(AppFactory.names.joined(separator: ", ")))")
        }
        return try AppFactory.window(
            named: app, width: width, height: height, scaleFactor: scale, manifestPath: manifest,
            rows: rows, report: { processLog.warning("content: \($0)") })
    }
}

/// `glide run`: glide's apps on the headless runtime, the same code an app's `Kiosk.run` uses.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an app headless: on a virtual clock from a script (PNG and JSON out), or in real time under remote control.")

    @OptionGroup var app: AppOptions
    @OptionGroup var options: HeadlessOptions

    func run() throws {
        try HeadlessRuntime.run(
            options,
            app: AppSource { width, height, scale, _, _ in
                try app.makeWindow(width: width, height: height, scale: scale).0
            })
    }
}
