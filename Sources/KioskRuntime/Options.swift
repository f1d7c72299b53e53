import ArgumentParser
import BoardConfig
import ImageCodecs
import Runtime

/// `board` options, the same for `glide board` and for an app's own executable (`Kiosk.run`):
/// each overrides the config file's key of the same name.
package struct BoardOptions: ParsableArguments {
    @Option(help: "Board config file (key = value lines; see Board/config.example).")
    package var config: String?
    @Option(help: "DRM card, e.g. /dev/dri/card0 (default: the first with a connected display).")
    package var card: String?
    @Option(help: "Connector name, e.g. HDMI-A-1 (default: the first connected).")
    package var connector: String?
    @Option(help: "Mode WIDTHxHEIGHT[@HZ] (default: the display's preferred mode).")
    package var mode: String?
    @Option(help: "Panel rotation in degrees clockwise: 0, 90, 180 or 270.")
    package var rotation: Int?
    @Option(help: "Input device path (repeatable; default: every device of the udev seat).")
    package var input: [String] = []
    @Option(help: "udev seat for input.")
    package var seat: String?
    @Option(help: "Scale factor: pixels per point.")
    package var scale: Double?
    @Flag(help: "Treat the pointer's left button as a finger (mouse or QEMU tablet).")
    package var pointerAsTouch = false
    @Option(help: "Record every input event to FILE as a headless script (JSON Lines).")
    package var record: String?
    @Option(help: "Write the app's state JSON to FILE whenever it comes to rest (first after start).")
    package var stateFile: String?
    @Flag(help: "Print frame-time percentiles and input-to-flip latency at exit.")
    package var stats = false
    @Option(help: "Present at most this many frames per second (default: the mode's refresh rate).")
    package var maxFps: Double?
    @Option(help: "Threads drawing each frame in bands (default: render_threads, else the cores, at most 4).")
    package var renderThreads: Int?
    @Option(help: "How frames are committed: auto (atomic where the driver offers it), atomic or legacy.")
    package var modesetting: String?
    @Option(help: "Scanout buffers: 2, or 3 so that frames slower than a refresh period do not halve the rate.")
    package var buffers: Int?
    @Option(help: "Seconds without input before the screen goes dark (0: never); the waking touch is not passed on.")
    package var idleBlankSeconds: Double?
    @Option(help: "How the screen goes dark: dpms, backlight or black.")
    package var blank: String?
    @Option(help: "Backlight brightness in percent (1-100), set at start.")
    package var brightness: Int?
    @Option(help: "Touchscreen rotation in degrees clockwise, when it differs from the panel's.")
    package var touchRotation: Int?
    @Flag(help: "The screen reader: touches explore and speak (through speech_device), a double tap activates.")
    package var screenReader = false
    @OptionGroup package var schedule: ScheduleOptions
    @OptionGroup package var language: LanguageOptions
    @OptionGroup package var remote: RemoteOptions

    package init() {}

    /// The config file (if any) with these options over it. `apps`: the app names the
    /// executable can show (nil: it shows one app and ignores the key).
    package func mergedConfig(apps: [String]?) throws -> BoardConfig {
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
        try schedule.merged(into: &cfg)
        if let v = language.layoutDirection { cfg.layoutDirection = v }
        if let v = language.language { cfg.language = v }
        if let v = language.keyboardLayout { cfg.keyboardLayout = v }
        if let v = language.fonts.flatMap(BoardConfig.fontList) { cfg.fonts = v }
        guard Rotation(rawValue: cfg.rotation) != nil else { throw ValidationError("--rotation must be 0, 90, 180 or 270") }
        guard cfg.touchRotation.map({ Rotation(rawValue: $0) != nil }) ?? true else {
            throw ValidationError("--touch-rotation must be 0, 90, 180 or 270")
        }
        if let maxFps, !(maxFps.isFinite && maxFps >= 1) { throw ValidationError("--max-fps must be at least 1") }
        return cfg
    }
}

let idleBlankMessage = "--idle-blank-seconds must be 0 (never) or lie in 5...604800"

/// `--language`, `--layout-direction` and `--keyboard-layout`, the same on `board`, `run`, `demo` and every
/// app's command line; checked as they are parsed.
package struct LanguageOptions: ParsableArguments {
    @Option(help: "The app's language, a BCP 47 tag such as en, ar or de-CH: its words, numbers and dates.")
    package var language: String?
    @Option(help: "Which way the app lays out: ltr, rtl, or auto (as the app's language is read).")
    package var layoutDirection: String?
    @Option(
        help: "The on-screen keyboard's layout: en, de, fr, es, it, pt, nl, pl, tr, ru, uk, el, ja, ar, he, fa, number or pin.")
    package var keyboardLayout: String?
    @Option(
        help:
            "Font files tried for each character, comma-separated: names in Fonts/ or absolute paths (default: DejaVu Sans, VL PGothic, then the system's colour emoji)."
    )
    package var fonts: String?
    @Option(help: "light, dark, or HH:MM-HH:MM: dark between those times of the day (local time), light otherwise.")
    package var colorScheme: String?

    package init() {}

    package func validate() throws {
        _ = try checked(language, "--language must be a language tag such as en, ar or de-CH", BoardConfig.isLanguageTag)
        _ = try checked(layoutDirection, "--layout-direction must be ltr, rtl or auto", BoardConfig.layoutDirections.contains)
        let names = BoardConfig.keyboardLayouts
        _ = try checked(keyboardLayout, "--keyboard-layout must be one of \(names.joined(separator: ", "))", names.contains)
        _ = try checked(
            fonts, "--fonts must be 1 to 16 font files, comma-separated: names in Fonts/ or absolute paths",
            { BoardConfig.fontList($0) != nil })
        _ = try checked(
            colorScheme, "--color-scheme must be light, dark, or HH:MM-HH:MM (dark between those times)", BoardConfig.isColorScheme)
    }

    /// What these options set in an app.
    package func apply(to settings: inout AppSettings) {
        settings.language = language
        settings.layoutDirection = layoutDirection
        settings.keyboardLayout = keyboardLayout
        settings.fonts = fonts.flatMap(BoardConfig.fontList)
        if let colorScheme { settings.colorScheme = colorScheme }
    }

    /// These options again, for another command's line.
    package var arguments: [String] {
        [
            ("--language", language), ("--layout-direction", layoutDirection), ("--keyboard-layout", keyboardLayout), ("--fonts", fonts),
            ("--color-scheme", colorScheme),
        ].flatMap { name, value in
            value.map { [name, $0] } ?? []
        }
    }
}

