import AppContract
import Geometry
import ImageCodecs

/// The board's facts, from one config file, not in code: which card, connector and mode, the panel
/// rotation, touch calibration, scale factor and what to show. Every field is optional; what is
/// absent is chosen automatically (first connected display, its preferred mode, no rotation).
///
/// The format is one `key = value` per line; `#` starts a comment; values may be quoted with
/// `"..."`. Keys are documented in `Board/config.example`.
package struct BoardConfig: Hashable, Sendable {
    package struct Mode: Hashable, Sendable {
        package var width: Int
        package var height: Int
        package var refreshHz: Double?
        package init(width: Int, height: Int, refreshHz: Double? = nil) {
            self.width = width; self.height = height; self.refreshHz = refreshHz
        }
    }

    /// DRM card path, e.g. /dev/dri/card0.
    package var card: String?
    /// Connector name as the kernel reports it, e.g. HDMI-A-1, DSI-1, Virtual-1.
    package var connector: String?
    package var mode: Mode?
    /// Degrees clockwise: 0, 90, 180 or 270.
    package var rotation: Int = 0
    package static let rotations = [0, 90, 180, 270]
    /// libinput-style 3x2 calibration matrix on normalized coordinates (a b c d e f).
    package var calibration: [Double]?
    /// Points to pixels.
    package var scale: Double = 1
    /// The app to show (e.g. "catalog").
    package var app: String?
    /// The app's content manifest.
    package var manifest: String?
    /// The folder an app's relative picture paths are found in first.
    package var assets: String?
    /// The udev seat for input; ignored when `inputs` lists devices.
    package var seat: String = "seat0"
    /// Explicit /dev/input/event* paths (the libinput path backend; no hotplug).
    package var inputs: [String] = []
    /// Treat a pointer's left button as a finger.
    package var pointerAsTouch = false
    /// Remote control listen address (host:port) and token: the opt-in remote-control server.
    package var remoteAddress: String?
    package var remoteToken: String?
    /// A file of named, scoped tokens, and how time passes under remote control (wall or virtual).
    package var remoteTokens: String?
    package var remoteClock: String?
    /// The remote API's TLS certificate and key (PEM files), and the CA of client certificates.
    package var remoteTLSCertificate: String?
    package var remoteTLSKey: String?
    package var remoteClientCA: String?
    /// Megabytes the window's picture caches may hold beyond what the screen shows.
    package var memoryBudgetMB = 192
    /// Threads drawing each frame's damage in bands (nil: the cores, at most 4).
    package var renderThreads: Int?
    /// "auto", "atomic" or "legacy": how frames are committed to the display.
    package var modesetting = "auto"
    package static let modesettingValues = ["auto", "atomic", "legacy"]
    /// Scanout buffers: 2, or 3 for frames that take longer than a refresh period.
    package var buffers = 2
    package static let bufferCounts = 2...3
    /// Seconds the board waits at start for a display card that is not there yet, or that udev
    /// has not yet opened to the service user (0: fail at once).
    package var displayWaitSeconds: Double = 15
    package static let displayWaitRange = 0.0...600
    /// Seconds without input before the screen goes dark (0: never).
    package var idleBlankSeconds: Double = 0
    /// Seconds without input before the app returns to its start for the next visitor (0: never).
    package var idleResetSeconds: Double = 0
    package static let idleBlankRange = 0.0...604_800
    /// The shortest wait before blanking: less, and the screen went dark after every touch,
    /// which then only woke it, so no tap ever reached the app.
    package static let minimumIdleBlank = 5.0
    /// 0 (never) or `minimumIdleBlank`...a week.
    package static func isIdleBlank(_ s: Double) -> Bool { s == 0 || (s >= minimumIdleBlank && idleBlankRange.contains(s)) }
    /// Opening hours: the panel is off outside them (as `blank` says) and on holidays
    /// (`display_schedule`, see `DisplaySchedule`); nil: always on.
    package var displaySchedule: DisplaySchedule?
    /// Seconds a touch outside the opening hours keeps the panel on after the last input.
    package var displayWakeSeconds: Double = 60
    /// 5 (less, and a touch only woke it: no tap reached the app) to a day.
    package static let displayWakeRange = 5.0...86_400
    /// How it goes dark: "dpms", "backlight" or "black".
    package var blank = "dpms"
    package static let blankValues = ["dpms", "backlight", "black"]
    /// Backlight brightness in percent, set at start (nil: left as it is).
    package var brightness: Int?
    /// The backlight's name under /sys/class/backlight (nil: the first).
    package var backlight: String?
    /// Degrees clockwise the touchscreen is turned against the canvas (nil: as `rotation`).
    package var touchRotation: Int?
    /// The on-screen keyboard's layout (`en`, `de`, `fr`, `es`, `it`, `pt`, `nl`, `pl`, `tr`, `ru`,
    /// `uk`, `el`, `ja`, `ar`, `he`, `fa`, `number`, `pin`); it also picks a physical keyboard's
    /// keymap unless `keymap` names one.
    package var keyboardLayout = "en"
    /// Which way the app lays out: `ltr`, `rtl`, or `auto` (as the app's language is read);
    /// nil: the app's own choice.
    package var layoutDirection: String?
    /// The app's language, a BCP 47 tag (`en`, `ar`, `de-CH`): its catalog's strings, the
    /// built-in words, numbers and dates; nil: the app's own choice.
    package var language: String?
    package static let layoutDirections = ["ltr", "rtl", "auto"]
    /// The font chain: files tried for each character, names in `Fonts/` or absolute paths; nil:
    /// the default (DejaVu Sans, VL PGothic, the system's colour emoji).
    package var fonts: [String]?

    /// A BCP 47 language tag as a config may give it: a language of 2 or 3 letters, then up to
    /// four subtags of letters and digits (`ar`, `de-CH`, `zh-Hant-TW`).
    package static func isLanguageTag(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.count <= 5
        else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// `fonts`' value as a list: 1 to 16 comma-separated files, each a plain name (no `/`) or an
    /// absolute path; nil when it is not one.
    package static func fontList(_ value: String) -> [String]? {
        let names = value.split(separator: ",", omittingEmptySubsequences: false).map { part in
            String(part.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
        }
        guard (1...16).contains(names.count) else { return nil }
        for n in names {
            guard !n.isEmpty, n.utf8.count <= 4096, !n.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return nil
            }
            guard n.hasPrefix("/") || !n.contains("/") else { return nil }
        }
        return names
    }
    /// The xkb keymap of physical keyboards and scanners (`us`, `de`, `gb`, ...); nil: from
    /// `keyboard_layout`.
    package var keymap: String?
    /// "auto" (hidden while a physical keyboard is attached), "always" or "never".
    package var onscreenKeyboard = "auto"
    /// Physical keys held down repeat after this delay, this many times a second.
    package var keyboardRepeatDelayMilliseconds = 500
    package var keyboardRepeatRate = 25
    /// The screen reader, and its speech: the ALSA device, words a minute, pitch
    /// (0-100), the espeak-ng voice for the app's language (other languages get their own), and the keypad's keys.
    package var screenReader = false
    package var speechDevice = "default"
    package var speechRate = 175
    package var speechPitch = 50
    package var speechVoice = "en"
    package var keypad: String?
    /// Text size in percent (100-300) and high contrast, which every layout follows.
    package var textSize = 100
    package var highContrast = false
    /// `light`, `dark`, or `HH:MM-HH:MM`: dark between those times of day.
    package var colorScheme: String?
    package static let keyboardLayouts = [
        "en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "ru", "uk", "el", "ja", "ar", "he", "fa", "number", "pin",
    ]
    package static let onscreenKeyboardValues = ["auto", "always", "never"]
    /// The file (or name) the config came from, and the line each key was set on.
    package private(set) var source = "config"
    package private(set) var lines: [String: Int] = [:]

    package init() {}

    /// `FILE:LINE` where `key` was set, for errors found after parsing; nil if it was not set.
    package func place(of key: String) -> String? { lines[key].map { "\(source):\($0)" } }

    /// Keys whose values no message repeats.
    package static let secretKeys: Set<String> = ["remote_token"]

    /// The keys the file may use.
    package static let keys = [
        "card", "connector", "mode", "rotation", "calibration", "scale", "app", "manifest", "assets",
        "seat", "input", "pointer_as_touch", "remote_address", "remote_token",
        "remote_tokens", "remote_clock", "remote_tls_certificate", "remote_tls_key", "remote_client_ca",
        "memory_budget_mb", "render_threads", "modesetting", "buffers",
        "idle_blank_seconds", "idle_reset_seconds", "display_schedule", "display_wake_seconds", "blank", "brightness", "backlight",
        "touch_rotation",
        "display_wait_seconds", "keyboard_layout", "language", "layout_direction", "fonts", "keymap", "onscreen_keyboard",
        "keyboard_repeat_delay_ms", "keyboard_repeat_rate", "screen_reader", "speech_device",
        "speech_rate", "speech_pitch", "speech_voice", "keypad", "text_size", "high_contrast", "color_scheme",
    ]

    /// Parses the text of a config file. `source` names the file in errors.
    /// `apps`: the app names the binary can show (an `app` value outside it is an error of that
    /// line); nil accepts any.
    package init(parsing text: String, source: String = "config", apps: [String]? = nil) throws(BoardConfigError) {
        self.init()
        self.source = source
        var seen: [String: Int] = [:]
        defer { lines = seen }
        var lineNumber = 0
        for rawLine in textLines(text) {
            lineNumber += 1
            guard let entry = try ConfigEntry(String(rawLine), source: source, line: lineNumber, seen: &seen) else { continue }
            try apply(entry, apps: apps)
        }
    }

    /// Sets the field `entry`'s key names from its value, or throws what the value should be.
    private mutating func apply(_ entry: ConfigEntry, apps: [String]?) throws(BoardConfigError) {
        if try applyDisplay(entry, apps: apps) { return }
        if try applyScreenPower(entry) { return }
        if try applyInput(entry) { return }
        if try applyRemoteAndAccessibility(entry) { return }
        throw .unknownKey(source: entry.source, line: entry.line, key: entry.key, known: BoardConfig.keys)
    }

    /// The display, the app and how frames are drawn; false for another key.
    private mutating func applyDisplay(_ entry: ConfigEntry, apps: [String]?) throws(BoardConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "card":
            guard value.hasPrefix("/") else { throw entry.bad("an absolute device path such as /dev/dri/card0") }
            card = value
        case "connector": connector = value
        case "mode":
            guard let m = BoardConfig.parseMode(value) else { throw entry.bad("WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800@60") }
            mode = m
        case "rotation":
            guard let r = Int(value), BoardConfig.rotations.contains(r) else { throw entry.bad("0, 90, 180 or 270") }
            rotation = r
        case "calibration": calibration = try BoardConfig.calibrationMatrix(entry)
        case "scale":
            guard let s = Double(value), s.isFinite, s >= 0.25, s <= 8 else { throw entry.bad("a number between 0.25 and 8") }
            scale = s
        case "app":
            if let apps, !apps.contains(value) { throw entry.bad("one of \(apps.joined(separator: ", "))") }
            app = value
        case "manifest": manifest = value
        case "assets": assets = value
        case "memory_budget_mb":
            guard let mb = Int(value), (16...65536).contains(mb) else { throw entry.bad("a whole number of megabytes from 16 to 65536") }
            memoryBudgetMB = mb
        case "render_threads":
            guard let n = Int(value), (1...64).contains(n) else { throw entry.bad("a whole number of threads from 1 to 64") }
            renderThreads = n
        case "modesetting":
            guard BoardConfig.modesettingValues.contains(value) else { throw entry.bad("auto, atomic or legacy") }
            modesetting = value
        case "buffers":
            guard let n = Int(value), BoardConfig.bufferCounts.contains(n) else {
                throw entry.bad("2 (double buffering) or 3 (triple buffering)")
            }
            buffers = n
        case "display_wait_seconds":
            guard let s = Double(value), BoardConfig.displayWaitRange.contains(s) else {
                throw entry.bad("seconds from 0 (do not wait) to 600")
            }
            displayWaitSeconds = s
        default: return false
        }
        return true
    }

    /// Six numbers of an invertible touch calibration matrix.
    private static func calibrationMatrix(_ entry: ConfigEntry) throws(BoardConfigError) -> [Double] {
        let parts = entry.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        let numbers = parts.compactMap { Double($0) }.filter(\.isFinite)
        guard parts.count == 6, numbers.count == 6 else { throw entry.bad("six numbers a b c d e f (identity: 1 0 0 0 1 0)") }
        // The map must be invertible (a panel point per screen point) and its inverse finite.
        let det = numbers[0] * numbers[4] - numbers[1] * numbers[3]
        guard det.isFinite, abs(det) >= 1e-6, numbers.allSatisfy({ abs($0) <= 1e6 }) else {
            throw entry.bad("an invertible matrix of moderate numbers (a·e − b·d not 0, each within ±1e6)")
        }
        return numbers
    }

    /// When and how the screen goes dark, and its backlight; false for another key.
    private mutating func applyScreenPower(_ entry: ConfigEntry) throws(BoardConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "idle_blank_seconds":
            guard let s = Double(value), BoardConfig.isIdleBlank(s) else {
                throw entry.bad("0 (never) or seconds from 5 to 604800 (a week)")
            }
            idleBlankSeconds = s
        case "idle_reset_seconds":
            guard let s = Double(value), s == 0 || (5...604_800).contains(s) else {
                throw entry.bad("0 (never) or seconds from 5 to 604800 (a week)")
            }
            idleResetSeconds = s
        case "display_schedule":
            do { displaySchedule = try DisplaySchedule(parsing: value) } catch {
                throw entry.bad("\(error.expected) (e.g. Mon-Fri 07:00-22:00; Sat 09:00-18:00; holidays 2026-12-25)")
            }
        case "display_wake_seconds":
            guard let s = Double(value), BoardConfig.displayWakeRange.contains(s) else {
                throw entry.bad("seconds from 5 to 86400 (a day)")
            }
            displayWakeSeconds = s
        case "blank":
            guard BoardConfig.blankValues.contains(value) else { throw entry.bad("dpms, backlight or black") }
            blank = value
        case "brightness":
            brightness = try entry.integer(in: 1...100, "a percentage from 1 to 100")
        case "backlight":
            guard !value.contains("/"), value != ".", value != ".." else {
                throw entry.bad("a name under /sys/class/backlight, e.g. intel_backlight")
            }
            backlight = value
        default: return false
        }
        return true
    }

    /// Touch, pointer and keyboard devices and the on-screen keyboard; false for another key.
    private mutating func applyInput(_ entry: ConfigEntry) throws(BoardConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "seat": seat = value
        case "input":
            guard value.hasPrefix("/") else { throw entry.bad("an absolute device path such as /dev/input/event0") }
            inputs.append(value)
        case "pointer_as_touch":
            guard let on = BoardConfig.flag(value) else { throw entry.bad("true or false") }
            pointerAsTouch = on
        case "touch_rotation":
            guard let r = Int(value), BoardConfig.rotations.contains(r) else { throw entry.bad("0, 90, 180 or 270") }
            touchRotation = r
        case "keyboard_layout":
            guard BoardConfig.keyboardLayouts.contains(value) else {
                throw entry.bad(BoardConfig.keyboardLayouts.joined(separator: ", "))
            }
            keyboardLayout = value
        case "language":
            guard BoardConfig.isLanguageTag(value) else { throw entry.bad("a language tag such as en, ar or de-CH") }
            language = value
        case "layout_direction":
            guard BoardConfig.layoutDirections.contains(value) else { throw entry.bad("ltr, rtl or auto") }
            layoutDirection = value
        case "fonts":
            guard let list = BoardConfig.fontList(value) else {
                throw entry.bad("1 to 16 font files, comma-separated: names in Fonts/ or absolute paths")
            }
            fonts = list
        case "keymap":
            keymap = try entry.plainName(limit: 64, extra: "()_-+", "an xkb layout name such as us, de, fr, gb or jp")
        case "onscreen_keyboard":
            guard BoardConfig.onscreenKeyboardValues.contains(value) else { throw entry.bad("auto, always or never") }
            onscreenKeyboard = value
        case "keyboard_repeat_delay_ms":
            keyboardRepeatDelayMilliseconds = try entry.integer(in: 100...5000, "milliseconds from 100 to 5000")
        case "keyboard_repeat_rate":
            keyboardRepeatRate = try entry.integer(in: 0...100, "repeats a second from 0 (none) to 100")
        default: return false
        }
        return true
    }

    /// Remote control, the screen reader and its speech, text size and contrast; false for
    /// another key.
    private mutating func applyRemoteAndAccessibility(_ entry: ConfigEntry) throws(BoardConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "remote_address":
            guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]),
                (1...65535).contains(port), colon != value.startIndex
            else { throw entry.bad("HOST:PORT, e.g. 127.0.0.1:8377") }
            remoteAddress = value
        case "remote_token":
            guard isAcceptableToken(value) else { throw entry.bad("a token of \(tokenRule)") }
            remoteToken = value
        case "remote_tokens":
            guard !value.isEmpty else { throw entry.bad("the path of a token file (NAME SCOPE TOKEN lines)") }
            remoteTokens = value
        case "remote_clock":
            guard value == "wall" || value == "virtual" else { throw entry.bad("wall or virtual") }
            remoteClock = value
        // Paths, read when the server starts (an entry's value is never empty).
        case "remote_tls_certificate": remoteTLSCertificate = value
        case "remote_tls_key": remoteTLSKey = value
        case "remote_client_ca": remoteClientCA = value
        case "screen_reader":
            guard let on = BoardConfig.flag(value) else { throw entry.bad("on or off") }
            screenReader = on
        case "speech_device":
            guard !value.isEmpty, value.utf8.count <= 100, !value.contains(where: { $0 == " " || $0.isNewline }) else {
                throw entry.bad("an ALSA device name such as default, hw:0,0 or plughw:1")
            }
            speechDevice = value
        case "speech_rate":
            speechRate = try entry.integer(in: 80...450, "words a minute from 80 to 450")
        case "speech_pitch":
            speechPitch = try entry.integer(in: 0...100, "0 to 100")
        case "speech_voice":
            speechVoice = try entry.plainName(limit: 40, extra: "-_+", "an espeak-ng voice such as en, en-gb, de or fr")
        case "keypad":
            keypad = value
        case "text_size":
            textSize = try entry.integer(in: 100...300, "a percentage from 100 to 300", percent: true)
        case "high_contrast":
            guard let on = BoardConfig.flag(value) else { throw entry.bad("on or off") }
            highContrast = on
        case "color_scheme":
            guard BoardConfig.isColorScheme(value) else { throw entry.bad("light, dark, or HH:MM-HH:MM (dark between those times)") }
            colorScheme = value
        default: return false
        }
        return true
    }

    /// `light`, `dark`, or a schedule `HH:MM-HH:MM` (dark from the first time until the second).
    package static func isColorScheme(_ value: String) -> Bool {
        value == "light" || value == "dark" || ColorSchedule(value) != nil
    }

    /// A yes-or-no value: on, true, yes, 1 or off, false, no, 0 (any case); nil otherwise.
    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: return nil
        }
    }

    /// The largest config file read.
    package static let maximumBytes = 1 << 20

    /// Reads and parses the file at `path`: a regular file only (a FIFO in its place must not
    /// hang the boot), at most `maximumBytes`.
    package static func load(path: String, apps: [String]? = nil) throws(BoardConfigError) -> BoardConfig {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path, limit: maximumBytes) } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadable(path: path, reason: "not UTF-8 text")
        }
        return try BoardConfig(parsing: text, source: path, apps: apps)
    }

    /// "1280x800" or "1280x800@60".
    package static func parseMode(_ text: String) -> Mode? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
            (1...16384).contains(w), (1...16384).contains(h)
        else { return nil }
        var hz: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r.isFinite, r > 0, r <= 1000 else { return nil }
            hz = r
        }
        return Mode(width: w, height: h, refreshHz: hz)
    }

    /// Drops a `#` comment that is not inside quotes.
    static func stripComment(_ line: String) -> String {
        var inQuotes = false
        for i in line.indices {
            if line[i] == "\"" { inQuotes.toggle() }
            if line[i] == "#" && !inQuotes { return String(line[..<i]) }
        }
        return line
    }
}

