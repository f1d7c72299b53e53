// Paragraph layout: shaping, greedy line wrapping at break opportunities, alignment, and
// truncation with an ellipsis. Positions are final whole pixels, so drawing is a loop of
// cache lookups and mask blits.
import Geometry
import Raster

/// Horizontal alignment of lines within the layout width.
public enum TextAlignment: Sendable, Hashable {
    /// Lines start at the left edge (the right edge in a right-to-left paragraph).
    case leading
    /// Lines are centred in the layout width.
    case center
    /// Lines end at the right edge (the left edge in a right-to-left paragraph); trailing
    /// spaces do not count.
    case trailing
}

/// Laid-out text: lines and glyph positions relative to the layout's top-left corner.
/// Build once, draw every frame.
package struct TextLayout {
    /// One line of the layout.
    package struct Line: Sendable, Hashable {
        /// Scalars of the text on this line (trailing spaces included, the ellipsis not).
        package var textRange: Range<Int>
        /// Glyphs of this line in `TextLayout.glyphs` (the ellipsis included).
        package var glyphRange: Range<Int>
        /// Left edge of the line's ink box after alignment, in pixels from the layout's left.
        package var x: Double
        /// Baseline, in pixels from the layout's top.
        package var baseline: Double
        /// Width without trailing spaces (the ellipsis included), in pixels.
        package var width: Double
        /// Whether this line ends with an ellipsis because text was cut.
        package var isTruncated: Bool
        /// Whether the line's paragraph runs right to left: it starts at the right, and its
        /// ellipsis is at the left.
        package var isRightToLeft: Bool = false
        /// Whether its paragraph went through the bidi algorithm: its carets and selection come
        /// from `visualEdges`, not from advances.
        package var isBidi: Bool = false
    }

    /// Where a scalar of a bidi paragraph was placed: its left and right edges (1/64 px from the
    /// layout's left) and its embedding level (odd: right to left).
    package struct VisualEdge: Sendable, Hashable {
        package var left: Int32
        package var right: Int32
        package var level: UInt8
        /// The edge a caret before it stands at: the side its run starts from.
        var leading: Int32 { level & 1 == 1 ? right : left }
        /// The edge a caret after it stands at.
        var trailing: Int32 { level & 1 == 1 ? left : right }
    }

    /// A glyph ready to draw: whole-pixel origin (pen position on the baseline).
    package struct Glyph: Sendable, Hashable {
        package var glyph: UInt32
        /// Index of the face in `font.faces`.
        package var face: UInt16
        package var x: Int32
        package var y: Int32
    }

    package let font: Font
    /// The text as Unicode scalars (`Line.textRange` indexes into it).
    package let scalars: [Unicode.Scalar]
    package let lines: [Line]
    package let glyphs: [Glyph]
    /// Width: `maxWidth` when finite, else the widest line. Height: lines × line height.
    package let size: Size
    /// Distance between baselines used, in pixels.
    package let lineHeight: Double
    /// Whether text was cut (by `maxLines`) and an ellipsis drawn.
    package var isTruncated: Bool { lines.last?.isTruncated ?? false }
    /// `advancePrefix[i]`: advance of the clusters before scalar `i` in 1/64 px, from the start
    /// of the text: a caret's place on its line without shaping again.
    let advancePrefix: [Int32]
    /// Per scalar, where it was placed, for the lines of bidi paragraphs (`Line.isBidi`); empty
    /// when every paragraph is plain left-to-right text.
    package let visualEdges: [VisualEdge]

    /// Lays out `text` in lines no wider than `maxWidth` pixels (infinite: one line per
    /// paragraph). `lineSpacing` multiplies the font's line height. `maxLines` > 0 keeps at
    /// most that many lines and ends the last one with "…" when text was cut (a one-line
    /// label is `maxLines: 1`). Words wrap at spaces and hyphens; Japanese wraps between
    /// any two characters except where kinsoku forbids it; a word wider than the line is
    /// broken between characters as a last resort. Each paragraph runs in `baseDirection`, or
    /// when nil in the direction of its first strong character (UAX #9); lines are broken in
    /// logical order and their runs placed in visual order. `leading` and `trailing` are the
    /// sides of `alignmentDirection` (a right-to-left layout's: leading is right for every
    /// line), or when nil of each paragraph's own direction.
    package init(
        text: String, font: Font, maxWidth: Double = .infinity, alignment: TextAlignment = .leading,
        lineSpacing: Double = 1, maxLines: Int = 0, baseDirection: TextDirection? = nil,
        alignmentDirection: TextDirection? = nil
    ) {
        self.font = font
        let scalars = Self.boundedScalars(of: text)
        self.scalars = scalars
        let whole = font.options.wholePixelAdvances
        let lineHeight = font.lineHeight(spacing: lineSpacing)
        self.lineHeight = lineHeight
        // A width measured from this text and scaled back (points to pixels) can come back a hair
        // short, 330.99999 for 331: without the tolerance its last word no longer fits and is
        // broken inside ("Departure" / "s" in a label at 200 % on a 1.3x screen).
        let limit: Int =
            maxWidth.isNaN ? 0 : (maxWidth >= Double(Int32.max / 64) ? Int.max : Int(max(0, maxWidth) * 64 + 0.001))

        let shaped = Layouter(font: font, scalars: scalars, direction: baseDirection)
        advancePrefix = shaped.prefix.map { Int32(clamping: $0) }
        let pieces = shaped.lineRanges(limit: limit, maxLines: maxLines)

        // Position glyphs.
        let boxWidth26_6: Int
        let widths = pieces.map { shaped.width(of: $0.range, trimmed: true) + ($0.truncated ? shaped.ellipsisWidth : 0) }
        if limit == Int.max { boxWidth26_6 = widths.max() ?? 0 } else { boxWidth26_6 = limit }
        var lines: [Line] = []
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(scalars.count + 1)
        var edges = shaped.bidi.levels.isEmpty ? [] : [VisualEdge](repeating: VisualEdge(left: 0, right: 0, level: 0), count: scalars.count)
        let ascender = font.ascender
        for (k, piece) in pieces.enumerated() {
            let w = widths[k]
            let rightToLeft = shaped.bidi.isRightToLeft[piece.paragraph]
            let alignsFromRight = alignmentDirection.map { $0 == .rightToLeft } ?? rightToLeft
            var x26_6: Int
            switch (alignment, alignsFromRight) {
            case (.leading, false), (.trailing, true): x26_6 = 0
            case (.center, _): x26_6 = (boxWidth26_6 - w) / 2
            case (.trailing, false), (.leading, true): x26_6 = boxWidth26_6 - w
            }
            if whole { x26_6 = (x26_6 >> 6) << 6 }  // floor to a pixel: centred text does not blur
            let baseline = ascender + Double(k) * lineHeight
            let first = glyphs.count
            shaped.placeGlyphs(of: piece, x26_6: x26_6, baseline: baseline, font: font, into: &glyphs, edges: &edges)
            lines.append(
                Line(
                    textRange: piece.range, glyphRange: first..<glyphs.count, x: Double(x26_6) / 64,
                    baseline: baseline, width: Double(w) / 64, isTruncated: piece.truncated, isRightToLeft: rightToLeft,
                    isBidi: shaped.bidi.isResolved[piece.paragraph]))
        }
        self.lines = lines
        self.visualEdges = edges
        self.glyphs = glyphs
        self.size = Size(width: Double(boxWidth26_6) / 64, height: Double(lines.count) * lineHeight)
    }
}

