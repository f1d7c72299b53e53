import Testing
@testable import Text
import FoundationEssentials
import Geometry
import Raster

/// Each line's glyphs as the scalar indices of their clusters, in visual order (left to right).
func visualClusters(_ text: String, font: Font, maxWidth: Double = .infinity, direction: TextDirection? = nil) -> [[Int]] {
    let scalars = TextLayout.boundedScalars(of: text)
    let layouter = Layouter(font: font, scalars: scalars, direction: direction)
    let limit = maxWidth.isFinite ? Int(maxWidth * 64) : Int.max
    return layouter.lineRanges(limit: limit, maxLines: 0).map { piece in
        let glyphs = layouter.glyphs(in: piece.range).indices
        let level: UInt8 = layouter.bidi.isRightToLeft[piece.paragraph] ? 1 : 0
        return layouter.visualOrder(ofGlyphs: glyphs, line: piece.range, paragraphLevel: level).map {
            Int(layouter.shaped[$0].cluster)
        }
    }
}

@Suite struct BidiTests {
    let font: Font

    init() throws { font = try repositoryFonts().standardFont(pixelSize: 16) }

    /// Glyph origins of a one-line layout never go back: glyphs are laid down left to right.
    func expectLeftToRightOrigins(_ layout: TextLayout) {
        let xs = layout.glyphs.map(\.x)
        #expect(xs == xs.sorted())
    }

    @Test func hebrewLineRunsRightToLeft() {
        // ש ל ו ם, a space, ע ו ל ם: the first letter is the rightmost.
        #expect(visualClusters("שלום עולם", font: font) == [[8, 7, 6, 5, 4, 3, 2, 1, 0]])
        let layout = TextLayout(text: "שלום עולם", font: font, maxWidth: 300)
        #expect(layout.lines[0].isRightToLeft)
        // Natural (leading) alignment is the right edge in a right-to-left paragraph.
        #expect(layout.lines[0].x + layout.lines[0].width == 300)
        expectLeftToRightOrigins(layout)
    }

    @Test func arabicLineRunsRightToLeft() {
        // م ر ح ب ا, a space, ب ا ل ع ا ل م: no lam-alef here, so one glyph per letter.
        #expect(visualClusters("مرحبا بالعالم", font: font) == [Array((0...12).reversed())])
        let layout = TextLayout(text: "مرحبا بالعالم", font: font)
        #expect(layout.lines[0].isRightToLeft && layout.lines[0].x == 0)
        expectLeftToRightOrigins(layout)
    }

    @Test func digitsAndLatinInsideArabicKeepTheirOrder() {
        // أحمد 12 Ahmed: the paragraph is right to left; "12" and "Ahmed" run left to right.
        #expect(visualClusters("أحمد 12 Ahmed", font: font) == [[8, 9, 10, 11, 12, 7, 5, 6, 4, 3, 2, 1, 0]])
    }

    @Test func digitsAndBracketsInsideHebrew() {
        // "world (abc)" is one left-to-right run (its brackets take the direction of the
        // letters around them, N0); "123" keeps its order; the Hebrew word is rightmost.
        let expected = Array(9...19) + [8, 5, 6, 7, 4, 3, 2, 1, 0]
        #expect(visualClusters("שלום 123 world (abc)", font: font) == [expected])
    }

    @Test func bracketsInRightToLeftRunsAreMirrored() throws {
        // (גד) in Hebrew: the logical opening bracket is drawn as ")"-shaped glyph on the right.
        let scalars = TextLayout.boundedScalars(of: "אב (גד)")
        let layouter = Layouter(font: font, scalars: scalars)
        let open = try #require(layouter.shaped.first { $0.cluster == 3 })
        let close = try #require(layouter.shaped.first { $0.cluster == 6 })
        #expect(open.glyph == font.shape(")").glyphs[0].glyph)
        #expect(close.glyph == font.shape("(").glyphs[0].glyph)
        #expect(visualClusters("אב (גד)", font: font) == [[6, 5, 4, 3, 2, 1, 0]])
    }

    @Test func arabicPhraseInsideAnEnglishParagraph() {
        // "Welcome to " 0-10, م ر ح ب ا ␠ ب ك م 11-19, " today" 20-25: the paragraph stays
        // left to right and only the Arabic phrase (with its inner space) is reversed.
        let expected = Array(0...10) + Array((11...19).reversed()) + Array(20...25)
        #expect(visualClusters("Welcome to مرحبا بكم today", font: font) == [expected])
        let layout = TextLayout(text: "Welcome to مرحبا بكم today", font: font, maxWidth: 400)
        #expect(!layout.lines[0].isRightToLeft && layout.lines[0].x == 0)
        expectLeftToRightOrigins(layout)
    }

