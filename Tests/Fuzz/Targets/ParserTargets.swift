// The text formats a kiosk owner writes: input scripts, manifests, board configs, feel CSVs.
// Any bytes parse or give an error that names its place in a few lines; what parses is usable.
import AppContract
import BoardConfig
import Catalog
import FeelLab
import Geometry
import Runtime
import Scrolling

/// An error message a person reads: a few lines, however long the input.
let maximumMessageLength = 1_000

func checkMessage(_ error: some Error, prefix: String? = nil) {
    let text = "\(error)"
    expect(text.count <= maximumMessageLength, "error message of \(text.count) characters: \(text.prefix(200))…")
    // By scalars: a key that starts with a combining mark (an Arabic one) joins the space before
    // it into one character, and the place is still there.
    if let prefix {
        expect(text.unicodeScalars.starts(with: prefix.unicodeScalars), "error message without its place '\(prefix)': \(text.prefix(200))")
    }
}

/// Whether `text` holds `part`'s bytes, whatever characters they fall in (`String.contains`
/// compares characters).
func holds(_ text: some StringProtocol, _ part: String) -> Bool { text.utf8.contains(part.utf8) }

func fuzzScript(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    var strict: InputScript?
    do {
        let script = try InputScript.parse(text)
        strict = script
        var last = 0.0
        for entry in script.entries {
            expect(entry.t.isFinite && entry.t >= last && entry.t <= 86_400_000, "entry time \(entry.t) after \(last)")
            last = entry.t
        }
    } catch {
        checkMessage(error, prefix: "line ")
    }
    fuzzRecording(bytes, strict: strict)
}

/// The same bytes as a recording a power cut may have stopped mid-line: what parses whole
/// parses the same, a cut is only ever the last line, and a bad line before it still throws.
func fuzzRecording(_ bytes: UnsafeRawBufferPointer, strict: InputScript?) {
    let array = Array(bytes)
    let isUTF8 = String(validating: array, as: UTF8.self) != nil
    do {
        let (script, cut) = try InputScript.parse(recording: array)
        if let strict, isUTF8 { expect(cut == nil && script == strict, "a whole script read as a recording differs") }
        if let cut {
            checkMessage(cut, prefix: "line ")
            let breaks = array.filter { $0 == 0x0A || $0 == 0x0D }.count
            expect(array.last != 0x0A && array.last != 0x0D, "a cut in a file that ends with a line break")
            expect(cut.line >= 1 && cut.line <= breaks + 1, "cut line \(cut.line) after the last of \(breaks + 1)")
            expect(script.entries.allSatisfy { $0.line < cut.line }, "an entry after the cut")
        } else if isUTF8 {
            expect(strict == script, "a recording without a cut parses otherwise as a script")
        }
    } catch {
        checkMessage(error, prefix: "line ")
        if isUTF8 { expect(strict == nil, "a recording refused that parses as a script") }
    }
}

func fuzzManifest(_ bytes: UnsafeRawBufferPointer) {
    do {
        _ = try Manifest.parse(Array(bytes), path: "fuzz.json")
    } catch {
        checkMessage(error, prefix: "fuzz.json: ")
    }
}

func fuzzConfig(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        let config = try BoardConfig(parsing: text, source: "fuzz.conf")
        expect(config.scale.isFinite && config.scale > 0, "scale \(config.scale)")
        expect([0, 90, 180, 270].contains(config.rotation), "rotation \(config.rotation)")
        if let m = config.calibration {
            expect(m.count == 6 && m.allSatisfy(\.isFinite), "calibration \(m)")
            expect(abs(m[0] * m[4] - m[1] * m[3]) >= 1e-6, "singular calibration \(m)")
        }
        for key in config.lines.keys { expect(config.place(of: key)?.hasPrefix("fuzz.conf:") == true, "place of \(key)") }
    } catch {
        checkMessage(error, prefix: "fuzz.conf:")
        // Whatever the file looks like, a message never repeats a remote_token line's value.
        for line in textLines(text) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].filter({ $0 != " " && $0 != "\t" }).lowercased() == "remote_token" else { continue }
            let secret = String(parts[1].filter { $0 != " " && $0 != "\t" && $0 != "\"" })
            // (Unless the same text is elsewhere in the file, where another message may quote it.
            // By bytes: another line's "034\u{301}" holds "034" though not its last character, and
            // a message cut after the "4" shows it.)
            // The token's own line need not hold it as filtered ("abcdefgh12=0 3" is read as
            // "abcdefgh12=03"): what counts is that no other line does.
            guard secret.count >= 8, !textLines(text).contains(where: { $0 != line && holds($0, secret) }) else { continue }
            // The list of known keys names remote_token itself: a token that is part of a key's
            // name is not leaked by naming the key.
            var message = "\(error)"
            for key in BoardConfig.keys { message = message.replacing(key, with: "") }
            expect(!holds(message, secret), "the token \(secret.prefix(20)) is in the message")
        }
    }
}

/// A remote API's token file: what it accepts are strong tokens under distinct names, and a
/// refusal never quotes a line's token.
func fuzzTokens(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        let tokens = try TokenFile.parse(text)
        expect(!tokens.isEmpty, "no tokens accepted")
        expect(tokens.allSatisfy { isAcceptableToken($0.secret) }, "a weak token accepted")
        expect(Set(tokens.map(\.name)).count == tokens.count, "a name twice")
    } catch {
        let lines = textLines(text).map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
            .filter { !($0.first?.hasPrefix("#") ?? true) }
        let names = Set(lines.flatMap { $0.prefix(2).map(String.init) })
        for fields in lines where fields.count >= 3 {
            let secret = String(fields[2])
            // A token-like text: a word of the messages' own ("scope", "characters") is no secret,
            // and a text that is also a line's name or scope may be quoted as that.
            guard secret.count >= 12, secret.contains(where: \.isNumber), !names.contains(where: { holds($0, secret) }) else { continue }
            expect(!holds(error.problem, secret), "the token \(secret.prefix(20)) is in the message")
        }
    }
}

/// Parses a touch trace and replays it through the engine at 60 Hz: every row of the table is
/// finite and the motion ends inside the content.
func fuzzFeelCSV(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    let samples: [TraceSample]
    do {
        samples = try TouchTrace.parse(text)
    } catch {
        checkMessage(error)
        return
    }
    guard samples.count <= 256 else { return }
    var configuration = ScrollConfiguration()
    configuration.touchResampling = TouchResampling()
    let table = FeelLab.trace(
        samples, viewport: Size(width: 320, height: 480), content: Size(width: 320, height: 2000),
        offset: .zero, configuration: configuration, hz: 60)
    expect(!table.contains("nan") && !table.contains("inf"), "a trace row that is not finite")
}
