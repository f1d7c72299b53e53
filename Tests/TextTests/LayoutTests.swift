import Testing
@testable import Text
import Raster
import Geometry

/// The text of each line of a layout.
func lineTexts(_ layout: TextLayout) -> [String] {
    layout.lines.map { line in
        var s = String.UnicodeScalarView()
        s.append(contentsOf: layout.scalars[line.textRange])
        return String(s)
    }
}

@Suite struct ShapingTests {
    @Test func fallbackPicksTheJapaneseFace() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        #expect(font.faceIndex(for: "A", previous: nil) == 0)
        #expect(font.faceIndex(for: "日", previous: nil) == 1)
        #expect(font.faceIndex(for: "。", previous: 0) == 1)
        let shaped = font.shape("Hi 日本")
        #expect(shaped.glyphs.map(\.face) == [0, 0, 0, 1, 1])
        #expect(shaped.glyphs.map(\.cluster) == [0, 1, 2, 3, 4])
        #expect(shaped.glyphs[3].glyph == font.faces[1].glyphIndex(for: "日"))
        #expect(shaped.glyphs[4].glyph == font.faces[1].glyphIndex(for: "本"))
        // Space between two Japanese words stays in the Japanese run.
        #expect(font.shape("日本 語").glyphs.map(\.face) == [1, 1, 1, 1])
    }

    @Test func plainModeHasWholePixelAdvancesAndNoKerning() throws {
        let fonts = try repositoryFonts()
        let plain = try fonts.standardFont(pixelSize: 16, options: .plain)
        let ui = try fonts.standardFont(pixelSize: 16, options: .ui)
        let shaped = plain.shape("AVAWAY Tofu")
        #expect(shaped.glyphs.allSatisfy { $0.advance % 64 == 0 && $0.offsetX == 0 && $0.offsetY == 0 })
        // Without kerning, "AV" is just the sum of the advances of A and V.
        #expect(plain.width(of: "AV") == plain.width(of: "A") + plain.width(of: "V"))
        // With kerning, DejaVu Sans pulls A and V together.
        #expect(ui.width(of: "AV") < ui.width(of: "A") + ui.width(of: "V"))
        // No ligatures in plain mode: one glyph per character of "five".
        #expect(plain.shape("five fl").glyphs.count == 7)
    }

    @Test func measuringIsTheSumOfAdvances() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16, options: .plain)
        let text = "The quick brown fox"
        let sum = text.unicodeScalars.map { font.width(of: String($0)) }.reduce(0, +)
        #expect(font.width(of: text) == sum)
        #expect(font.width(of: "") == 0)
    }
}

