/// Numbers, money, percentages, times and dates as a language writes them, from CLDR's data
/// for each language Glide ships words for (LocaleData.swift, CLDR 48), without ICU, which
/// would triple a board's binary: "1,234.5" and "1.234,5", "€2.50" and "2,50 €", "14:05" and
/// "2:05 PM", Persian's own digits. A language without data writes as English does.
///
/// ```swift
/// let formats = LocaleFormats(language: "de")
/// formats.currency(2.5, code: "EUR")     // "2,50 €"
/// formats.time(hour: 14, minute: 5)      // "14:05"
/// LocaleFormats(language: "ar", digits: .native).string(1234)   // "١٬٢٣٤"
/// ```
public struct LocaleFormats: Hashable, Sendable {
    /// Which digits numbers are written in.
    public enum Digits: Hashable, Sendable {
        /// The language's default in CLDR: Latin for Arabic (CLDR 48), Persian's own for Persian.
        case standard
        /// The language's own digits where it has them: Arabic-Indic (٠١٢) for Arabic.
        case native
        /// 0 to 9 whatever the language (the Latin digits of UAE signage).
        case latin
    }

    /// The language tag the formats are for ("ar-AE", "de").
    public let language: String
    /// The digits chosen.
    public let digits: Digits
    private let data: LocaleData
    private let symbols: NumberSymbols
    private let digitChars: [Character]?

    /// The formats of `language` (a BCP 47 tag; "pt-BR" reads Portuguese), in `digits`.
    public init(language: String, digits: Digits = .standard) {
        self.language = language
        self.digits = digits
        let tag = String(language.map { $0 == "_" ? "-" : $0 })
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        data = LocaleData.table[tag] ?? LocaleData.table[primary] ?? LocaleData.table["en"]!
        let system =
            switch digits {
            case .standard: data.defaultSystem
            case .native: data.nativeSystem
            case .latin: "latn"
            }
        symbols = data.systems[system] ?? data.systems[data.defaultSystem] ?? data.systems.values.first!
        digitChars = data.systems[system] == nil ? nil : LocaleData.digits[system].map(Array.init)
    }

    /// The languages with their own data.
    public static var languages: [String] { LocaleData.table.keys.sorted() }

    /// A whole number, grouped: "1,234", "1.234", "1234" (Spanish groups from five digits).
    public func string(_ n: Int) -> String { number(Double(n), fractionDigits: 0, grouped: true) }

    /// A number with exactly `fractionDigits` digits after the separator, grouped.
    public func string(_ x: Double, fractionDigits: Int) -> String {
        number(x, fractionDigits: max(0, min(fractionDigits, 15)), grouped: true)
    }

    /// `fraction` (0.25) as a percentage: "25%", "25 %", "%25" (Turkish).
    public func percent(_ fraction: Double, fractionDigits: Int = 0) -> String {
        apply(symbols.percentPattern, to: fraction * 100, fractionDigits: fractionDigits, currency: nil)
    }

    /// `amount` of the currency `code` (ISO 4217: "EUR", "AED"), with its symbol where the
    /// language has one (else the code) and its digits (none for yen).
    public func currency(_ amount: Double, code: String) -> String {
        let symbol = data.currencySymbols[code] ?? code
        // CLDR's currencyData: the yen has no minor unit; the others here have two.
        let fraction = code == "JPY" ? 0 : 2
        return apply(symbols.currencyPattern, to: amount, fractionDigits: fraction, currency: symbol)
    }

    /// A time of day as the language's short time: "2:05 PM", "14:05", "٢:٠٥ م".
    public func time(hour: Int, minute: Int) -> String {
        render(data.timePattern, year: 0, month: 0, day: 0, hour: hour, minute: minute)
    }

    /// A date (Gregorian) as the language's short date: "3/14/26", "14.03.26", "2026/03/14".
    public func date(year: Int, month: Int, day: Int) -> String {
        render(data.datePattern, year: year, month: month, day: day, hour: 0, minute: 0)
    }

    /// A number as a format string's `%f` writes it: the language's digits and decimal
    /// separator, no grouping.
    package func ungrouped(_ x: Double, fractionDigits: Int) -> String {
        (x < 0 ? symbols.minusSign : "") + number(abs(x), fractionDigits: max(0, min(fractionDigits, 15)), grouped: false)
    }

    /// `x` as Swift writes it ("2.5", the shortest that reads back the same), in this language's
    /// digits and decimal separator: an interpolated `Double` without a precision.
    package func shortest(_ x: Double) -> String {
        guard x.isFinite else { return number(x, fractionDigits: 0, grouped: false) }
        return localizedDigits(String(x).replacing(".", with: symbols.decimal))
    }

