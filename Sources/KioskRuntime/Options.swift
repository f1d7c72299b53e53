import ArgumentParser
import BoardConfig
import Runtime

/// `board` options, the same for `glide board` and for an app's own executable (`Kiosk.run`):
/// each overrides the config file's key of the same name.
public struct BoardOptions: ParsableArguments {
    @Option(help: "Board config file (key = value lines; see Board/config.example).")
    public var config: String?
    @Option(help: "DRM card, e.g. /dev/dri/card0 (default: the first with a connected display).")
    public var card: String?
    @Option(help: "Connector name, e.g. HDMI-A-1 (default: the first connected).")
    public var connector: String?
    @Option(help: "Mode WIDTHxHEIGHT[@HZ] (default: the display's preferred mode).")
    public var mode: String?
    @Option(help: "Panel rotation in degrees clockwise: 0, 90, 180 or 270.")
    public var rotation: Int?
    @Option(help: "Input device path (repeatable; default: every device of the udev seat).")
    public var input: [String] = []
    @Option(help: "udev seat for input.")
    public var seat: String?
    @Option(help: "Scale factor: pixels per point.")
    public var scale: Double?
    @Flag(help: "Treat the pointer's left button as a finger (mouse or QEMU tablet).")
    public var pointerAsTouch = false
    @Option(help: "Record every input event to FILE as a headless script (JSON Lines).")
    public var record: String?
    @Option(help: "Write the app's state JSON to FILE whenever it comes to rest (first after start).")
    public var stateFile: String?
    @Flag(help: "Print frame-time percentiles and input-to-flip latency at exit.")
    public var stats = false
    @Option(help: "Present at most this many frames per second (default: the mode's refresh rate).")
    public var maxFps: Double?
    @Option(help: "Threads drawing each frame in bands (default: render_threads, else the cores, at most 4).")
    public var renderThreads: Int?
    @Option(help: "How frames are committed: auto (atomic where the driver offers it), atomic or legacy.")
    public var modesetting: String?
    @Option(help: "Scanout buffers: 2, or 3 so that frames slower than a refresh period do not halve the rate.")
    public var buffers: Int?
    @Option(help: "Seconds without input before the screen goes dark (0: never); the waking touch is not passed on.")
    public var idleBlankSeconds: Double?
    @Option(help: "How the screen goes dark: dpms, backlight or black.")
    public var blank: String?
    @Option(help: "Backlight brightness in percent (1-100), set at start.")
    public var brightness: Int?
    @Option(help: "Touchscreen rotation in degrees clockwise, when it differs from the panel's.")
    public var touchRotation: Int?
    @Flag(help: "The screen reader: touches explore and speak (through speech_device), a double tap activates.")
    public var screenReader = false
    @OptionGroup public var remote: RemoteOptions

    public init() {}

    /// The config file (if any) with these options over it. `apps`: the app names the
    /// executable can show (nil: it shows one app and ignores the key).
    public func mergedConfig(apps: [String]?) throws -> BoardConfig {
        var cfg = BoardConfig()
        if let config { cfg = try BoardConfig.load(path: config, apps: apps) }
        if let card { cfg.card = card }
        if let connector { cfg.connector = connector }
        if let mode {
            guard let m = BoardConfig.parseMode(mode) else { throw ValidationError("--mode must be WIDTHxHEIGHT[@HZ], not '\(mode)'") }
            cfg.mode = m
        }
        if let rotation { cfg.rotation = rotation }
        if !input.isEmpty { cfg.inputs = input }
        if let seat { cfg.seat = seat }
        if let scale { cfg.scale = try Launch.checkedScale(scale) }
        if pointerAsTouch { cfg.pointerAsTouch = true }
        if screenReader { cfg.screenReader = true }
        if let renderThreads { cfg.renderThreads = try Launch.checkedThreads(renderThreads) }
        if let v = try checked(modesetting, "--modesetting must be auto, atomic or legacy", BoardConfig.modesettingValues.contains) {
            cfg.modesetting = v
        }
        if let v = try checked(buffers, "--buffers must be 2 or 3", BoardConfig.bufferCounts.contains) { cfg.buffers = v }
        if let v = try checked(idleBlankSeconds, idleBlankMessage, BoardConfig.isIdleBlank) {
            cfg.idleBlankSeconds = v
        }
        if let v = try checked(blank, "--blank must be dpms, backlight or black", BoardConfig.blankValues.contains) { cfg.blank = v }
        if let v = try checked(brightness, "--brightness must be a percentage from 1 to 100", (1...100).contains) { cfg.brightness = v }
        if let touchRotation { cfg.touchRotation = touchRotation }
        guard Rotation(rawValue: cfg.rotation) != nil else { throw ValidationError("--rotation must be 0, 90, 180 or 270") }
        guard cfg.touchRotation.map({ Rotation(rawValue: $0) != nil }) ?? true else {
            throw ValidationError("--touch-rotation must be 0, 90, 180 or 270")
        }
        if let maxFps, !(maxFps.isFinite && maxFps >= 1) { throw ValidationError("--max-fps must be at least 1") }
        return cfg
    }
}

