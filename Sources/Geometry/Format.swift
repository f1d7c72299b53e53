// Number text without Foundation's formatters (they pull in ICU, see SPEC SIZE).

/// Fixed-point decimal text without Foundation's formatter: `fixed(1.23456, 3)` is "1.235".
public func fixed(_ value: Double, _ decimals: Int) -> String {
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

/// Input echoed in an error message: whole when short, else its first `limit` characters and
/// its length, so a megabyte of garbage gives a one-line message.
public func excerpt(_ text: String, limit: Int = 60) -> String {
    guard text.count > limit else { return text }
    return "\(text.prefix(limit))… (\(text.count) characters)"
}