    /// The digits 0 to 9 of `text` in this language's digits.
    package func localizedDigits(_ text: String) -> String {
        guard let digitChars else { return text }
        return String(text.map { c in c.wholeNumberValue.flatMap { c.isASCII ? digitChars[$0] : nil } ?? c })
    }

    // MARK: Numbers

    private func number(_ x: Double, fractionDigits: Int, grouped: Bool) -> String {
        guard x.isFinite else { return x.isNaN ? "NaN" : (x < 0 ? symbols.minusSign : "") + "∞" }
        let scale = pow10(fractionDigits)
        let scaled = (abs(x) * scale).rounded(.toNearestOrEven)
        guard scaled < 9e15 else { return localizedDigits(String(x)) }
        let units = UInt64(scaled)
        let whole = String(units / UInt64(scale))
        var out = grouped ? group(whole) : whole
        if fractionDigits > 0 {
            let fraction = String(units % UInt64(scale))
            out += symbols.decimal + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
        }
        return localizedDigits(out)
    }

    /// Groups of three from the right, only once there are `minimumGroupingDigits` digits
    /// before the first separator.
    private func group(_ digits: String) -> String {
        guard digits.count > 3, digits.count - 3 >= data.minimumGroupingDigits else { return digits }
        var out = "", count = 0
        for c in digits.reversed() {
            if count > 0, count % 3 == 0 { out = symbols.group + out }
            out = String(c) + out
            count += 1
        }
        return out
    }

    /// A CLDR pattern ("¤#,##0.00", "#,##0 %", "‏#,##0.00 ¤;‏-#,##0.00 ¤") applied to `x`.
    private func apply(_ pattern: String, to x: Double, fractionDigits: Int, currency: String?) -> String {
        let parts = pattern.split(separator: ";", maxSplits: 1).map(String.init)
        let negative = x < 0 && !(x * pow10(fractionDigits)).rounded(.toNearestOrEven).isZero
        let chosen = negative && parts.count > 1 ? parts[1] : parts[0]
        let isNumber: (Character) -> Bool = { "#0,.".contains($0) }
        guard let first = chosen.firstIndex(where: isNumber), let last = chosen.lastIndex(where: isNumber) else { return chosen }
        func fill(_ s: Substring) -> String {
            var out = ""
            for c in s {
                switch c {
                case "¤": out += currency ?? ""
                case "%": out += symbols.percentSign
                case "-": out += symbols.minusSign
                default: out.append(c)
                }
            }
            return out
        }
        let body = number(x, fractionDigits: fractionDigits, grouped: chosen[first...last].contains(","))
        let text = fill(chosen[..<first]) + body + fill(chosen[chosen.index(after: last)...])
        return negative && parts.count == 1 ? symbols.minusSign + text : text
    }

    private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }

    // MARK: Times and dates

    /// A CLDR date pattern: letters y, M, d, H, h, m, a (doubled for two digits), text in
    /// quotes as it is.
    private func render(_ pattern: String, year: Int, month: Int, day: Int, hour: Int, minute: Int) -> String {
        let chars = Array(pattern)
        var out = "", i = 0, quoted = false
        func two(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return width >= 2 && s.count < 2 ? "0" + s : s
        }
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                quoted.toggle()
                i += 1
                continue
            }
            guard !quoted, "yMdHhma".contains(c) else {
                out.append(c)
                i += 1
                continue
            }
            var width = 1
            while i + width < chars.count, chars[i + width] == c { width += 1 }
            i += width
            switch c {
            case "y": out += width == 2 ? two(year % 100, 2) : String(year)
            case "M": out += two(month, width)
            case "d": out += two(day, width)
            case "H": out += two(hour, width)
            case "h": out += two(hour % 12 == 0 ? 12 : hour % 12, width)
            case "m": out += two(minute, width)
            default: out += hour < 12 ? data.am : data.pm
            }
        }
        return localizedDigits(out)
    }
}

/// What CLDR gives a language: its numbering systems' symbols and patterns, its currencies'
/// symbols, its short time and date.
struct LocaleData: Hashable, Sendable {
    var defaultSystem: String
    var nativeSystem: String
    var minimumGroupingDigits: Int
    var systems: [String: NumberSymbols]
    var currencySymbols: [String: String]
    var timePattern: String
    var datePattern: String
    var am: String
    var pm: String
}

/// One numbering system's symbols and patterns in a language.
struct NumberSymbols: Hashable, Sendable {
    var decimal: String
    var group: String
    var percentSign: String
    var minusSign: String
    var percentPattern: String
    var currencyPattern: String
}
