import FoundationEssentials
import Geometry

/// A script of timed input (headless runs, recordings on a board, the remote control): JSON Lines,
/// one event per line, `t` in milliseconds, coordinates in screen pixels.
///
/// {"t":0,"touch":"down","id":0,"x":640,"y":600} {"t":200,"key":"PageDown"}
/// {"t":300,"wheel":{"dx":0,"dy":-120},"x":640,"y":400}
/// {"t":400,"scroll":{"dx":0,"dy":14},"x":640,"y":400}     (touchpad; dx = dy = 0: fingers lifted)
/// {"t":450,"type":"Grüße, 東京"}                           (typed into the focused field)
/// {"t":1500,"screenshot":"after-flick"} {"t":1500,"state":"s1"}
public struct InputScript: Hashable, Sendable {
    package enum Action: Hashable, Sendable {
        case input(InputEvent.Kind)
        /// Press and release.
        case key(Key)
        case screenshot(String)
        case state(String)
    }
    package struct Entry: Hashable, Sendable {
        package var line: Int
        /// Milliseconds.
        package var t: Double
        package var action: Action
        package init(line: Int, t: Double, action: Action) { self.line = line; self.t = t; self.action = action }
    }
    package var entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    /// Why a script was rejected: the first bad line and what is wrong with it.
    public struct ParseError: Error, Hashable, CustomStringConvertible {
        /// The number of the bad line, counting from 1.
        public var line: Int
        /// What is wrong with the line, in English.
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    private struct Line: Decodable {
        struct Wheel: Decodable { var dx: Double?; var dy: Double? }
        var t: Double?
        var touch: String?
        var id: Int?
        var x: Double?
        var y: Double?
        var key: String?
        var type: String?
        var wheel: Wheel?
        var scroll: Wheel?
        var screenshot: String?
        var state: String?
        var pointer: String?
        var button: Int?
    }

    /// Parses a whole script; the first bad line throws with its number, so nothing runs half.
    ///
    /// - Parameters:
    ///   - text: JSON Lines, one event per line; blank lines and lines starting with `#` or `//`
    ///     are skipped.
    ///   - allowNegativeTime: Whether a `t` before 0 is accepted.
    /// - Returns: The script, its entries in the order of the lines.
    /// - Throws: `InputScript.ParseError` naming the first bad line and what is wrong with it.
    public static func parse(_ text: String, allowNegativeTime: Bool = false) throws(ParseError) -> InputScript {
        var entries: [Entry] = []
        var reader = LineReader(allowNegativeTime: allowNegativeTime)
        for (index, raw) in textLines(text).enumerated() {
            if let entry = try reader.read(raw, number: index + 1) { entries.append(entry) }
        }
        return InputScript(entries: entries)
    }

    /// Parses a recording (`--record`) that may have stopped in the middle of a line, as a
    /// power cut stops one: the recorder writes each line with its line break at once, so a
    /// last line without one that is not a whole JSON object (or not UTF-8) was cut. It is left
    /// out and returned as `cut`, naming it; the lines before it are the script. Any other bad
    /// line throws as in `parse`: a whole line that is wrong was written wrong, not cut.
    ///
    /// - Parameters:
    ///   - bytes: The file: UTF-8 up to its last line break.
    ///   - allowNegativeTime: Whether a `t` before 0 is accepted.
    /// - Returns: The script of the whole lines, and the cut last line (nil when there is none).
    /// - Throws: `InputScript.ParseError` naming the first bad line that is not the cut one.
    package static func parse(recording bytes: [UInt8], allowNegativeTime: Bool = false) throws(ParseError) -> (
        script: InputScript, cut: ParseError?
    ) {
        let end = bytes.lastIndex { $0 == 0x0A || $0 == 0x0D }.map { $0 + 1 } ?? 0
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            let line = bytes[..<end].split(separator: 0x0A, omittingEmptySubsequences: false).firstIndex {
                String(validating: $0, as: UTF8.self) == nil
            }
            throw ParseError(line: (line ?? 0) + 1, message: "not UTF-8 text")
        }
        let lines = end == 0 ? [] : textLines(text).dropLast()
        var reader = LineReader(allowNegativeTime: allowNegativeTime)
        var entries: [Entry] = []
        for (index, raw) in lines.enumerated() {
            if let entry = try reader.read(raw, number: index + 1) { entries.append(entry) }
        }
        let last = bytes[end...]
        let number = lines.count + 1
        if let text = String(validating: last, as: UTF8.self), isSkipped(text) || isWholeObject(text) {
            if let entry = try reader.read(Substring(text), number: number) { entries.append(entry) }
            return (InputScript(entries: entries), nil)
        }
        let cut = ParseError(
            line: number,
            message:
                "cut off: the file ends in the middle of this line (\(last.count) bytes, as a recording stopped by a power cut ends); the \(entries.count) events before it are replayed"
        )
        return (InputScript(entries: entries), cut)
    }