    @Test func directionSetByTheCaller() {
        // Latin in a right-to-left paragraph: the letters keep their order, the line is right-aligned.
        let layout = TextLayout(text: "Gate 12", font: font, maxWidth: 200, baseDirection: .rightToLeft)
        #expect(layout.lines[0].isRightToLeft && layout.lines[0].x + layout.lines[0].width == 200)
        #expect(visualClusters("Gate 12", font: font, direction: .rightToLeft) == [Array(0...6)])
        // Hebrew in a paragraph forced left to right: the line starts at the left.
        let forced = TextLayout(text: "שלום", font: font, maxWidth: 200, baseDirection: .leftToRight)
        #expect(!forced.lines[0].isRightToLeft && forced.lines[0].x == 0)
    }

    @Test func rightToLeftParagraphWrapsInLogicalOrder() {
        let text = "שלום עולם שלום עולם שלום עולם"
        let width = font.width(of: "שלום עולם שלום") + 1
        let layout = TextLayout(text: text, font: font, maxWidth: width)
        #expect(lineTexts(layout) == ["שלום עולם שלום ", "עולם שלום עולם"])
        // The first line's first word is at its right end; trailing spaces hang off the left.
        let lines = visualClusters(text, font: font, maxWidth: width)
        #expect(lines[0].last == 0 && lines[1].last == 15)
        for line in layout.lines { #expect(line.x + line.width == width.rounded(.down) || line.x + line.width == width) }
        let space = font.shape(" ").glyphs[0].glyph
        #expect(layout.glyphs.allSatisfy { $0.x >= 0 || $0.glyph == space })
    }

    @Test func truncatedRightToLeftLineEndsWithAnEllipsisAtTheLeft() {
        let text = "שלום עולם שלום עולם שלום עולם"
        let layout = TextLayout(text: text, font: font, maxWidth: 100, maxLines: 1)
        let line = layout.lines[0]
        #expect(line.isTruncated && line.isRightToLeft && line.width <= 100)
        let ellipsis = font.ellipsis.glyphs[0].glyph
        #expect(layout.glyphs[line.glyphRange.lowerBound].glyph == ellipsis)
        #expect(layout.glyphs.allSatisfy { $0.x >= 0 && $0.x < 100 })
    }

    @Test func caretsStayOnRightToLeftLines() {
        let text = "أحمد 12 Ahmed שלום"
        let layout = TextLayout(text: text, font: font, maxWidth: 120)
        for i in 0...layout.scalars.count {
            let caret = layout.caret(at: i)
            let line = layout.lines[caret.line]
            #expect(caret.x >= line.x - 0.001 && caret.x <= line.x + line.width + 0.001)
            let back = layout.caretIndex(nearX: caret.x, line: caret.line)
            #expect(line.textRange.contains(back) || back == line.textRange.upperBound)
        }
    }

    /// Carets stand where their characters are: before a character at the side its run starts
    /// from, and after "12" in Arabic text right after the 2. From the right edge leftwards the
    /// places of "أحمد 12 Ahmed" are its logical offsets 0 to 4, then 7 6 5 (the digits, left to
    /// right), 13 down to 8 ("Ahmed"): 14 places, each once.
    @Test func caretsStandWhereTheirCharactersAre() {
        let layout = TextLayout(text: "أحمد 12 Ahmed", font: font)
        let xs = (0...13).map { layout.caret(at: $0).x }
        let line = layout.lines[0]
        #expect(Set(xs).count == 14)
        #expect((0...13).sorted { xs[$0] > xs[$1] } == [0, 1, 2, 3, 4, 7, 6, 5, 13, 12, 11, 10, 9, 8])
        #expect(xs[0] == line.x + line.width && xs[8] == line.x)
        // A tap finds the place it lands on.
        for i in 0...13 { #expect(layout.caretIndex(nearX: xs[i], line: 0) == i) }
        // "12 A" selected is two spans: "A" at the left, "12" and the space after it in the middle.
        let spans = layout.selectionSpans(5..<9, line: 0)
        #expect(spans.count == 2)
        #expect(spans.first?.minX == xs[8] && spans.first?.maxX == xs[9])
        #expect(spans.last?.minX == xs[13] && spans.last?.maxX == xs[7])
        // An Arabic phrase inside English: the caret before its first letter is at its right end.
        let english = TextLayout(text: "abc אבג", font: font)
        #expect(english.caret(at: 4).x == english.lines[0].x + english.lines[0].width)
        #expect(english.caret(at: 7).x == english.caret(at: 3).x + Double(font.shape(" ").glyphs[0].advance) / 64)
    }

    @Test func latinAndJapaneseNeverCallTheBidiAlgorithm() {
        for text in ["Departures 12:30 (Gate 4)", "日本語のテキスト、「引用」。", "mixed 日本 text"] {
            let layouter = Layouter(font: font, scalars: TextLayout.boundedScalars(of: text))
            #expect(layouter.bidi.levels.isEmpty && !layouter.bidi.isRightToLeft.contains(true))
        }
    }
}

/// Glide's drawing of lines against Pillow with libraqm (FriBidi + HarfBuzz), ink per pixel
/// column at the same font and size: `Tests/Peers/raqm/raqm-columns.py` wrote the reference.
@Suite struct RaqmComparisonTests {
    /// Ink per column of `text` drawn white on black at (10, 5) in a 400×30 buffer, as the script draws it.
    static func columns(_ text: String, font: Font) -> [Int] {
        let buffer = PixelBuffer(width: 400, height: 30, fill: PremultipliedColor(argb: 0xFF00_0000))
        TextLayout(text: text, font: font).draw(in: buffer.span, at: Point(x: 10, y: 5), color: .white)
        return (0..<400).map { x in (0..<30).reduce(0) { $0 + Int(buffer[x, $1] & 0xFF) } }
    }

    /// Normalised cross-correlation of two ink profiles, at the best shift of up to `slack`
    /// columns, each column summed with its two neighbours either side first: glyph origins
    /// are whole pixels here and fractional there, so words drift by a pixel along a line.
    static func similarity(_ a: [Int], _ b: [Int], slack: Int = 2) -> Double {
        func blur(_ v: [Int]) -> [Int] { v.indices.map { x in v[max(0, x - 2)...min(v.count - 1, x + 2)].reduce(0, +) } }
        let a = blur(a), b = blur(b)
        func mean(_ v: [Int]) -> Double { Double(v.reduce(0, +)) / Double(v.count) }
        let ma = mean(a), mb = mean(b)
        var best = -1.0
        for shift in -slack...slack {
            var dot = 0.0, na = 0.0, nb = 0.0
            for x in 0..<a.count where x + shift >= 0 && x + shift < b.count {
                let u = Double(a[x]) - ma, v = Double(b[x + shift]) - mb
                dot += u * v; na += u * u; nb += v * v
            }
            best = max(best, dot / max(1e-9, (na * nb).squareRoot()))
        }
        return best
    }

    @Test func inkByColumnsMatchesPillowWithRaqm() throws {
        let path = try FontLibrary.locateFontsDirectory(near: #filePath) + "/../Tests/Peers/raqm/raqm-columns.json"
        let reference = try JSONDecoder().decode([String: [Int]].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        #expect(reference.count == 5)
        for (text, expected) in reference {
            let ours = Self.columns(text, font: font)
            // The same line drawn in logical order, as before bidi: what the comparison must tell apart.
            let backwards = Self.columns(String(String.UnicodeScalarView(text.unicodeScalars.reversed())), font: font)
            let score = Self.similarity(ours, expected), wrong = Self.similarity(backwards, expected)
            #expect(score > 0.95, "\(text): \(score)")
            #expect(score > wrong, "\(text): \(score) vs reversed \(wrong)")
        }
    }
}

@Suite struct WordWrappingTests {
    /// A label measures its text, converts the width to points and back for its frame: the
    /// word must still fit the line it was measured on, whatever the scale factor.
    @Test(arguments: [1.1, 1.25, 1.3, 4.0 / 3, 1.5, 1.75, 2.5])
    func aWordThatFitsIsNeverBrokenInside(scale: Double) throws {
        let font = try repositoryFonts().standardFont(pixelSize: 60)
        for text in ["Departures", "Departures board", "Arrivals", "الرحلات المغادرة"] {
            let measured = TextLayout(text: text, font: font).size.width
            for padding in [0.0, 8, 12, 16, 32] {
                let width = (measured / scale + padding - padding) * scale
                #expect(lineTexts(TextLayout(text: text, font: font, maxWidth: width)) == [text], "\(text) at \(scale)")
            }
        }
    }

    @Test func onlyAWordLongerThanTheLineIsBroken() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 60)
        let word = font.width(of: "Departures")
        // Narrower than the second word but wide enough for each: words move down whole.
        #expect(lineTexts(TextLayout(text: "Departures board", font: font, maxWidth: word + 10)) == ["Departures ", "board"])
        // Narrower than the word itself: broken between characters as a last resort.
        let broken = lineTexts(TextLayout(text: "Departures", font: font, maxWidth: word - 1))
        #expect(broken.count == 2 && broken.joined() == "Departures")
    }
}