extension Layouter {
    /// The text's lines as scalar ranges, each no wider than `limit` (1/64 px) where a break
    /// allows; with `maxLines` > 0 at most that many, the last one `truncated` (cut to leave
    /// room for the ellipsis) when text follows it.
    func lineRanges(limit: Int, maxLines: Int) -> [LinePiece] {
        var pieces: [LinePiece] = []
        for (p, paragraph) in paragraphs.enumerated() {
            var start = paragraph.lowerBound
            repeat {
                let isLastAllowed = maxLines > 0 && pieces.count == maxLines - 1
                let end = paragraph.isEmpty ? start : lineEnd(from: start, in: paragraph, limit: limit)
                let restFollows = end < paragraph.upperBound || p < paragraphs.count - 1
                if isLastAllowed && restFollows {
                    let cut = truncationEnd(from: start, in: paragraph, limit: limit - ellipsisWidth)
                    pieces.append(LinePiece(range: start..<cut, truncated: true, paragraph: p))
                    return pieces
                }
                pieces.append(LinePiece(range: start..<end, truncated: false, paragraph: p))
                start = end
            } while start < paragraph.upperBound
        }
        return pieces
    }

    /// Appends the glyphs of one line in visual order, its ink box starting at `x26_6` (1/64 px)
    /// on `baseline`, in whole pixels, with `font`'s ellipsis where it is truncated: after the
    /// text, or before it (at the left) in a right-to-left paragraph, whose trailing spaces
    /// hang off the left edge as a left-to-right line's hang off the right.
    func placeGlyphs(
        of piece: LinePiece, x26_6: Int, baseline: Double, font: Font, into glyphs: inout [TextLayout.Glyph],
        edges: inout [TextLayout.VisualEdge]
    ) {
        // Past Int32 the glyphs are millions of pixels off any span: pin them there.
        let baselineY = Int32(max(-2e9, min(2e9, baseline)).rounded())
        let rightToLeft = bidi.isRightToLeft[piece.paragraph]
        var pen = x26_6
        if piece.truncated && rightToLeft {
            Self.place(font.ellipsis.glyphs[...], pen: &pen, baselineY: baselineY, into: &glyphs)
        }
        if rightToLeft { pen -= width(of: piece.range, trimmed: false) - width(of: piece.range, trimmed: true) }
        let line = self.glyphs(in: piece.range)
        if bidi.isResolved[piece.paragraph] {
            let order = visualOrder(ofGlyphs: line.indices, line: piece.range, paragraphLevel: rightToLeft ? 1 : 0)
            var extents: [Int: (left: Int, right: Int)] = [:]
            for k in order {
                let start = pen
                Self.place(shaped[k...k], pen: &pen, baselineY: baselineY, into: &glyphs)
                let c = Int(shaped[k].cluster), e = extents[c]
                extents[c] = (min(e?.left ?? start, start, pen), max(e?.right ?? pen, start, pen))
            }
            recordEdges(of: piece, extents, into: &edges)
        } else {
            Self.place(line, pen: &pen, baselineY: baselineY, into: &glyphs)
        }
        if piece.truncated && !rightToLeft {
            pen = x26_6 + width(of: piece.range, trimmed: true)
            Self.place(font.ellipsis.glyphs[...], pen: &pen, baselineY: baselineY, into: &glyphs)
        }
    }

