// Break opportunities for Latin and Japanese text: a small subset of UAX #14 plus the
// basic Japanese kinsoku rules (禁則処理).

/// Where a line may end. `breakOpportunities(in:)` gives, for every scalar index `i`,
/// whether a line may start at `i` (break between `i - 1` and `i`).
package enum LineBreaker {
    /// The line-breaking class of one character.
    package enum Class: Equatable, Sendable {
        /// A hard line break (LF, CR, LS, PS, NEL, VT, FF).
        case mandatory
        /// A space: a break may follow it, a line never starts with one.
        case space
        /// Hyphens: a break may follow them inside a word ("well-known").
        case hyphen
        /// Opening brackets and quotes: never at the end of a line.
        case opening
        /// Closing punctuation (Latin ). , ! ? and Japanese 、。」』）】〕！？):
        /// never at the start of a line. `wide` marks the Japanese ones, after which a
        /// break is allowed.
        case closing(wide: Bool)
        /// Japanese characters that must not start a line: small kana, the long vowel
        /// mark ー, the middle dot ・, iteration marks 々ゝゞヽヾ.
        case nonStarter
        /// Ideographs, kana, full-width forms: a break is allowed on either side.
        case ideographic
        /// Everything else (letters, digits, symbols): breaks only at spaces and hyphens.
        case alphabetic
        /// Marks, joiners and variation selectors: part of the preceding character.
        case combining
    }

    package static func lineBreakClass(of scalar: Unicode.Scalar) -> Class {
        let v = scalar.value
        switch v {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return .mandatory
        case 0x20, 0x09, 0x3000, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F: return .space
        case 0x2D, 0x2010, 0x2012, 0x2013: return .hyphen
        case 0x28, 0x5B, 0x7B, 0x00AB, 0x2018, 0x201C: return .opening
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
            0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62:
            return .opening
        case 0x29, 0x5D, 0x7D, 0x2C, 0x2E, 0x21, 0x3F, 0x3A, 0x3B, 0x00BB, 0x2019, 0x201D, 0x2026:
            return .closing(wide: false)
        case 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B,
            0x301E, 0x301F, 0xFF09, 0xFF0C, 0xFF0E, 0xFF01, 0xFF1F, 0xFF1A, 0xFF1B, 0xFF3D, 0xFF5D,
            0xFF60, 0xFF61, 0xFF63, 0xFF64:
            return .closing(wide: true)
        // Small hiragana and katakana, ー, ・, iteration marks, ゠.
        case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
            0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
            0x31F0...0x31FF, 0x30FC, 0x30FB, 0x3005, 0x309D, 0x309E, 0x30FD, 0x30FE, 0x30A0,
            0xFF67...0xFF70, 0xFF65:
            return .nonStarter
        case 0x2E80...0x2FFF, 0x3003...0x3004, 0x3006...0x3007, 0x3012...0x3013, 0x3020...0x303F,
            0x3040...0x30FF, 0x3100...0x31EF, 0x3200...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0xFF00...0xFFEF, 0x20000...0x3FFFD:
            return .ideographic
        case 0..<0x300:  // Latin, before the combining diacritics: no table lookup needed
            return .alphabetic
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return .combining
        default: return scalar.properties.isVariationSelector ? .combining : .alphabetic
        }
    }

    private static func isWide(_ c: Class) -> Bool {
        switch c {
        case .ideographic, .nonStarter, .closing(wide: true): return true
        default: return false
        }
    }

    /// `result[i]` is true when a line may start at scalar `i` (for `0 < i < count`;
    /// `result[0]` is false). A break after a mandatory break is always allowed here;
    /// layout splits paragraphs at mandatory breaks before it looks at these.
    package static func breakOpportunities(in scalars: [Unicode.Scalar]) -> [Bool] {
        breakOpportunities(classes: scalars.map(lineBreakClass(of:)))
    }

    /// `breakOpportunities(in:)` for precomputed classes.
    package static func breakOpportunities(classes: [Class]) -> [Bool] {
        var result = [Bool](repeating: false, count: classes.count)
        guard classes.count > 1 else { return result }
        var previous = classes[0]
        // The class of the last non-combining character before `i`, and whether the one
        // before a hyphen was a letter.
        var beforePrevious: Class = .space
        for i in 1..<classes.count {
            let current = classes[i]
            if current == .combining {  // a mark belongs to its base: no break, keep its class
                continue
            }
            result[i] = mayBreak(between: previous, and: current, beforeFirst: beforePrevious)
            beforePrevious = previous
            previous = current
        }
        return result
    }

    /// Whether a line may start with `b` right after `a` (`beforeA` precedes `a`).
    static func mayBreak(between a: Class, and b: Class, beforeFirst beforeA: Class) -> Bool {
        if a == .mandatory { return true }
        // Kinsoku: no closing punctuation, small kana etc. at the start of a line; no space
        // at the start either (spaces hang at the end of the line they follow).
        switch b {
        case .closing, .nonStarter, .space, .combining, .mandatory: return false
        default: break
        }
        // Kinsoku: no opening bracket at the end of a line.
        if a == .opening { return false }
        if a == .space { return true }
        if a == .hyphen { return beforeA == .alphabetic && b == .alphabetic }
        if isWide(a) || isWide(b) { return true }
        return false
    }
}