@Suite struct LayoutTests {
    @Test func latinWrapsAtWordsGreedily() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16, options: .plain)
        // Advances at 16 px (DejaVu Sans, hinted, whole pixels).
        #expect(font.width(of: "The quick") == 77)
        #expect(font.width(of: "brown fox") == 80)
        #expect(font.width(of: "quick brown") == 97)
        let text = "The quick brown fox"
        // Exactly the width of "The quick": the trailing space does not count.
        let layout = TextLayout(text: text, font: font, maxWidth: 77)
        #expect(lineTexts(layout) == ["The quick ", "brown ", "fox"])
        #expect(layout.lines.map(\.width) == [77, font.width(of: "brown"), font.width(of: "fox")])
        // One pixel less and "quick" moves down.
        #expect(lineTexts(TextLayout(text: text, font: font, maxWidth: 76)) == ["The ", "quick ", "brown ", "fox"])
        // Wide enough for "quick brown".
        let wider = TextLayout(text: text, font: font, maxWidth: 97)
        #expect(lineTexts(wider) == ["The quick ", "brown fox"])
        #expect(wider.lines.map(\.baseline) == [15, 34])
        #expect(wider.size == Size(width: 97, height: 38))
        #expect(lineTexts(TextLayout(text: text, font: font)) == [text])
    }

    @Test(arguments: [60.0, 97, 150, 211, 333])
    func everyLineFitsAndTheNextWordWouldNot(maxWidth: Double) throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16, options: .ui)
        let text =
            "Scrolling should feel the way people expect from a phone: content follows the finger, flicks keep their speed, and edges stretch."
        let layout = TextLayout(text: text, font: font, maxWidth: maxWidth)
        let lines = lineTexts(layout)
        #expect(lines.joined() == text)
        for (k, line) in layout.lines.enumerated() {
            #expect(line.width <= maxWidth)
            if k + 1 < lines.count {
                let nextWord = lines[k + 1].split(separator: " ").first.map(String.init) ?? ""
                let candidate = lines[k] + nextWord
                #expect(font.width(of: candidate) > maxWidth, "\(candidate) would have fit in \(maxWidth)")
            }
        }
    }

    @Test func overlongWordIsBrokenBetweenCharacters() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16, options: .plain)
        let w = font.width(of: "Donau")
        let layout = TextLayout(text: "Donaudampfschiff", font: font, maxWidth: w)
        let lines = lineTexts(layout)
        #expect(lines.first == "Donau")
        #expect(lines.joined() == "Donaudampfschiff")
        #expect(layout.lines.allSatisfy { $0.width <= w })
        // Narrower than one character: still one character per line, no endless loop.
        let tiny = TextLayout(text: "abc", font: font, maxWidth: 1)
        #expect(lineTexts(tiny) == ["a", "b", "c"])
    }

    /// The audit's overflow rule reads these: a line that ends inside a word, not at a break
    /// opportunity, and the word it cut.
    @Test func theWordsBrokenInsideAreTheCutOnes() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16, options: .plain)
        let donau = TextLayout(text: "Donaudampfschiff", font: font, maxWidth: font.width(of: "Donau"))
        #expect(donau.wordsBrokenInside == [lineTexts(donau).joined(separator: "/")])
        #expect(TextLayout(text: "abc", font: font, maxWidth: 1).wordsBrokenInside == ["a/b/c"])
        // Broken at spaces, hard breaks and between ideographs: nothing is cut.
        #expect(TextLayout(text: "The quick brown fox", font: font, maxWidth: 76).wordsBrokenInside.isEmpty)
        #expect(TextLayout(text: "Gate\nFour", font: font, maxWidth: 200).wordsBrokenInside.isEmpty)
        let japanese = try repositoryFonts().standardFont(pixelSize: 16)
        #expect(TextLayout(text: "日本語を読む人", font: japanese, maxWidth: japanese.width(of: "日本語を")).wordsBrokenInside.isEmpty)
        // Only the word that was cut, without the words around it or the space after it.
        let mixed = TextLayout(text: "To Donaudampfschiff now\nand then", font: font, maxWidth: font.width(of: "Donaudampf"))
        #expect(lineTexts(mixed) == ["To ", "Donaudampf", "schiff now", "and then"])
        #expect(mixed.wordsBrokenInside == ["Donaudampf/schiff"])
    }

    @Test func lastResortBreaksStillAvoidKinsokuWhenTheyCan() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        // A long Latin word before 。 is cut inside: the word fits exactly, but 。 may not
        // start the next line, so the cut moves one letter back.
        let w = font.width(of: "Supercalifragilistic")
        let layout = TextLayout(text: "Supercalifragilistic。です", font: font, maxWidth: w)
        #expect(lineTexts(layout) == ["Supercalifragilisti", "c。です"])
    }

    @Test func japaneseWrapsBetweenCharacters() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let w = font.width(of: "日本語を")
        let layout = TextLayout(text: "日本語を読む人", font: font, maxWidth: w)
        #expect(lineTexts(layout) == ["日本語を", "読む人"])
    }

    @Test func kinsokuPushesTheCharacterBeforeAFullStopDown() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        // Four characters fit; the fifth is 。 which may not start a line, so 語 goes with it.
        let w = font.width(of: "日本語で")
        let layout = TextLayout(text: "日本語で書く。次の文", font: font, maxWidth: w)
        #expect(lineTexts(layout) == ["日本語で", "書く。次", "の文"])
        let w3 = font.width(of: "日本語")
        let layout3 = TextLayout(text: "日本語で書く。次の文", font: font, maxWidth: w3)
        #expect(lineTexts(layout3) == ["日本語", "で書", "く。次", "の文"])
    }

    @Test(arguments: Array(stride(from: 80.0, through: 240, by: 7)))
    func noLineStartsWithClosingPunctuationOrSmallKana(maxWidth: Double) throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let text = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。「ちょっと待って」と言った、チョコレートを食べながら。"
        let layout = TextLayout(text: text, font: font, maxWidth: maxWidth)
        let lines = lineTexts(layout)
        #expect(lines.joined() == text)
        for line in lines.dropFirst() {
            let first = line.unicodeScalars.first!
            #expect(!"。、」』）ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー・".unicodeScalars.contains(first), "line starts with \(first)")
        }
        for line in lines.dropLast() {
            #expect(!"「『（".unicodeScalars.contains(line.unicodeScalars.last!), "line ends with an opening bracket")
        }
    }

    @Test func ellipsisFitsTheWidth() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let text = "A label that is much too long for its place"
        for maxWidth in [30.0, 64, 100, 173] {
            let layout = TextLayout(text: text, font: font, maxWidth: maxWidth, maxLines: 1)
            #expect(layout.lines.count == 1)
            #expect(layout.isTruncated)
            #expect(layout.lines[0].width <= maxWidth)
            let last = layout.glyphs.last!
            #expect(last.glyph == font.faces[0].glyphIndex(for: "\u{2026}"))
            // The kept text plus the ellipsis is exactly the measured width.
            let kept = lineTexts(layout)[0]
            #expect(layout.lines[0].width == font.width(of: kept.trimmingTrailingSpaces() + "\u{2026}"))
            // One more character would not fit.
            var longer = kept
            for next in text.unicodeScalars.dropFirst(kept.unicodeScalars.count) {
                longer.unicodeScalars.append(next)
                if next != " " { break }
            }
            #expect(font.width(of: longer.trimmingTrailingSpaces() + "\u{2026}") > maxWidth)
        }
        let fits = TextLayout(text: "Short", font: font, maxWidth: 100, maxLines: 1)
        #expect(!fits.isTruncated)
        #expect(lineTexts(fits) == ["Short"])
        // Two lines, the second truncated.
        let two = TextLayout(text: text, font: font, maxWidth: 120, maxLines: 2)
        #expect(two.lines.count == 2)
        #expect(two.isTruncated && !two.lines[0].isTruncated)
    }

    @Test func alignment() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let w = font.width(of: "Centre")
        let centre = TextLayout(text: "Centre", font: font, maxWidth: 101, alignment: .center)
        #expect(centre.lines[0].x == ((101 - w) / 2).rounded(.down))
        let trailing = TextLayout(text: "Trailing", font: font, maxWidth: 101, alignment: .trailing)
        #expect(trailing.lines[0].x + trailing.lines[0].width == 101)
        #expect(trailing.glyphs[0].x == Int32(trailing.lines[0].x))
    }

    @Test func paragraphsAndLineSpacing() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let layout = TextLayout(text: "one\n\ntwo\r\nthree", font: font, lineSpacing: 1.5)
        #expect(lineTexts(layout) == ["one", "", "two", "three"])
        #expect(layout.lineHeight == 29)  // 19 × 1.5 = 28.5, rounded
        #expect(layout.lines.map(\.baseline) == [15, 44, 73, 102])
        #expect(TextLayout(text: "", font: font).lines.isEmpty)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

