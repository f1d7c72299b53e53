import ArgumentParser
import BoardConfig
import BoardLoop
import Catalog
import Geometry
import ImageCodecs
import LinuxDRM
import LinuxInput
import Raster
import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// `glide board`: the app on a DRM/KMS display with libinput input (issue 6). Wiring only.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Run an app full-screen on a DRM/KMS display with libinput touch, keys and pointer.",
        subcommands: [Run.self, Snapshot.self],
        defaultSubcommand: Run.self)

    /// The apps this binary can show: the catalog's (`Catalog.makeApp`) and the bring-up test
    /// pattern, which needs no fonts or content.
    static let appNames = AppFactory.names + ["bringup"]

    static func makeBoardApp(name: String, width: Int, height: Int, scale: Double = 1, manifest: String? = nil) throws -> App {
        if name == "bringup" {
            let app = BringUpApp()
            app.resize(width: width, height: height)
            return app
        }
        return try makeApp(name: name, width: width, height: height, scaleFactor: scale, manifestPath: manifest,
                           report: { printError("glide: content: \($0)") })
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run", abstract: "Take the display and run (the default).")

        @Option(help: "Board config file (key = value lines; see Board/config.example).")
        var config: String?
        @Option(help: "DRM card, e.g. /dev/dri/card0 (default: the first with a connected display).")
        var card: String?
        @Option(help: "Connector name, e.g. HDMI-A-1 (default: the first connected).")
        var connector: String?
        @Option(help: "Mode WIDTHxHEIGHT[@HZ] (default: the display's preferred mode).")
        var mode: String?
        @Option(help: "Panel rotation in degrees clockwise: 0, 90, 180 or 270.")
        var rotation: Int?
        @Option(help: "Input device path (repeatable; default: every device of the udev seat).")
        var input: [String] = []
        @Option(help: "udev seat for input.")
        var seat: String?
        @Option(help: "App to show: catalog (default), list, or bringup (a test pattern needing no fonts).")
        var app: String?
        @Option(help: "Content manifest for the catalog.")
        var manifest: String?
        @Option(help: "Scale factor: pixels per point.")
        var scale: Double?
        @Flag(help: "Treat the pointer's left button as a finger (mouse or QEMU tablet).")
        var pointerAsTouch = false
        @Option(help: "Record every input event to FILE as a headless script (JSON Lines).")
        var record: String?
        @Option(help: "Write the app's state JSON to FILE whenever it comes to rest (first after start).")
        var stateFile: String?
        @Flag(help: "Print frame-time percentiles and input-to-flip latency at exit.")
        var stats = false
        @Option(help: "Present at most this many frames per second (default: the mode's refresh rate).")
        var maxFps: Double?
        @OptionGroup var remoteOptions: RemoteOptions

        func run() throws {
            var cfg = BoardConfig()
            if let config { cfg = try BoardConfig.load(path: config, apps: BoardCommand.appNames) }
            if let card { cfg.card = card }
            if let connector { cfg.connector = connector }
            if let mode {
                guard let m = BoardConfig.parseMode(mode) else { throw ValidationError("--mode must be WIDTHxHEIGHT[@HZ], not '\(mode)'") }
                cfg.mode = m
            }
            if let rotation { cfg.rotation = rotation }
            if !input.isEmpty { cfg.inputs = input }
            if let seat { cfg.seat = seat }
            if let app {
                guard BoardCommand.appNames.contains(app) else {
                    throw ValidationError("--app must be one of \(BoardCommand.appNames.joined(separator: ", "))")
                }
                cfg.app = app
            }
            if let manifest { cfg.manifest = manifest }
            if let scale {
                guard scale.isFinite, scale >= 0.25, scale <= 8 else { throw ValidationError("--scale must lie in 0.25...8") }
                cfg.scale = scale
            }
            if pointerAsTouch { cfg.pointerAsTouch = true }
            guard let turn = Rotation(rawValue: cfg.rotation) else { throw ValidationError("--rotation must be 0, 90, 180 or 270") }
            if let maxFps, !(maxFps.isFinite && maxFps >= 1) { throw ValidationError("--max-fps must be at least 1") }
            // Checked before the display is taken, so that a bad address or token says so at once.
            let remoteConfiguration = try remoteOptions.configuration(configAddress: cfg.remoteAddress,
                                                                      configToken: cfg.remoteToken)
            let log: (String) -> Void = { message in
                var line = "glide: \(message)\n"
                line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            }

            let device = try DRMDevice.open(configured: cfg.card)
            let display = try DRMDisplay(
                device: device, connectorName: cfg.connector,
                mode: cfg.mode.map { ModeRequest(width: $0.width, height: $0.height, refreshHz: $0.refreshHz) },
                rotation: turn)
            log("display \(display.summary), canvas \(display.canvasWidth)x\(display.canvasHeight)")

            var transform = TouchTransform(panelWidth: display.mode.width, panelHeight: display.mode.height, rotation: turn)
            if let c = cfg.calibration, let m = CalibrationMatrix(c) { transform.calibration = m }
            let backend: InputContext.Backend = cfg.inputs.isEmpty ? .udev(seat: cfg.seat) : .paths(cfg.inputs)
            let inputContext = try InputContext(backend: backend, transform: transform,
                                                pointerAsTouch: cfg.pointerAsTouch, log: log)

            let theApp = try BoardCommand.makeBoardApp(name: cfg.app ?? "catalog", width: display.canvasWidth,
                                                       height: display.canvasHeight, scale: cfg.scale, manifest: cfg.manifest)
            var options = BoardLoop.Options()
            options.recordPath = record
            options.stateFilePath = stateFile
            options.maxFramesPerSecond = maxFps
            options.log = log
            options.onFirstFrame = { log("first frame on screen at uptime \(uptime())") }
            let remoteServer = try remoteConfiguration.map(startRemoteServer)
            if let server = remoteServer { log("remote control on port \(server.port ?? 0)") }
            options.remote = remoteServer
            let loop = try BoardLoop(app: theApp, display: display, input: inputContext, options: options)
            try loop.run()
            display.restore()
            log("display restored; exiting")
            if stats { print(loop.stats.report) }
        }
    }

    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
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
            let theApp = try BoardCommand.makeBoardApp(name: app, width: m.width, height: m.height, scale: scale, manifest: manifest)
            let frame = PixelBuffer(width: m.width, height: m.height, fill: PremultipliedColor(argb: 0xFF00_0000))
            theApp.resize(width: m.width, height: m.height)
            _ = theApp.render(into: frame, at: 0)
            try PNG.write(frame, to: out)
        }
    }
}

/// Seconds since boot from /proc/uptime, for boot-to-first-frame figures.
func uptime() -> String {
    let fd = open("/proc/uptime", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "?" }
    defer { close(fd) }
    var buf = [UInt8](repeating: 0, count: 64)
    let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 64) }
    guard n > 0 else { return "?" }
    return String(decoding: buf[0..<n], as: UTF8.self).split(separator: " ").first.map(String.init) ?? "?"
}