/// A config problem, naming the file, line and key.
package enum BoardConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case syntax(source: String, line: Int, text: String, expected: String)
    case unknownKey(source: String, line: Int, key: String, known: [String])
    case duplicateKey(source: String, line: Int, key: String, firstLine: Int)
    case badValue(source: String, line: Int, key: String, value: String, expected: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read config \(path): \(reason)"
        case .syntax(let s, let l, let text, let expected): return "\(s):\(l): expected \(expected), found '\(excerpt(text))'"
        case .unknownKey(let s, let l, let key, let known):
            // The nearest keys, not all of them: a list that grows with every key would soon
            // outgrow a message a person reads.
            let near = BoardConfig.nearest(to: key, in: known)
            return "\(s):\(l): unknown key '\(excerpt(key))'"
                + (near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?)")
                + "; config.example lists the \(known.count) keys"
        case .duplicateKey(let s, let l, let key, let first): return "\(s):\(l): key '\(key)' already set on line \(first)"
        case .badValue(let s, let l, let key, let value, let expected):
            // A secret is never repeated, whatever the file looks like.
            let shown = BoardConfig.secretKeys.contains(key) ? "(hidden, \(value.utf8.count) bytes)" : "'\(excerpt(value))'"
            return "\(s):\(l): bad value \(shown) for key '\(key)': expected \(expected)"
        }
    }
}