let idleBlankMessage = "--idle-blank-seconds must be 0 (never) or lie in 5...604800"

/// `value` when it is absent or passes `isValid`; otherwise the option's error `message`.
func checked<T>(_ value: T?, _ message: String, _ isValid: (T) -> Bool) throws -> T? {
    guard let value else { return nil }
    guard isValid(value) else { throw ValidationError(message) }
    return value
}

/// `run --backend headless` options, the same for `glide run` and an app's own executable.
public struct HeadlessOptions: ParsableArguments {
    @Option(help: "headless (no display, virtual clock) or drm (use `board` for all board options).")
    public var backend = "headless"
    @Option(help: "Canvas size in pixels, WxH.")
    public var size = "1280x800"
    @Option(help: "Scale factor: pixels per point.")
    public var scale = 1.0
    @Option(help: "Frames per second of the virtual clock.")
    public var hz = 60.0
    @Option(help: "Script of timed input events (JSON Lines), or - for standard input.")
    public var script: String?
    @Option(help: "Folder for screenshots (NAME.png) and states (NAME.json), final.png and final.json.")
    public var out = "out"
    @Flag(help: "Print the median and 90th percentile wall-clock time per frame.")
    public var timing = false
    @Option(help: "Threads drawing each frame in bands (default: the cores, at most 4).")
    public var renderThreads = BandRenderer.defaultThreads
    @Option(help: "Seconds without input before the screen goes black (0: never); the waking touch is not passed on.")
    public var idleBlankSeconds = 0.0
    @Flag(help: "The screen reader: touches explore and speak, a double tap activates; speech goes to speech.wav and speech.jsonl in --out.")
    public var screenReader = false
    @Option(help: "Text size in percent for the whole app, 100 to 300.")
    public var textSize = 100
    @Flag(help: "High contrast: text black or white, light backgrounds white, borders black.")
    public var highContrast = false
    // With --remote the run is real-time and lasts until SIGINT/SIGTERM.
    @OptionGroup public var remote: RemoteOptions

    public init() {}

    /// The canvas size, checked, with the checked scale.
    public func geometry() throws -> (width: Int, height: Int, scale: Double) {
        guard backend == "headless" else {
            throw ValidationError("--backend \(backend): on a board use the `board` command (it takes the display and the touchscreen)")
        }
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (64...8192).contains(w), (64...8192).contains(h) else {
            throw ValidationError("--size must be WxH with sides in 64...8192, e.g. 1280x800")
        }
        guard hz.isFinite, hz >= 1, hz <= 1000 else { throw ValidationError("--hz must lie in 1...1000") }
        _ = try checked(idleBlankSeconds, idleBlankMessage, BoardConfig.isIdleBlank)
        try Launch.checkedThreads(renderThreads)
        return (w, h, try Launch.checkedScale(scale))
    }

    /// The script named by `--script`, parsed (none: an empty script). Errors name the file
    /// and line.
    public func parsedScript() throws -> InputScript {
        guard let script else { return InputScript(entries: []) }
        do {
            return try InputScript.parse(try readUTF8Text(script))
        } catch {
            processLog.error("\(script): \(error)")
            throw ExitCode(2)
        }
    }
}
