import Testing
@testable import Text

/// Text that cannot stall a frame: runs of combining marks are cut to Unicode's stream-safe 30,
/// a label lays out at most `maximumScalars`, and a word longer than many lines is broken in
/// one pass (each line ends where its width runs out, without measuring the rest of the word).
@Suite struct HostileTextTests {
    @Test func combiningRunsAreCutToThirty() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let text = "a" + String(repeating: "\u{301}", count: 100_000) + "b\u{301}\u{302}c"
        let layout = TextLayout(text: text, font: font)
        #expect(layout.scalars.count == 1 + 30 + 4)
        #expect(layout.scalars.last == "c")
        #expect(layout.lines.count == 1)
        // Ordinary accents are kept as they are.
        #expect(TextLayout(text: "Crème brûlée e\u{301}", font: font).scalars.count == "Crème brûlée e\u{301}".unicodeScalars.count)
        #expect(
            TextLayout.boundedScalars(of: String(repeating: "x", count: TextLayout.maximumScalars + 10)).count
                == TextLayout.maximumScalars)
    }

    @Test func aHugeWordBreaksIntoFullLines() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 40, options: .plain)
        let word = String(repeating: "abcdefghij", count: 5_000)  // 50,000 letters
        let layout = TextLayout(text: "Start " + word + " end", font: font, maxWidth: 300)
        let texts = lineTexts(layout)
        #expect(texts.first == "Start ")
        #expect(texts.last?.hasSuffix("end") == true)
        #expect(texts.joined() == "Start " + word + " end")
        // Every line of the word fits and is full: the next letter would not have fitted.
        let advance = font.width(of: "a")
        for line in layout.lines.dropFirst().dropLast() {
            #expect(line.width <= 300)
            #expect(line.width > 300 - 2 * advance - 20)
        }
    }
}
