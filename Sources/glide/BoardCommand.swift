import ArgumentParser
import BoardConfig
import BoardLoop
import Catalog
import ImageCodecs
import KioskRuntime
import Raster
import Runtime

/// `glide board`: glide's apps on the board runtime, the same code an app's `Kiosk.run` uses.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Run an app full-screen on a DRM/KMS display with libinput touch, keys and pointer.",
        subcommands: [Run.self, Snapshot.self],
        defaultSubcommand: Run.self)

    /// glide's apps: the catalog's (`AppFactory`) and the bring-up test pattern, which needs no
    /// fonts or content. The config's `app` and `manifest` keys pick one.
    static func apps(manifest: String? = nil) -> AppSource {
        AppSource(names: AppFactory.names + ["bringup"]) { width, height, scale, _, config in
            try makeApp(
                name: config.app ?? "catalog", width: width, height: height, scale: scale,
                manifest: manifest ?? config.manifest)
        }
    }

    static func makeApp(name: String, width: Int, height: Int, scale: Double, manifest: String?) throws -> App {
        if name == "bringup" {
            let app = BringUpApp()
            app.resize(width: width, height: height)
            return app
        }
        return try Catalog.makeApp(
            name: name, width: width, height: height, scaleFactor: scale, manifestPath: manifest,
            report: { processLog.warning("content: \($0)") })
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run", abstract: "Take the display and run (the default).")

        @Option(help: "App to show: catalog (default), list, or bringup (a test pattern needing no fonts).")
        var app: String?
        @Option(help: "Content manifest for the catalog.")
        var manifest: String?
        @OptionGroup var options: BoardOptions

        func run() throws {
            let source = BoardCommand.apps(manifest: manifest)
            if let app, !(source.names ?? []).contains(app) {
                throw ValidationError("--app must be one of \((source.names ?? []).joined(separator: ", "))")
            }
            try BoardRuntime.run(options, app: source, appName: app)
        }
    }

    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snapshot",
            abstract: "Render an app's first frame without a display and write it as PNG.")
        @Option(help: "App to render.")
        var app = "bringup"
        @Option(help: "Content manifest for the catalog.")
        var manifest: String?
        @Option(help: "Scale factor: pixels per point.")
        var scale = 1.0
        @Option(help: "Canvas size WIDTHxHEIGHT.")
        var size = "1280x800"
        @Option(help: "Output PNG file.")
        var out: String

        func run() throws {
            guard let m = BoardConfig.parseMode(size), m.refreshHz == nil else {
                throw ValidationError("--size must be WIDTHxHEIGHT, not '\(size)'")
            }
            // The same limits as `run` and the board config (0.25 to 8).
            let theApp = try BoardCommand.makeApp(
                name: app, width: m.width, height: m.height,
                scale: try Launch.checkedScale(scale), manifest: manifest)
            let frame = PixelBuffer(width: m.width, height: m.height, fill: PremultipliedColor(argb: 0xFF00_0000))
            theApp.resize(width: m.width, height: m.height)
            _ = theApp.render(into: frame, at: 0)
            FileIO.removeLeftovers(of: out)
            try PNG.write(frame, to: out)
        }
    }
}