    /// Shares each cluster's placed extent among its scalars (a ligature's letters get equal
    /// parts, taken from the side their run starts at) and records them with their levels.
    func recordEdges(of piece: LinePiece, _ extents: [Int: (left: Int, right: Int)], into edges: inout [TextLayout.VisualEdge]) {
        let starts = extents.keys.filter { piece.range.contains($0) }.sorted()
        for (n, c) in starts.enumerated() {
            guard let (lo, hi) = extents[c] else { continue }
            let end = n + 1 < starts.count ? starts[n + 1] : piece.range.upperBound
            let count = max(1, end - c), level = c < bidi.levels.count ? bidi.levels[c] : 0
            for j in 0..<count where c + j < edges.count {
                let a = lo + (hi - lo) * j / count, b = lo + (hi - lo) * (j + 1) / count
                let (left, right) = level & 1 == 1 ? (lo + hi - b, lo + hi - a) : (a, b)
                edges[c + j] = TextLayout.VisualEdge(left: Int32(clamping: left), right: Int32(clamping: right), level: level)
            }
        }
    }

    /// Appends `shaped` left to right from `pen` (1/64 px), advancing it.
    static func place(
        _ shaped: ArraySlice<ShapedGlyph>, pen: inout Int, baselineY: Int32, into glyphs: inout [TextLayout.Glyph]
    ) {
        for g in shaped {
            glyphs.append(
                TextLayout.Glyph(
                    glyph: g.glyph, face: g.face, x: Int32((pen + Int(g.offsetX) + 32) >> 6),
                    y: baselineY - Int32((Int(g.offsetY) + 32) >> 6)))
            pen += Int(g.advance)
        }
    }
}

/// One line before placing: its scalars, whether it ends in an ellipsis, its paragraph.
struct LinePiece {
    var range: Range<Int>
    var truncated: Bool
    var paragraph: Int
}

