import FoundationEssentials
import Testing
@testable import Localization

/// The plural rules and the formats against the CLDR 48 data they come from (cldr-48.json, the
/// extract generate-locale-data.py writes LocaleData.swift from).
@Suite struct PluralAndFormatTests {
    struct CLDRFile: Decodable {
        struct Locale: Decodable {
            var defaultNumberingSystem: String
            var timeShort: String
            var dateShort: String
            var numbers: [String: Numbers]
        }
        struct Numbers: Decodable {
            var decimal: String
            var group: String
            var currencyFormat: String
            var percentFormat: String
        }
        var plurals: [String: [String: String]]
        var locales: [String: Locale]
    }

    static func cldr() throws -> CLDRFile {
        let url = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "cldr-48.json")
        return try JSONDecoder().decode(CLDRFile.self, from: Data(contentsOf: url))
    }

    /// Every whole number to 1,200, and some millions, takes the category CLDR's rule gives it,
    /// in each of the 16 languages; the rules are read from the file and evaluated here.
    @Test func pluralCategoriesFollowCLDRsRules() throws {
        let plurals = try Self.cldr().plurals
        #expect(plurals.count == 16)
        for (language, rules) in plurals {
            for n in Array(0...1200) + [1_000_000, 2_000_000, 1_000_001, 21_000_000] {
                let expected =
                    PluralCategory.allCases.first { category in
                        rules["pluralRule-count-\(category.rawValue)"].map { CLDRRule($0).matches(n) } ?? false
                    } ?? .other
                let got = PluralRules.category(of: n, language: language)
                guard got == expected else {
                    Issue.record("\(language) \(n): \(got), CLDR says \(expected)")
                    break
                }
            }
        }
    }

    @Test func arabicHasAllSixForms() {
        let forms = [0, 1, 2, 3, 10, 11, 99, 100, 102, 111].map { PluralRules.category(of: $0, language: "ar-AE").rawValue }
        #expect(forms == ["zero", "one", "two", "few", "few", "many", "many", "other", "other", "many"])
        #expect(PluralRules.category(of: 2, language: "he") == .two)
        #expect(PluralRules.category(of: 1, language: "ja") == .other)
        #expect(PluralRules.category(of: 0, language: "pt") == .one && PluralRules.category(of: 0, language: "pt-PT") == .other)
    }

    /// The table the generator wrote is the file's.
    @Test func localeDataIsCLDRs() throws {
        let locales = try Self.cldr().locales
        #expect(Set(locales.keys) == Set(LocaleData.table.keys))
        for (tag, entry) in locales {
            let data = try #require(LocaleData.table[tag])
            #expect(data.defaultSystem == entry.defaultNumberingSystem, "\(tag)")
            #expect(data.timePattern == entry.timeShort && data.datePattern == entry.dateShort, "\(tag)")
            for (system, n) in entry.numbers {
                let s = try #require(data.systems[system])
                #expect(s.decimal == n.decimal && s.group == n.group, "\(tag) \(system)")
                #expect(s.currencyPattern == n.currencyFormat && s.percentPattern == n.percentFormat, "\(tag) \(system)")
            }
        }
    }

    /// Prices, percentages, times and dates in each language, as CLDR's patterns write them
    /// (U+00A0 and U+202F are the no-break spaces CLDR puts in them).
    @Test(arguments: [
        ("en", "€2.50", "$1,234.50", "25%", "2:05\u{202F}PM", "3/14/26", "1,234"),
        ("de", "2,50\u{A0}€", "1.234,50\u{A0}$", "25\u{A0}%", "14:05", "14.03.26", "1.234"),
        ("fr", "2,50\u{A0}€", "1\u{202F}234,50\u{A0}$US", "25\u{A0}%", "14:05", "14/03/2026", "1\u{202F}234"),
        ("ja", "€2.50", "$1,234.50", "25%", "14:05", "2026/03/14", "1,234"),
        ("ar", "\u{200F}2.50\u{A0}€", "\u{200F}1,234.50\u{A0}US$", "25\u{200E}%\u{200E}", "2:05 م", "14\u{200F}/3\u{200F}/2026", "1,234"),
        ("he", "\u{200F}2.50\u{A0}\u{200F}€", "\u{200F}1,234.50\u{A0}\u{200F}$", "25%", "14:05", "14.3.2026", "1,234"),
        ("es", "2,50\u{A0}€", "1234,50\u{A0}US$", "25\u{A0}%", "14:05", "14/3/26", "1234"),
        ("it", "2,50\u{A0}€", "1234,50\u{A0}USD", "25%", "14:05", "14/03/26", "1234"),
        ("pt", "€\u{A0}2,50", "US$\u{A0}1.234,50", "25%", "14:05", "14/03/2026", "1.234"),
        ("nl", "€\u{A0}2,50", "US$\u{A0}1.234,50", "25%", "14:05", "14-03-2026", "1.234"),
        ("pl", "2,50\u{A0}€", "1234,50\u{A0}USD", "25%", "14:05", "14.03.2026", "1234"),
        ("ru", "2,50\u{A0}€", "1\u{A0}234,50\u{A0}$", "25\u{A0}%", "14:05", "14.03.2026", "1\u{A0}234"),
        ("uk", "2,50\u{A0}EUR", "1\u{A0}234,50\u{A0}USD", "25%", "14:05", "14.03.26", "1\u{A0}234"),
        ("tr", "€2,50", "$1.234,50", "%25", "14:05", "14.03.2026", "1.234"),
        ("el", "2,50\u{A0}€", "1.234,50\u{A0}$", "25%", "2:05\u{202F}μ.μ.", "14/3/26", "1.234"),
        ("fa", "\u{200E}€۲٫۵۰", "\u{200E}$۱٬۲۳۴٫۵۰", "۲۵٪", "۱۴:۰۵", "۲۰۲۶/۳/۱۴", "۱٬۲۳۴"),
    ])
    func formatsFollowCLDR(_ row: (String, String, String, String, String, String, String)) {
        let f = LocaleFormats(language: row.0)
        #expect(f.currency(2.5, code: "EUR") == row.1, "\(row.0)")
        #expect(f.currency(1234.5, code: "USD") == row.2, "\(row.0)")
        #expect(f.percent(0.25) == row.3, "\(row.0)")
        #expect(f.time(hour: 14, minute: 5) == row.4, "\(row.0)")
        #expect(f.date(year: 2026, month: 3, day: 14) == row.5, "\(row.0)")
        #expect(f.string(1234) == row.6, "\(row.0)")
    }

    @Test func arabicDigitsWhenAskedAndLatinForSignage() {
        let native = LocaleFormats(language: "ar-AE", digits: .native)
        #expect(native.currency(5, code: "AED") == "\u{200F}٥٫٠٠\u{A0}د.إ.\u{200F}")
        #expect(native.string(1234) == "١٬٢٣٤")
        #expect(native.time(hour: 9, minute: 30) == "٩:٣٠ ص")
        #expect(LocaleFormats(language: "ar-AE").currency(5, code: "AED") == "\u{200F}5.00\u{A0}د.إ.\u{200F}")
        #expect(LocaleFormats(language: "fa", digits: .latin).string(1234) == "1,234")
        #expect(LocaleFormats(language: "ja").currency(1500, code: "JPY") == "￥1,500")
        #expect(LocaleFormats(language: "en").currency(-2.5, code: "EUR") == "-€2.50")
        #expect(LocaleFormats(language: "xx").string(0.5, fractionDigits: 2) == "0.50")
        #expect(LocaleFormats(language: "en").string(.nan, fractionDigits: 2) == "NaN")
    }
}