@Suite struct DrawingTests {
    @Test func drawsInsideTheInkBoxAndTheClip() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let buffer = PixelBuffer(width: 80, height: 30, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        let layout = TextLayout(text: "Hello", font: font)
        layout.draw(in: buffer.span, at: Point(x: 10, y: 5), color: .black)
        var inked = IntRect.zero
        var count = 0
        for y in 0..<30 {
            for x in 0..<80 where buffer[x, y] != 0xFFFF_FFFF {
                count += 1
                inked = inked.isEmpty ? IntRect(x: x, y: y, width: 1, height: 1) : inked.union(IntRect(x: x, y: y, width: 1, height: 1))
            }
        }
        #expect(count > 100)
        // Ink starts at the left bearing of H and sits between the line's top and baseline.
        #expect(inked.x >= 10 && inked.x <= 12)
        #expect(inked.y >= 5 && inked.maxY <= 5 + 15)
        #expect(inked.maxX <= 10 + Int(layout.lines[0].width) + 1)

        // Clipped: nothing changes outside the clip rectangle.
        let clipped = PixelBuffer(width: 80, height: 30, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        let clip = IntRect(x: 14, y: 8, width: 20, height: 6)
        layout.draw(in: clipped.span, at: Point(x: 10, y: 5), color: .black, clip: clip)
        for y in 0..<30 {
            for x in 0..<80 {
                let inside = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
                #expect(clipped[x, y] == (inside ? buffer[x, y] : 0xFFFF_FFFF))
            }
        }
        // Far outside the span or with absurd origins: nothing drawn, no crash.
        let untouched = PixelBuffer(width: 8, height: 8)
        layout.draw(in: untouched.span, at: Point(x: -1e300, y: .nan), color: .black)
        layout.draw(in: untouched.span, at: Point(x: 500, y: -40), color: .black)
        for y in 0..<8 { for x in 0..<8 { #expect(untouched[x, y] == 0) } }
    }

    @Test func glyphCacheRasterisesEachGlyphOnce() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 23)
        let buffer = PixelBuffer(width: 200, height: 40)
        let layout = TextLayout(text: "abcabc 日日", font: font)
        #expect(font.glyphTables[0].count == 0)
        layout.draw(in: buffer.span, at: .zero, color: .black)
        #expect(font.glyphTables[0].count == 4)  // a, b, c, space
        #expect(font.glyphTables[1].count == 1)  // 日
        layout.draw(in: buffer.span, at: Point(x: 3, y: 3), color: .black)
        #expect(font.glyphTables[0].count == 4)
        // Same face and size through another Font object: the same cache.
        let again = try repositoryFonts().standardFont(pixelSize: 23)
        #expect(again.glyphTables[0] !== font.glyphTables[0])  // another library, another cache
        let sameLibrary = try Font(faces: font.faces, pixelSize: 23)
        #expect(sameLibrary.glyphTables[0] === font.glyphTables[0])
        let g = font.glyphTables[0].glyph(font.faces[0].glyphIndex(for: "a"))
        #expect(g.mask.width > 5 && g.mask.height > 8 && g.top > 8)
    }

    @Test func translucentColourBlends() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 40)
        let buffer = PixelBuffer(width: 60, height: 60, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        TextLayout(text: "I", font: font).draw(in: buffer.span, at: .zero, color: Color(rgb: 0x000000, alpha: 128))
        // Inside the stem of "I": full coverage of 50 % black over white = 127 grey.
        var darkest: UInt32 = 255
        for y in 0..<60 { for x in 0..<60 { darkest = min(darkest, buffer[x, y] & 0xFF) } }
        #expect(darkest == 127)
    }
}