extension TextLayout {
    /// The words a line ends inside of, each shown with a `/` where a line ends in it
    /// ("Depar/ture"): words wider than the line, cut between their letters as a last resort
    /// where no break opportunity fits. Empty when every line ends at a space, a hyphen or
    /// between ideographs.
    package var wordsBrokenInside: [String] {
        guard lines.count > 1 else { return [] }
        let breaks = LineBreaker.breakOpportunities(in: scalars)
        // A word starts at a break opportunity or where its paragraph does.
        func opens(_ i: Int) -> Bool { i == 0 || breaks[i] || LineBreaker.lineBreakClass(of: scalars[i - 1]) == .mandatory }
        let cuts = lines.indices.dropFirst().compactMap { k -> Int? in
            let start = lines[k].textRange.lowerBound
            // A line after a hard break starts a paragraph: its start is no cut.
            return lines[k - 1].textRange.upperBound == start && start < scalars.count && !opens(start) ? start : nil
        }
        let cutSet = Set(cuts)
        var words: [String] = []
        var lastEnd = -1
        for cut in cuts where cut >= lastEnd {
            var start = cut, end = cut
            while start > 0 && !opens(start) { start -= 1 }
            while end < scalars.count && (end == cut || !opens(end)) && LineBreaker.lineBreakClass(of: scalars[end]) != .mandatory {
                end += 1
            }
            while end > start && LineBreaker.lineBreakClass(of: scalars[end - 1]) == .space { end -= 1 }
            var word = ""
            for i in start..<end {
                if i > start && cutSet.contains(i) { word += "/" }
                word.unicodeScalars.append(scalars[i])
            }
            words.append(word)
            lastEnd = end
        }
        return words
    }

    /// The line a caret before scalar `index` sits on: the line holding it, or for an index
    /// at a wrap, the line it starts (the end of the text stays on the last line).
    package func lineIndex(ofCaretAt index: Int) -> Int {
        guard !lines.isEmpty else { return 0 }
        var lo = 0, hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].textRange.lowerBound <= index { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Where a caret before scalar `index` stands: x in pixels from the layout's left, and its
    /// line.
    package func caret(at index: Int) -> (x: Double, line: Int) {
        let line = lineIndex(ofCaretAt: index)
        guard line < lines.count else { return (0, 0) }
        let l = lines[line]
        let i = max(l.textRange.lowerBound, min(index, l.textRange.upperBound, advancePrefix.count - 1))
        return (caretX(at: i, on: l), line)
    }

    /// x of a caret before scalar `i` of line `l`: the advance of the line's text before it,
    /// from the line's start edge, or in a bidi paragraph where its characters were placed.
    func caretX(at i: Int, on l: Line) -> Double {
        if l.isBidi, !visualEdges.isEmpty { return visualCaretX(at: i, on: l) }
        let start = advancePrefix[min(l.textRange.lowerBound, advancePrefix.count - 1)]
        let offset = Double(advancePrefix[i] - start) / 64
        guard l.isRightToLeft else { return l.x + offset }
        return max(l.x, l.x + l.width - offset)
    }

    /// x of a caret before scalar `i` of a bidi line, as placed: at the edge its character's run
    /// starts from, or after the character before it where that one's run is embedded deeper
    /// (after "12" typed in Arabic the caret stands after the 2, where the next digit goes).
    func visualCaretX(at i: Int, on l: Line) -> Double {
        let range = l.textRange
        let after = i > range.lowerBound && i - 1 < visualEdges.count ? visualEdges[i - 1] : nil
        let before = i < range.upperBound && i < visualEdges.count ? visualEdges[i] : nil
        switch (after, before) {
        case let (a?, b?): return Double(a.level > b.level ? a.trailing : b.leading) / 64
        case let (a?, nil): return Double(a.trailing) / 64
        case let (nil, b?): return Double(b.leading) / 64
        case (nil, nil): return l.isRightToLeft ? l.x + l.width : l.x
        }
    }

    /// Where text `range` (scalars) shows on line `line`, as spans of x in pixels left to right:
    /// one span in text of one direction, several where a selection crosses runs.
    package func selectionSpans(_ range: Range<Int>, line: Int) -> [(minX: Double, maxX: Double)] {
        guard line >= 0, line < lines.count else { return [] }
        let l = lines[line]
        let part = range.clamped(to: l.textRange)
        guard !part.isEmpty else { return [] }
        guard l.isBidi, !visualEdges.isEmpty else {
            let a = caretX(at: part.lowerBound, on: l), b = caretX(at: part.upperBound, on: l)
            return [(min(a, b), max(a, b))]
        }
        var spans: [(minX: Double, maxX: Double)] = []
        for e in part.map({ visualEdges[$0] }).sorted(by: { $0.left < $1.left }) {
            let (a, b) = (Double(e.left) / 64, Double(e.right) / 64)
            if let last = spans.last, a <= last.maxX + 0.5 { spans[spans.count - 1].maxX = max(last.maxX, b) } else { spans.append((a, b)) }
        }
        return spans
    }

    /// The caret place nearest to `x` pixels on `line`: a scalar index within the line's text
    /// (after its trailing spaces only on the last line). Callers round it to a character.
    package func caretIndex(nearX x: Double, line: Int) -> Int {
        guard !lines.isEmpty else { return 0 }
        let l = lines[max(0, min(line, lines.count - 1))]
        var end = l.textRange.upperBound
        // A wrapped line's trailing space belongs before the wrap: a tap past the line's end
        // lands before it, not at the next line's start.
        if line < lines.count - 1, end > l.textRange.lowerBound { end -= 1 }
        var best = l.textRange.lowerBound, bestDistance = Double.infinity
        for i in l.textRange.lowerBound...max(l.textRange.lowerBound, end) where i < advancePrefix.count {
            let d = abs(caretX(at: i, on: l) - x)
            if d < bestDistance { best = i; bestDistance = d }
        }
        return best
    }

    /// Scalars a layout takes from one text: a label's text is bounded like everything a kiosk
    /// is given (256 KiB of Latin text is an article of 40,000 words).
    package static let maximumScalars = 262_144
    /// Combining marks kept after one base character: Unicode's stream-safe text format allows
    /// 30; any more stack invisibly on the same glyph and make shaping quadratic.
    package static let maximumCombiningRun = 30

    /// The scalars laid out for `text`: at most `maximumScalars`, and at most
    /// `maximumCombiningRun` marks in a row.
    static func boundedScalars(of text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(min(text.utf8.count, maximumScalars))
        var run = 0
        for s in text.unicodeScalars {
            if s.properties.canonicalCombiningClass != .notReordered {
                run += 1
                if run > maximumCombiningRun { continue }
            } else {
                run = 0
            }
            out.append(s)
            if out.count == maximumScalars { break }
        }
        return out
    }
}

/// Shaped text with per-scalar advances, for measuring candidate lines.
struct Layouter {
    let scalars: [Unicode.Scalar]
    let shaped: [ShapedGlyph]
    /// `prefix[i]`: advance of all clusters starting before scalar `i`, in 1/64 px.
    let prefix: [Int]
    /// Whether scalar `i` starts a cluster (a place a line may be cut at all).
    let clusterStart: [Bool]
    /// Index of the first glyph per scalar (or where it would be), for slicing `shaped`.
    let firstGlyph: [Int]
    let classes: [LineBreaker.Class]
    let breaks: [Bool]
    let ellipsisWidth: Int
    /// Paragraph ranges (without their mandatory break characters).
    let paragraphs: [Range<Int>]
    /// Each paragraph's direction and embedding levels.
    let bidi: BidiParagraphs