/// A CLDR plural rule for whole numbers: `n`, `i` (the number), `v` and `e` (0), `%`, `=`,
/// `!=`, ranges and lists, `and` before `or`; the samples after `@` ignored.
struct CLDRRule {
    let text: String
    init(_ text: String) { self.text = String(text.split(separator: "@").first ?? "").trimmed }

    func matches(_ n: Int) -> Bool {
        guard !text.isEmpty else { return false }
        return text.split(separator: " or ").contains { condition in
            condition.split(separator: " and ").allSatisfy { relation(String($0).trimmed, n) }
        }
    }

    private func relation(_ r: String, _ n: Int) -> Bool {
        let negated = r.contains("!=")
        let separator: String = negated ? "!=" : "="
        let sides = r.split(separator: separator).map { String($0).trimmed }
        var operand = sides[0].split(separator: " ").map(String.init)
        var value = 0
        switch operand.removeFirst() {
        case "n", "i": value = n
        default: value = 0  // v, e, w, f, t: a whole number has no fraction and no exponent
        }
        if operand.count == 2, operand[0] == "%", let m = Int(operand[1]) { value %= m }
        let hit = sides[1].split(separator: ",").contains { item in
            let bounds = item.split(separator: "..").compactMap { Int($0) }
            return bounds.count == 2 ? (bounds[0]...bounds[1]).contains(value) : bounds.first == value
        }
        return hit != negated
    }
}

extension String {
    var trimmed: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