    /// Whether a line is blank or a comment (`#`, `//`), which a script skips.
    static func isSkipped(_ raw: some StringProtocol) -> Bool {
        let line = raw.trimmingCharacters(in: " \t\r")
        return line.isEmpty || line.hasPrefix("#") || line.hasPrefix("//")
    }

    /// Whether `text` is one whole JSON object, whatever its keys: a line cut short never is.
    static func isWholeObject(_ text: String) -> Bool {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Object: Decodable {
            init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
        }
        return (try? JSONDecoder().decode(Object.self, from: Data(text.utf8))) != nil
    }

    /// Reads a script line by line, keeping what a line is checked against: the time of the
    /// line before and the fingers that are down. A live viewer's messages are lines of one
    /// script that never ends.
    package struct LineReader {
        package var allowNegativeTime: Bool
        package private(set) var lastT = -Double.infinity
        /// Fingers (script ids) down after the lines read so far.
        package private(set) var fingersDown: Set<Int> = []
        private let decoder = JSONDecoder()

        package init(allowNegativeTime: Bool = false) { self.allowNegativeTime = allowNegativeTime }

        /// The entry of line `number`, or nil for a blank or comment line.
        package mutating func read(_ raw: Substring, number: Int) throws(ParseError) -> Entry? {
            if InputScript.isSkipped(raw) { return nil }
            let line = raw.trimmingCharacters(in: " \t\r")
            let parsed: Line
            do {
                parsed = try decoder.decode(Line.self, from: Data(line.utf8))
            } catch {
                throw ParseError(
                    line: number, message: "not a JSON object of the script format (\(excerpt(InputScript.describe(error), limit: 200)))")
            }
            if let duplicate = JSONDuplicateKeys.first(in: line.utf8) {
                throw ParseError(line: number, message: "\"\(excerpt(duplicate.name, limit: 40))\" is given twice")
            }
            guard let t = parsed.t else { throw ParseError(line: number, message: "missing \"t\" (milliseconds)") }
            guard t.isFinite, t <= 86_400_000, allowNegativeTime || t >= 0 else {
                throw ParseError(line: number, message: "\"t\" must be a number of milliseconds from 0 to 86400000 (a day)")
            }
            guard t >= lastT else { throw ParseError(line: number, message: "time goes backwards (\(t) after \(lastT))") }
            lastT = t
            return Entry(line: number, t: t, action: try action(of: parsed, number: number))
        }

        private mutating func action(of parsed: Line, number: Int) throws(ParseError) -> Action {
            let actions = [
                parsed.touch != nil, parsed.key != nil, parsed.wheel != nil, parsed.scroll != nil,
                parsed.screenshot != nil, parsed.state != nil, parsed.pointer != nil, parsed.type != nil,
            ].filter { $0 }.count
            guard actions == 1 else {
                throw ParseError(
                    line: number, message: "each line needs exactly one of touch, key, type, wheel, scroll, pointer, screenshot, state")
            }
            func point() throws(ParseError) -> Point { try Self.point(of: parsed, number: number) }
            let action: Action
            if let touch = parsed.touch {
                action = try touchAction(touch, of: parsed, number: number)
            } else if let name = parsed.key {
                guard let key = Key(name: name) else {
                    throw ParseError(
                        line: number, message: "unknown key \"\(excerpt(name))\" (\(Key.all.map(\.name).joined(separator: ", ")))")
                }
                action = .key(key)
            } else if let text = parsed.type {
                guard text.utf8.count <= InputScript.maximumTypedBytes else {
                    throw ParseError(
                        line: number,
                        message: "\"type\" holds \(text.utf8.count) bytes; at most \(InputScript.maximumTypedBytes) are typed in one line")
                }
                action = .input(.text(text))
            } else if let wheel = parsed.wheel ?? parsed.scroll {
                let d = Point(x: wheel.dx ?? 0, y: wheel.dy ?? 0)
                let name = parsed.wheel != nil ? "wheel" : "scroll"
                guard d.isFinite, abs(d.x) <= 1e6, abs(d.y) <= 1e6 else {
                    throw ParseError(line: number, message: "\(name) delta out of range")
                }
                action = .input(
                    parsed.wheel != nil ? .wheel(delta: d, position: try point()) : .fingerScroll(delta: d, position: try point()))
            } else if let pointer = parsed.pointer {
                let p = try point()
                switch pointer {
                case "move": action = .input(.pointerMotion(position: p))
                case "press", "release":
                    action = .input(.pointerButton(code: parsed.button ?? 0x110, pressed: pointer == "press", position: p))
                default: throw ParseError(line: number, message: "unknown pointer \"\(excerpt(pointer))\" (move, press, release)")
                }
            } else if let name = parsed.screenshot {
                guard InputScript.isSafeName(name) else {
                    throw ParseError(line: number, message: "screenshot name \"\(excerpt(name))\" must be a plain file name")
                }
                action = .screenshot(name)
            } else {
                let name = parsed.state!
                guard InputScript.isSafeName(name) else {
                    throw ParseError(line: number, message: "state name \"\(excerpt(name))\" must be a plain file name")
                }
                action = .state(name)
            }
            return action
        }

        private static func point(of parsed: Line, number: Int) throws(ParseError) -> Point {
            guard let x = parsed.x, let y = parsed.y else { throw ParseError(line: number, message: "needs \"x\" and \"y\" (pixels)") }
            guard x.isFinite, y.isFinite, abs(x) <= 1e6, abs(y) <= 1e6 else {
                throw ParseError(line: number, message: "coordinates out of range")
            }
            return Point(x: x, y: y)
        }

        /// A touch line: its finger must be down for a move or a lift and up for a down.
        private mutating func touchAction(_ touch: String, of parsed: Line, number: Int) throws(ParseError) -> Action {
            let id = parsed.id ?? 0
            guard let phase = InputEvent.TouchPhase(rawValue: touch) else {
                throw ParseError(line: number, message: "unknown touch \"\(excerpt(touch))\" (down, move, up or cancel)")
            }
            switch phase {
            case .down:
                guard fingersDown.insert(id).inserted else { throw ParseError(line: number, message: "finger \(id) is already down") }
            case .move:
                guard fingersDown.contains(id) else { throw ParseError(line: number, message: "move of finger \(id), which is not down") }
            case .up, .cancel:
                guard fingersDown.remove(id) != nil else {
                    throw ParseError(line: number, message: "\(touch) of finger \(id) without a down")
                }
            }
            let p =
                (phase == .down || phase == .move)
                ? try Self.point(of: parsed, number: number)
                : ((try? Self.point(of: parsed, number: number)) ?? .zero)
            return .input(.touch(phase, slot: id, position: p))
        }
    }