extension BoardConfig {
    /// Up to three of `known` within a few edits of `key` (a typo, a letter left out), nearest
    /// first. A key far longer than any known one is near none.
    static func nearest(to key: String, in known: [String]) -> [String] {
        let typed = Array(key.utf8)
        guard typed.count <= 2 * (known.map(\.utf8.count).max() ?? 0) else { return [] }
        let limit = max(2, typed.count / 3)
        let scored = known.map { (name: $0, distance: editDistance(typed, Array($0.utf8))) }.filter { $0.distance <= limit }
        return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(3).map(\.name)
    }

    /// Levenshtein distance: insertions, deletions and substitutions of bytes.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
    var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}

/// One `key = value` line of a config file: the key (lower case, dashes as underscores), the
/// value without its quotes, and where it stands for errors.
private struct ConfigEntry {
    let source: String
    let line: Int
    let key: String
    let value: String

    /// The entry on `rawLine` (numbered `line` in `source`), nil for a blank or comment line.
    /// Records the key's line in `seen`; throws for a syntax error, an unknown or repeated key
    /// (`input` may repeat), an unclosed quote or an empty value.
    init?(_ rawLine: String, source: String, line lineNumber: Int, seen: inout [String: Int]) throws(BoardConfigError) {
        let line = BoardConfig.stripComment(rawLine).trimmed
        if line.isEmpty { return nil }
        guard let eq = line.firstIndex(of: "=") else {
            throw .syntax(source: source, line: lineNumber, text: line, expected: "key = value")
        }
        let key = String(line[..<eq]).trimmed.lowercased().replacingDashes
        var value = String(line[line.index(after: eq)...]).trimmed
        guard !key.isEmpty else { throw .syntax(source: source, line: lineNumber, text: line, expected: "a key before '='") }
        guard BoardConfig.keys.contains(key) else {
            throw .unknownKey(source: source, line: lineNumber, key: key, known: BoardConfig.keys)
        }
        if key != "input", let first = seen[key] {
            throw .duplicateKey(source: source, line: lineNumber, key: key, firstLine: first)
        }
        seen[key] = lineNumber
        if value.hasPrefix("\"") {
            guard value.count >= 2, value.hasSuffix("\"") else {
                throw .badValue(source: source, line: lineNumber, key: key, value: value, expected: "a closing quote")
            }
            value = String(value.dropFirst().dropLast())
        }
        self.source = source
        self.line = lineNumber
        self.key = key
        self.value = value
        guard !value.isEmpty else { throw bad("a value") }
    }

    /// The error for this entry's value, saying what was `expected`.
    func bad(_ expected: String) -> BoardConfigError {
        .badValue(source: source, line: line, key: key, value: value, expected: expected)
    }

    /// The value as a plain ASCII name: letters, digits and `extra`, at most `limit` bytes.
    func plainName(limit: Int, extra: String, _ expected: String) throws(BoardConfigError) -> String {
        guard value.utf8.count <= limit,
            value.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0))
            })
        else { throw bad(expected) }
        return value
    }

    /// The value as a whole number in `range` ("150%" reads as 150 where `percent`).
    func integer(in range: ClosedRange<Int>, _ expected: String, percent: Bool = false) throws(BoardConfigError) -> Int {
        let digits = percent && value.hasSuffix("%") ? String(value.dropLast()) : value
        guard let v = Int(digits), range.contains(v) else { throw bad(expected) }
        return v
    }
}
