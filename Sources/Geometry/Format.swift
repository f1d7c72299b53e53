// Number text without Foundation's formatters (they pull in ICU, megabytes a board's
// small flash would have to hold).

/// Fixed-point decimal text without Foundation's formatter: `fixed(1.23456, 3)` is "1.235".
package func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return "\(value)" }
    let n = Int64(scaled)
    let whole = n / Int64(scale), frac = n % Int64(scale)
    let negative = value < 0 && n != 0
    var text = (negative ? "-" : "") + String(whole)
    if decimals > 0 {
        let digits = String(frac)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
}

/// Input echoed in a message: whole when short, else its first `limit` Unicode scalars and its
/// size in bytes, so a megabyte of garbage (or one letter under 100,000 accents, a single
/// character) gives a one-line message. Control characters are shown escaped (`\r`, `\u{1B}`):
/// what a file holds never moves a terminal's cursor or starts a new log line. Every message
/// that repeats what it was given goes through here.
package func excerpt(_ text: String, limit: Int = 60) -> String {
    var out = "", n = 0
    for scalar in text.unicodeScalars {
        guard n < limit else { return out + "… (\(text.utf8.count) bytes)" }
        n += 1
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x2028...0x2029).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

/// A bearer token the remote API accepts, from the command line, the board config or a token
/// file alike: see `tokenRule`. Guessable tokens ("password", "12345678") and invisible ones
/// (eight zero-width spaces) are refused; `openssl rand -hex 16` gives a good one.
package func isAcceptableToken(_ token: String) -> Bool {
    let scalars = token.unicodeScalars
    guard scalars.count >= 12, scalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { return false }
    let classes = [
        scalars.contains { ("a"..."z").contains($0) || ("A"..."Z").contains($0) },
        scalars.contains { ("0"..."9").contains($0) },
        scalars.contains { !$0.properties.isAlphabetic && !("0"..."9").contains($0) },
    ]
    return Set(scalars).count >= 8 && classes.filter { $0 }.count >= 2
}

/// What `isAcceptableToken` asks, for error messages.
package let tokenRule = "at least 12 visible ASCII characters, 8 of them different, mixing letters, digits or symbols"

/// The lines of a text file in any convention: split at LF, CRLF or a lone CR, none of which
/// stays in a line. (Swift takes "\r\n" for one character, so splitting at "\n" never splits
/// a Windows file: every line-based format reads its lines here.) As with splitting, a text that
/// ends with a line break ends with an empty line.
package func textLines(_ text: String) -> [Substring] {
    var lines: [Substring] = []
    let bytes = text.utf8
    var start = bytes.startIndex, i = bytes.startIndex
    while i != bytes.endIndex {
        let b = bytes[i]
        guard b == 0x0A || b == 0x0D else { bytes.formIndex(after: &i); continue }
        lines.append(text[start..<i])
        var next = bytes.index(after: i)
        if b == 0x0D, next != bytes.endIndex, bytes[next] == 0x0A { bytes.formIndex(after: &next) }
        start = next
        i = next
    }
    lines.append(text[start..<bytes.endIndex])
    return lines
}

/// The line break a text file uses, to write it back the same way: CRLF when its first break
/// is one, else LF.
package func lineBreak(of text: String) -> String {
    guard let i = text.utf8.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return "\n" }
    let next = text.utf8.index(after: i)
    return text.utf8[i] == 0x0D && next != text.utf8.endIndex && text.utf8[next] == 0x0A ? "\r\n" : "\n"
}

extension StringProtocol {
    /// The text without the characters of `set` at either end (FoundationEssentials has no
    /// `trimmingCharacters`): script and trace lines lose their blanks and line ends.
    package func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
