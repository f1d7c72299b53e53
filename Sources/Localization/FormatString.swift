/// Fills a localized string's holes as `String(format:)` would, without Foundation: `%lld`,
/// `%d`, `%@`, `%lf`, `%.2f`, positional `%2$@`, and `%%`. Numbers take the language's digits
/// and decimal separator. A hole without a value stays as it is, so a translation with one
/// hole too many shows it rather than crashing.
package enum FormatString {
    package static func fill(_ format: String, with arguments: [FormatArgument], formats: LocaleFormats) -> String {
        guard format.contains("%") else { return format }
        let chars = Array(format)
        var out = "", i = 0, next = 0
        while i < chars.count {
            guard chars[i] == "%", i + 1 < chars.count else {
                out.append(chars[i])
                i += 1
                continue
            }
            if chars[i + 1] == "%" {
                out.append("%")
                i += 2
                continue
            }
            guard let spec = Spec(chars, from: i + 1) else {
                out.append(chars[i])
                i += 1
                continue
            }
            let index = spec.position.map { $0 - 1 } ?? next
            next = index + 1
            if arguments.indices.contains(index) {
                out += text(arguments[index], spec, formats)
            } else {
                out += String(chars[i..<spec.end])
            }
            i = spec.end
        }
        return out
    }

    private static func text(_ argument: FormatArgument, _ spec: Spec, _ formats: LocaleFormats) -> String {
        switch (argument, spec.conversion) {
        case (.int(let n), "f"), (.int(let n), "F"): return formats.ungrouped(Double(n), fractionDigits: spec.precision ?? 6)
        case (.int(let n), _): return formats.localizedDigits(String(n))
        case (.double(let x), "d"), (.double(let x), "i"), (.double(let x), "u"):
            return formats.ungrouped(x.rounded(.towardZero), fractionDigits: 0)
        // An interpolated Double (`%lf`, no precision) reads as Swift writes it, not printf's six
        // places.
        case (.double(let x), _): return spec.precision.map { formats.ungrouped(x, fractionDigits: $0) } ?? formats.shortest(x)
        case (.string(let s), _): return s
        case (.currency(let amount, let code), _): return formats.currency(amount, code: code)
        }
    }

    /// One hole: `%` [position `$`] [flags, width] [`.` precision] [length] conversion.
    private struct Spec {
        var position: Int?
        var precision: Int?
        var conversion: Character
        var end: Int

        init?(_ chars: [Character], from start: Int) {
            var i = start
            func number() -> Int? {
                var n: Int?
                while i < chars.count, let d = chars[i].wholeNumberValue, chars[i].isASCII {
                    n = (n ?? 0) * 10 + d
                    i += 1
                }
                return n
            }
            let lead = number()
            if i < chars.count, chars[i] == "$" {
                position = lead
                i += 1
            }
            while i < chars.count, "-+ #0123456789".contains(chars[i]) { i += 1 }
            if i < chars.count, chars[i] == "." {
                i += 1
                precision = number() ?? 0
            }
            while i < chars.count, "lhqLzjt".contains(chars[i]) { i += 1 }
            guard i < chars.count, "@dDiuUxXoOfFeEgGsc".contains(chars[i]) else { return nil }
            conversion = chars[i]
            end = i + 1
        }
    }
}