/// `value` when it is absent or passes `isValid`; otherwise the option's error `message`.
func checked<T>(_ value: T?, _ message: String, _ isValid: (T) -> Bool) throws -> T? {
    guard let value else { return nil }
    guard isValid(value) else { throw ValidationError(message) }
    return value
}

/// `run --backend headless` options, the same for `glide run` and an app's own executable.
package struct HeadlessOptions: ParsableArguments {
    @Option(help: "headless (no display, virtual clock) or drm (use `board` for all board options).")
    package var backend = "headless"
    @Option(help: "Canvas size in pixels, WxH.")
    package var size = "1280x800"
    @Option(help: "Scale factor: pixels per point.")
    package var scale = 1.0
    @Option(help: "Frames per second of the virtual clock.")
    package var hz = 60.0
    @Option(help: "After the script, frames until the app is at rest, for at most this many seconds (a looping clip never rests).")
    package var settleSeconds = 10.0
    @Option(help: "Script of timed input events (JSON Lines), or - for standard input.")
    package var script: String?
    @Option(help: "Folder for screenshots (NAME.png) and states (NAME.json), final.png and final.json.")
    package var out = "out"
    @Flag(help: "Print the median and 90th percentile wall-clock time per frame.")
    package var timing = false
    @Option(help: "Threads drawing each frame in bands (default: the cores, at most 4).")
    package var renderThreads = BandRenderer.defaultThreads
    @Option(help: "Seconds without input before the screen goes black (0: never); the waking touch is not passed on.")
    package var idleBlankSeconds = 0.0
    @Option(help: "Seconds without input before the app returns to its start (0: never; 5 to 604800), as idle_reset_seconds.")
    package var idleResetSeconds = 0.0
    @OptionGroup package var schedule: ScheduleOptions
    @Option(
        help: ArgumentHelp(
            "The local wall time at the script's start, which --display-schedule is read on (default: now).",
            valueName: "YYYY-MM-DDTHH:MM[:SS]"))
    package var startTime: String?
    @Flag(
        help: "The screen reader: touches explore and speak, a double tap activates; speech goes to speech.wav and speech.jsonl in --out.")
    package var screenReader = false
    @Option(help: "Text size in percent for the whole app, 100 to 300.")
    package var textSize = 100
    @Flag(help: "High contrast: text black or white, light backgrounds white, borders black.")
    package var highContrast = false
    @OptionGroup package var language: LanguageOptions
    // With --remote the run is real-time and lasts until SIGINT/SIGTERM.
    @OptionGroup package var remote: RemoteOptions

    package init() {}

    /// The canvas size, checked, with the checked scale.
    package func geometry() throws -> (width: Int, height: Int, scale: Double) {
        guard backend == "headless" else {
            throw ValidationError("--backend \(backend): on a board use the `board` command (it takes the display and the touchscreen)")
        }
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (64...8192).contains(w), (64...8192).contains(h) else {
            throw ValidationError("--size must be WxH with sides in 64...8192, e.g. 1280x800")
        }
        guard hz.isFinite, hz >= 1, hz <= 1000 else { throw ValidationError("--hz must lie in 1...1000") }
        _ = try checked(idleBlankSeconds, idleBlankMessage, BoardConfig.isIdleBlank)
        guard idleResetSeconds == 0 || (5...604_800).contains(idleResetSeconds) else {
            throw ValidationError("--idle-reset-seconds must be 0 (never) or lie in 5...604800")
        }
        try Launch.checkedThreads(renderThreads)
        _ = try startLocalSeconds()
        return (w, h, try Launch.checkedScale(scale))
    }

    /// `--start-time` as local wall-clock seconds, checked; nil when not given.
    package func startLocalSeconds() throws -> Double? {
        guard let startTime else { return nil }
        guard let seconds = DisplaySchedule.localSeconds(parsing: startTime) else {
            throw ValidationError("--start-time must be a local date and time YYYY-MM-DDTHH:MM[:SS], e.g. 2026-12-07T06:59")
        }
        return Double(seconds)
    }

    /// The script named by `--script`, parsed (none: an empty script). Errors name the file
    /// and line. A script may be a recording a power cut stopped mid-line: what is whole is
    /// played, and the cut line is named in a warning.
    package func parsedScript() throws -> InputScript {
        guard let script else { return InputScript(entries: []) }
        do {
            let bytes = try FileIO.readAll(
                path: script == "-" ? "/dev/stdin" : script, limit: FileIO.maxScriptBytes, allowingStreams: script == "-")
            let (parsed, cut) = try InputScript.parse(recording: bytes)
            if let cut { processLog.warning("\(script): \(cut)") }
            return parsed
        } catch {
            processLog.error("\(script): \(error)")
            throw ExitCode(2)
        }
    }
}
