/// What is wrong with a JSON text's `\u` escapes, which the JSON decoder reports only as
/// "not valid JSON": a surrogate escape must be a high one (`\ud800`…`\udbff`) followed at once
/// by a low one (`\udc00`…`\udfff`); alone, it is no character and cannot be typed.
enum JSONEscapes {
    /// "a lone surrogate \ud800 at character 17" for the first lone surrogate escape in line
    /// `line` (from 1) of `text`, or nil if it has none.
    static func loneSurrogate(inLine line: Int, of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        return loneSurrogate(in: lines[line - 1])
    }

    /// The same for one line.
    static func loneSurrogate(in line: Substring) -> String? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            guard let value = unicodeEscape(bytes, at: i) else {
                i += 2  // another escape (`\\`, `\"`, …): its second byte is never the start of one
                continue
            }
            let column = String(decoding: bytes[..<i], as: UTF8.self).count + 1
            let shown = String(decoding: bytes[i..<(i + 6)], as: UTF8.self)
            switch value {
            case 0xD800...0xDBFF:
                if let next = unicodeEscape(bytes, at: i + 6), (0xDC00...0xDFFF).contains(next) {
                    i += 12
                    continue
                }
                return
                    "a lone surrogate \(shown) at character \(column) (a high surrogate must be followed by a low one, \\udc00 to \\udfff)"
            case 0xDC00...0xDFFF:
                return "a lone surrogate \(shown) at character \(column) (a low surrogate must follow a high one, \\ud800 to \\udbff)"
            default:
                i += 6
            }
        }
        return nil
    }

    /// The value of the `\uXXXX` escape at `i`, or nil if there is none.
    private static func unicodeEscape(_ bytes: [UInt8], at i: Int) -> UInt32? {
        guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
        return UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
    }
}