    init(font: Font, scalars: [Unicode.Scalar], direction: TextDirection? = nil) {
        self.scalars = scalars
        let classes = scalars.map(LineBreaker.lineBreakClass(of:))
        self.classes = classes
        let paragraphs = Self.paragraphs(of: scalars, classes: classes)
        self.paragraphs = paragraphs
        let bidi = BidiParagraphs(scalars: scalars, paragraphs: paragraphs, direction: direction)
        self.bidi = bidi
        // Shape each paragraph on its own (mandatory breaks are not shaped), and in a paragraph
        // with right-to-left text each run of one level and script with its direction.
        var glyphs: [ShapedGlyph] = []
        for (p, paragraph) in paragraphs.enumerated() {
            guard bidi.isResolved[p] else {
                glyphs += font.shape(scalars, range: paragraph)
                continue
            }
            for run in bidi.shapingRuns(of: paragraph, scalars: scalars) {
                glyphs += font.shape(scalars, range: run.range, rightToLeft: run.rightToLeft)
            }
        }
        self.shaped = glyphs
        let n = scalars.count
        var advance = [Int](repeating: 0, count: n + 1)
        var clusterStart = [Bool](repeating: false, count: n + 1)
        var firstGlyph = [Int](repeating: glyphs.count, count: n + 1)
        for (k, g) in glyphs.enumerated() {
            let c = Int(g.cluster)
            guard c >= 0 && c < n else { continue }
            advance[c] += Int(g.advance)
            clusterStart[c] = true
            if firstGlyph[c] > k { firstGlyph[c] = k }
        }
        // Scalars without glyphs (mandatory breaks; the tails of ligature clusters) point
        // at the next glyph so that slices stay contiguous.
        for i in stride(from: n - 1, through: 0, by: -1) where firstGlyph[i] == glyphs.count || !clusterStart[i] {
            firstGlyph[i] = firstGlyph[i + 1]
        }
        clusterStart[n] = true
        var prefix = [Int](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advance[i] }
        self.prefix = prefix
        self.clusterStart = clusterStart
        self.firstGlyph = firstGlyph
        self.breaks = LineBreaker.breakOpportunities(classes: classes)
        self.ellipsisWidth = font.ellipsis.glyphs.reduce(0) { $0 + Int($1.advance) }
    }

