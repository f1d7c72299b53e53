/// The CLDR plural categories: which form of a word a count takes ("1 ticket", "2 tickets";
/// Arabic has all six, Japanese only `other`).
package enum PluralCategory: String, CaseIterable, Hashable, Sendable {
    case zero, one, two, few, many, other
}

/// CLDR's cardinal plural rules for whole numbers, for every language Glide ships words for
/// (plurals.json of CLDR 48; `i` is the number, `v` the count of its visible fraction digits,
/// 0 for a whole number). A language without rules here takes `other` for every count, as
/// Japanese does.
package enum PluralRules {
    /// The category of `n` in `language` (a BCP 47 tag: "ar", "pt-PT", "he-IL").
    package static func category(of n: Int, language: String) -> PluralCategory {
        let tag = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        let i = n.magnitude
        let (mod10, mod100) = (i % 10, i % 100)
        switch primary {
        case "en", "de", "nl":
            // one: i = 1 and v = 0
            return i == 1 ? .one : .other
        case "it", "es":
            // es: one: n = 1; it: one: i = 1 and v = 0; both: many: e = 0 and i != 0 and
            // i % 1000000 = 0 and v = 0
            return i == 1 ? .one : (i != 0 && i % 1_000_000 == 0 ? .many : .other)
        case "fr":
            // one: i = 0,1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
            return i <= 1 ? .one : (i % 1_000_000 == 0 ? .many : .other)
        case "pt":
            // pt: one: i = 0..1; pt-PT: one: i = 1 and v = 0; many as French
            let one = tag.hasPrefix("pt-pt") ? i == 1 : i <= 1
            return one ? .one : (i != 0 && i % 1_000_000 == 0 ? .many : .other)
        case "ar":
            // zero: n = 0; one: n = 1; two: n = 2; few: n % 100 = 3..10; many: n % 100 = 11..99
            switch i {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default: return (3...10).contains(mod100) ? .few : (11...99).contains(mod100) ? .many : .other
            }
        case "he", "iw":
            // one: i = 1 and v = 0; two: i = 2 and v = 0
            return i == 1 ? .one : i == 2 ? .two : .other
        case "pl":
            // one: i = 1 and v = 0; few: i % 10 = 2..4 and i % 100 != 12..14; many: the other
            // whole numbers
            if i == 1 { return .one }
            return (2...4).contains(mod10) && !(12...14).contains(mod100) ? .few : .many
        case "ru", "uk":
            // one: i % 10 = 1 and i % 100 != 11; few: i % 10 = 2..4 and i % 100 != 12..14;
            // many: the other whole numbers
            if mod10 == 1 && mod100 != 11 { return .one }
            return (2...4).contains(mod10) && !(12...14).contains(mod100) ? .few : .many
        case "tr", "el":
            // one: n = 1
            return i == 1 ? .one : .other
        case "fa":
            // one: i = 0 or n = 1
            return i <= 1 ? .one : .other
        default:
            return .other
        }
    }
}