@Suite struct CanvasDrawingTests {
    @Test func canvasPathsMatchTheSpanPath() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 18)
        let layout = TextLayout(text: "Canvas 日本語 text", font: font, maxWidth: 120)
        let white = PremultipliedColor(argb: 0xFFFF_FFFF)
        let color = Color(rgb: 0x224488, alpha: 200)

        let reference = PixelBuffer(width: 160, height: 80, fill: white)
        layout.draw(in: reference.span, at: Point(x: 13, y: 9), color: color, clip: IntRect(x: 20, y: 0, width: 100, height: 60))

        // Translation + clip rectangle: the fast path.
        let translated = PixelBuffer(width: 160, height: 80, fill: white)
        var canvas = Canvas(translated, cache: RasterCache())
        canvas.translate(dx: 10, dy: 4)
        canvas.clip(toDeviceRect: IntRect(x: 20, y: 0, width: 100, height: 60))
        layout.draw(in: canvas, at: Point(x: 3, y: 5), color: color)

        // A rounded clip that covers everything: the per-glyph `Canvas.blend` path.
        let rounded = PixelBuffer(width: 160, height: 80, fill: white)
        var roundedCanvas = Canvas(rounded, cache: RasterCache())
        roundedCanvas.clip(toDeviceRect: IntRect(x: 20, y: 0, width: 100, height: 60))
        roundedCanvas.clip(toRoundedRect: Rect(x: -50, y: -50, width: 400, height: 400), radius: 8)
        #expect(roundedCanvas.roundedClipCount == 1)
        layout.draw(in: roundedCanvas, at: Point(x: 13, y: 9), color: color)

        var differences = 0, inked = 0
        for y in 0..<80 {
            for x in 0..<160 {
                if reference[x, y] != 0xFFFF_FFFF { inked += 1 }
                if translated[x, y] != reference[x, y] { differences += 1 }
                if rounded[x, y] != reference[x, y] { differences += 1 }
            }
        }
        #expect(inked > 300)
        #expect(differences == 0)
    }

    @Test func roundedClipCutsGlyphs() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 30)
        let layout = TextLayout(text: "MMMM", font: font)
        let buffer = PixelBuffer(width: 120, height: 40, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        var canvas = Canvas(buffer, cache: RasterCache())
        canvas.clip(toRoundedRect: Rect(x: 0, y: 0, width: 40, height: 40), radius: 20)
        layout.draw(in: canvas, at: .zero, color: .black)
        // Nothing right of the clip, and the corners of the circle stay white.
        for y in 0..<40 { for x in 40..<120 { #expect(buffer[x, y] == 0xFFFF_FFFF) } }
        #expect(buffer[1, 1] == 0xFFFF_FFFF)
        #expect(buffer[38, 38] == 0xFFFF_FFFF)
    }
}

/// Found by the fuzzer (Tests/Fuzz): a line spacing of 1e9 put baselines past Int32.
@Suite struct FuzzFoundLayoutTests {
    @Test func aHugeLineSpacingLaysOutAndDraws() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let layout = TextLayout(text: "one\ntwo\nthree", font: font, lineSpacing: 1e9)
        #expect(layout.lines.count == 3)
        #expect(layout.glyphs.allSatisfy { $0.y <= 2_000_000_000 })
        let buffer = PixelBuffer(width: 40, height: 40)
        layout.draw(in: buffer.span, at: Point(x: 0, y: 0), color: .white)
        #expect((0..<40).contains { x in buffer[x, 10] != 0 })  // the first line still shows
    }
}