    /// Paragraph ranges (without their mandatory break characters). CR LF counts as one.
    static func paragraphs(of scalars: [Unicode.Scalar], classes: [LineBreaker.Class]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < scalars.count {
            if classes[i] == .mandatory {
                result.append(start..<i)
                if scalars[i] == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if !scalars.isEmpty { result.append(start..<scalars.count) }
        return result
    }

    func isSpace(_ i: Int) -> Bool { classes[i] == .space }

    /// Width of `range`, without trailing spaces when `trimmed`, in 1/64 px.
    func width(of range: Range<Int>, trimmed: Bool) -> Int {
        var end = range.upperBound
        if trimmed { while end > range.lowerBound && isSpace(end - 1) { end -= 1 } }
        return prefix[end] - prefix[range.lowerBound]
    }

    /// Where the line that starts at `start` ends: the furthest break opportunity whose
    /// text (trailing spaces not counted) fits `limit`; if even the first word does not
    /// fit, the furthest cluster boundary that fits (at least one cluster).
    func lineEnd(from start: Int, in paragraph: Range<Int>, limit: Int) -> Int {
        var best: Int? = nil
        var e = start + 1
        while e <= paragraph.upperBound {
            if e == paragraph.upperBound || (breaks[e] && clusterStart[e]) {
                if width(of: start..<e, trimmed: true) <= limit {
                    best = e
                } else {
                    break
                }
            } else if prefix[e] - prefix[start] > limit && !isSpace(e - 1) {
                // Past the limit inside a word: every later candidate is wider still, so a word
                // of a million letters is not measured again to its end for every line.
                break
            }
            e += 1
        }
        if let best { return best }
        // Overlong word: cut between clusters, at the furthest place that fits and keeps
        // the kinsoku rules if there is one, else at the furthest place that fits.
        var cut = start + 1
        while cut < paragraph.upperBound && !clusterStart[cut] { cut += 1 }
        var kinsokuCut: Int? = nil
        var k = cut
        while k < paragraph.upperBound {
            if clusterStart[k] {
                guard width(of: start..<k, trimmed: false) <= limit else { break }
                cut = k
                if !kinsokuForbidsBreak(before: k) { kinsokuCut = k }
            }
            k += 1
        }
        return kinsokuCut ?? cut
    }

    /// Whether starting a line at `i` breaks a kinsoku rule (closing punctuation or a small
    /// kana first, or an opening bracket last).
    func kinsokuForbidsBreak(before i: Int) -> Bool {
        switch classes[i] {
        case .closing, .nonStarter, .combining: return true
        default: return classes[i - 1] == .opening
        }
    }

    /// End of the text kept before an ellipsis on a line from `start`: the furthest cluster
    /// boundary whose text (trailing spaces trimmed) fits `limit` (possibly `start`).
    func truncationEnd(from start: Int, in paragraph: Range<Int>, limit: Int) -> Int {
        var cut = start
        var k = start + 1
        while k <= paragraph.upperBound {
            if clusterStart[k] {
                if width(of: start..<k, trimmed: true) <= limit { cut = k } else { break }
            }
            k += 1
        }
        while cut > start && isSpace(cut - 1) { cut -= 1 }
        return cut
    }

    /// The shaped glyphs of the scalars in `range`.
    func glyphs(in range: Range<Int>) -> ArraySlice<ShapedGlyph> {
        guard !range.isEmpty else { return shaped[0..<0] }
        let lo = firstGlyph[range.lowerBound]
        let hi = max(lo, firstGlyph[range.upperBound])
        return shaped[lo..<hi]
    }
}