    /// Bytes one `type` line (or one typed text over the remote API) may hold: more than any
    /// field takes at once, far less than a mistaken megabyte.
    package static let maximumTypedBytes = 65_536

    /// A file name of at most 200 bytes (the file system counts bytes, 255 with ".json"), so a
    /// bad name stops the run before anything is written.
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy {
                ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// What a decoding error says, naming the key path (the caller cuts it to an excerpt: a
    /// 1 MB key name must not become a 1 MB message).
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.keyNotFound(_, let c):
            return "\(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription)"
        case DecodingError.dataCorrupted(let c):
            return c.debugDescription
        default:
            return "invalid JSON"
        }
    }

    /// The script line for one input event (for `--record`): `t` in milliseconds.
    package static func line(for event: InputEvent, milliseconds t: Double) -> String? {
        func num(_ v: Double) -> String {
            let r = (v * 1000).rounded() / 1000
            return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
        }
        switch event.kind {
        case let .touch(phase, slot, p):
            if phase == .up || phase == .cancel { return "{\"t\":\(num(t)),\"touch\":\"\(phase.rawValue)\",\"id\":\(slot)}" }
            return "{\"t\":\(num(t)),\"touch\":\"\(phase.rawValue)\",\"id\":\(slot),\"x\":\(num(p.x)),\"y\":\(num(p.y))}"
        case let .key(key, pressed):
            return pressed ? "{\"t\":\(num(t)),\"key\":\"\(key.name)\"}" : nil
        case let .text(text):
            guard let data = try? JSONEncoder().encode(text) else { return nil }
            return "{\"t\":\(num(t)),\"type\":\(String(decoding: data, as: UTF8.self))}"
        case let .wheel(d, p):
            return "{\"t\":\(num(t)),\"wheel\":{\"dx\":\(num(d.x)),\"dy\":\(num(d.y))},\"x\":\(num(p.x)),\"y\":\(num(p.y))}"
        case let .fingerScroll(d, p):
            return "{\"t\":\(num(t)),\"scroll\":{\"dx\":\(num(d.x)),\"dy\":\(num(d.y))},\"x\":\(num(p.x)),\"y\":\(num(p.y))}"
        case let .pointerMotion(p):
            return "{\"t\":\(num(t)),\"pointer\":\"move\",\"x\":\(num(p.x)),\"y\":\(num(p.y))}"
        case let .pointerButton(code, pressed, p):
            return
                "{\"t\":\(num(t)),\"pointer\":\"\(pressed ? "press" : "release")\",\"button\":\(code),\"x\":\(num(p.x)),\"y\":\(num(p.y))}"
        case .touchFrame:
            return nil
        }
    }
}
