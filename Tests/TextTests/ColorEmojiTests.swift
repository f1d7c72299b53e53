import Geometry
import Raster
import Testing
import TestSupport
@testable import Text

/// Colour emoji from the system's Noto Color Emoji (CBDT bitmaps, Debian's
/// `fonts-noto-color-emoji`, which `.ci/setup` installs): the default chain ends with it, its
/// glyphs are scaled from the 109-pixel strike like pictures, and they keep their colours.
@Suite struct ColorEmojiTests {
    func emojiFont(_ pixels: Double) throws -> Font {
        let fonts = try repositoryFonts()
        try #require(
            fonts.chain.last == FontLibrary.systemEmojiFont,
            "no \(FontLibrary.systemEmojiFont): install fonts-noto-color-emoji (.ci/setup does)")
        return try fonts.standardFont(pixelSize: pixels)
    }

    @Test func aThumbsUpIsDrawnInItsOwnColoursAtTheTextSize() throws {
        let font = try emojiFont(32)
        let layout = TextLayout(text: "OK 👍", font: font)
        let thumb = try #require(layout.glyphs.last)
        #expect(font.faces[Int(thumb.face)].colorStrike?.pixels == 109)
        // The strike's advance (136 of 109 pixels) at 32 pixels: 39.9, whole pixels: 40.
        let shaped = font.shape("👍")
        #expect(shaped.glyphs.count == 1 && shaped.glyphs[0].advance == 40 * 64)
        // Lines keep the primary face's height: an emoji does not push lines apart.
        #expect(font.lineHeight == (try repositoryFonts().standardFont(pixelSize: 32)).lineHeight)
        let buffer = PixelBuffer(width: 120, height: 48, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        layout.draw(in: buffer.span, at: Point(x: 4, y: 4), color: Color(rgb: 0x000000))
        var yellow = 0, black = 0
        for y in 0..<48 {
            for x in 0..<120 {
                let p = buffer[x, y], r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                if r > 200, g > 150, b < 90 { yellow += 1 }
                if r < 40, g < 40, b < 40 { black += 1 }
            }
        }
        // The thumb is yellow wherever the letters are black: a glyph tinted in the text's colour
        // would have no yellow at all.
        #expect(yellow > 300 && black > 100, "\(yellow) yellow, \(black) black pixels")
        let box = layout.glyphs.last.map { font.glyphTables[Int($0.face)].glyph($0.glyph) }
        #expect(box?.color?.width == 40 && box?.color?.height == 38)
        // Faded with the text's colour, as a disabled label is; and the line as a person sees it.
        let line = PixelBuffer(width: 460, height: 56, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        TextLayout(text: "Thanks 👍 🎉 ☕ ✈️ ✈︎ 🇯🇵 1️⃣", font: font).draw(in: line.span, at: Point(x: 8, y: 8), color: Color(rgb: 0x1C1C1E))
        assertGolden(line, suite: "Text", name: "color-emoji", maxChannelDelta: 2)
    }

    /// A colour face is a picture: never the primary face (no outline face loaded: the font
    /// fails as before), never widened for a weight.
    @Test func theEmojiFaceIsNeverPrimaryNorWidened() throws {
        let fonts = try repositoryFonts()
        fonts.chain = [FontLibrary.systemEmojiFont]
        #expect(throws: FontError.self) { try fonts.standardFont(pixelSize: 20) }
        fonts.chain = FontLibrary.defaultChain
        let bold = try fonts.standardFont(pixelSize: 20, style: FontStyle(weight: .semibold))
        // Only the primary face is read until a character needs more.
        #expect(bold.faces.count == 1)
        _ = bold.shape("日本 👍")
        #expect(bold.faces.count == 3)
        #expect(bold.faces.last?.colorStrike != nil && bold.emboldening.last == 0 && bold.emboldening.first ?? 0 > 0)
    }
}
