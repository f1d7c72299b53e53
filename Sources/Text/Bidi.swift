// Bidirectional text (UAX #9) through FriBidi: embedding levels per paragraph, and the
// visual order of a line's glyphs from them (rule L2). Lines are broken in logical order
// first; only placing a line's glyphs reorders them.
import CFriBidi
import CHarfBuzz

/// The direction a paragraph runs in.
package enum TextDirection: Sendable, Hashable {
    /// Left to right: lines start at the left (Latin, Japanese).
    case leftToRight
    /// Right to left: lines start at the right (Arabic, Hebrew).
    case rightToLeft
}

extension TextDirection {
    /// The direction a paragraph of `text` runs in on a screen laid out in `layout`, as
    /// Flutter's `Directionality` gives it for text that mixes right-to-left letters with
    /// others ("Dubai Marina · المنطقة 3") or has no letter at all ("12:30 · 3"): the layout's.
    /// Text whose letters all run one way takes theirs (nil: its first strong letter's, UAX #9),
    /// so "Hello!" keeps its "!" at the end and "36 pages" its number first on a right-to-left
    /// screen.
    package static func contextual(for text: String, layout: TextDirection) -> TextDirection? {
        var rightToLeft = false, other = false
        for s in text.unicodeScalars where s.properties.isAlphabetic {
            if BidiParagraphs.mayHoldRightToLeft([s][...]) { rightToLeft = true } else { other = true }
            if rightToLeft && other { return layout }
        }
        return rightToLeft || other ? nil : layout
    }
}

/// Resolved embedding levels of a text's paragraphs.
struct BidiParagraphs {
    /// Level of each scalar; empty while every paragraph is plain left-to-right text, so Latin
    /// and Japanese text never call FriBidi and keep their layout bit for bit.
    var levels: [UInt8] = []
    /// Per paragraph: whether it runs right to left (its level is 1).
    var isRightToLeft: [Bool]
    /// Per paragraph: whether its levels were resolved (it may hold right-to-left runs).
    var isResolved: [Bool]

    init(scalars: [Unicode.Scalar], paragraphs: [Range<Int>], direction: TextDirection?) {
        isRightToLeft = [Bool](repeating: false, count: paragraphs.count)
        isResolved = isRightToLeft
        for (p, range) in paragraphs.enumerated() where !range.isEmpty {
            guard direction == .rightToLeft || Self.mayHoldRightToLeft(scalars[range]) else { continue }
            if levels.isEmpty { levels = [UInt8](repeating: 0, count: scalars.count) }
            let level = Self.resolve(scalars, range, direction: direction, into: &levels)
            isRightToLeft[p] = level == 1
            isResolved[p] = true
        }
    }

    /// Whether `scalars` hold a right-to-left letter, an Arabic digit or an explicit bidi
    /// control: without one every level is 0 and FriBidi has nothing to say.
    static func mayHoldRightToLeft(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        for s in scalars where s.value >= 0x590 {
            switch s.value {
            case 0x590...0x8FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
                0x200F, 0x202A...0x202E, 0x2066...0x2069:
                return true
            default: continue
            }
        }
        return false
    }

    /// Resolves the levels of `scalars[range]` into `levels[range]`; returns the paragraph's
    /// level. Should FriBidi fail (out of memory), the paragraph stays left to right.
    private static func resolve(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, direction: TextDirection?, into levels: inout [UInt8]
    ) -> Int {
        let text = scalars[range].map { FriBidiChar($0.value) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: text.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: text.count)
        var resolved = [FriBidiLevel](repeating: 0, count: text.count)
        let code: Int32 = direction == nil ? 0 : direction == .leftToRight ? 1 : 2
        let level = glide_bidi_levels(text, FriBidiStrIndex(text.count), code, &types, &brackets, &resolved)
        guard level >= 0 else { return 0 }
        for (k, l) in resolved.enumerated() { levels[range.lowerBound + k] = UInt8(clamping: Int(l)) }
        return Int(level)
    }

    /// Runs of `range` to shape on their own: one level and one script each (characters of
    /// no script of their own join the run they are in), with whether the run is right to left.
    func shapingRuns(of range: Range<Int>, scalars: [Unicode.Scalar]) -> [(range: Range<Int>, rightToLeft: Bool)] {
        guard let unicode = hb_unicode_funcs_get_default() else { return [(range, false)] }
        var runs: [(range: Range<Int>, rightToLeft: Bool)] = []
        var start = range.lowerBound
        var script = HB_SCRIPT_COMMON
        for i in range {
            let s = hb_unicode_script(unicode, scalars[i].value)
            let neutral = s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
            let newScript = !neutral && script != HB_SCRIPT_COMMON && s != script
            if i > start && (levels[i] != levels[start] || newScript) {
                runs.append((start..<i, levels[start] & 1 == 1))
                start = i
                script = HB_SCRIPT_COMMON
            }
            if !neutral { script = s }
        }
        if start < range.upperBound { runs.append((start..<range.upperBound, levels[start] & 1 == 1)) }
        return runs
    }
}

extension Layouter {
    /// Indices into `shaped` of the glyphs of a line in visual order, left to right: glyph
    /// levels from their clusters, trailing spaces at the paragraph's level (rule L1), then
    /// every run at or above each odd level reversed, highest first (rule L2). Right-to-left
    /// runs are stored in logical order, so reversing them gives back the shaper's order.
    func visualOrder(ofGlyphs glyphRange: Range<Int>, line: Range<Int>, paragraphLevel: UInt8) -> [Int] {
        var order = Array(glyphRange)
        guard !bidi.levels.isEmpty, !glyphRange.isEmpty else { return order }
        var trailing = line.upperBound
        while trailing > line.lowerBound && isSpace(trailing - 1) { trailing -= 1 }
        var glyphLevels = [UInt8](repeating: paragraphLevel, count: order.count)
        var highest = paragraphLevel, lowestOdd = UInt8.max
        for k in 0..<order.count {
            let c = Int(shaped[glyphRange.lowerBound + k].cluster)
            let level = c >= 0 && c < trailing && c < bidi.levels.count ? bidi.levels[c] : paragraphLevel
            glyphLevels[k] = level
            highest = max(highest, level)
            if level & 1 == 1 { lowestOdd = min(lowestOdd, level) }
        }
        guard lowestOdd != UInt8.max else { return order }
        var level = highest
        while level >= lowestOdd {
            var k = 0
            while k < order.count {
                guard glyphLevels[k] >= level else { k += 1; continue }
                var end = k
                while end < order.count && glyphLevels[end] >= level { end += 1 }
                order[k..<end].reverse()
                glyphLevels[k..<end].reverse()
                k = end
            }
            level -= 1
        }
        return order
    }
}
