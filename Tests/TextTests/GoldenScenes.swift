import Testing
@testable import Text
import Raster
import Geometry

/// The scenes of the text golden images. Each returns a freshly drawn buffer.
enum TextScenes {
    static let english =
        "Glide puts a touch-scrolling user interface on a kiosk touchscreen with no window system: it draws every pixel itself, shows them through DRM/KMS, and makes scrolling feel the way people expect from a phone."
    static let japanese = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。「ちょっと待って」と言った。"

    static func fill(_ buffer: PixelBuffer, _ rect: IntRect, _ color: UInt32) {
        let r = rect.intersection(buffer.bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { buffer[x, y] = color } }
    }

    /// English paragraph wrapped to 300 px at 16 px.
    static func englishWrapped(_ fonts: FontLibrary) throws -> PixelBuffer {
        let font = try fonts.standardFont(pixelSize: 16)
        let layout = TextLayout(text: english, font: font, maxWidth: 300)
        let buffer = PixelBuffer(width: 320, height: Int(layout.size.height) + 20, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        layout.draw(in: buffer.span, at: Point(x: 10, y: 10), color: Color(rgb: 0x1C1C1E))
        return buffer
    }

    /// Japanese paragraph wrapped at 20 px to 12 characters a line, where kinsoku moves
    /// characters: 。 and っ never start a line, 「 never ends one.
    static func japaneseKinsoku(_ fonts: FontLibrary) throws -> PixelBuffer {
        let font = try fonts.standardFont(pixelSize: 20)
        let width = font.width(of: "吾輩は猫である名前はまだ")
        let layout = TextLayout(text: japanese, font: font, maxWidth: width, lineSpacing: 1.2)
        let buffer = PixelBuffer(width: Int(width) + 20, height: Int(layout.size.height) + 20, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        // A faint band marks the wrap width.
        fill(buffer, IntRect(x: 10, y: 0, width: Int(width), height: buffer.height), 0xFFF2_F2F7)
        layout.draw(in: buffer.span, at: Point(x: 10, y: 10), color: .black)
        return buffer
    }

    /// English and Japanese on one line: DejaVu Sans, falling back to VL PGothic.
    static func mixedFallback(_ fonts: FontLibrary) throws -> PixelBuffer {
        let font = try fonts.standardFont(pixelSize: 18)
        let layout = TextLayout(text: "Scroll 日本語のテキスト and English, 「混在」 OK.", font: font)
        let buffer = PixelBuffer(
            width: Int(layout.size.width) + 20, height: Int(layout.size.height) + 16, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        layout.draw(in: buffer.span, at: Point(x: 10, y: 8), color: Color(rgb: 0x003366))
        return buffer
    }

    /// Leading, centred and trailing alignment of two-line paragraphs in a 260 px box.
    static func alignment(_ fonts: FontLibrary) throws -> PixelBuffer {
        let font = try fonts.standardFont(pixelSize: 15)
        let text = "Centred and trailing text lines up inside its box; 日本語も揃う。"
        let buffer = PixelBuffer(width: 280, height: 3 * 60 + 20, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        for (k, alignment) in [TextAlignment.leading, .center, .trailing].enumerated() {
            let layout = TextLayout(text: text, font: font, maxWidth: 260, alignment: alignment)
            let top = 10 + 60 * k
            fill(buffer, IntRect(x: 10, y: top, width: 260, height: Int(layout.size.height)), 0xFFE5_F0FF)
            layout.draw(in: buffer.span, at: Point(x: 10, y: Double(top)), color: .black)
        }
        return buffer
    }

    /// One-line labels truncated with an ellipsis, a two-line one, a label that fits, and a
    /// label clipped to a rectangle.
    static func ellipsisLabels(_ fonts: FontLibrary) throws -> PixelBuffer {
        let font = try fonts.standardFont(pixelSize: 16)
        let buffer = PixelBuffer(width: 240, height: 150, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        let box = 180.0
        fill(buffer, IntRect(x: 10, y: 0, width: Int(box), height: 150), 0xFFF2_F2F7)
        var y = 8.0
        for (text, lines) in [
            ("Pack my box with five dozen liquor jugs.", 1), ("スクロールは指に追従して自然に止まります", 1),
            ("Short label", 1), ("The quick brown fox jumps over the lazy dog again and again", 2),
        ] {
            let layout = TextLayout(text: text, font: font, maxWidth: box, maxLines: lines)
            layout.draw(in: buffer.span, at: Point(x: 10, y: y), color: Color(rgb: 0x3A3A3C))
            y += layout.size.height + 8
        }
        let clipped = TextLayout(text: "Clipped to a rectangle", font: font)
        clipped.draw(
            in: buffer.span, at: Point(x: 10, y: y), color: Color(rgb: 0xC00000),
            clip: IntRect(x: 40, y: Int(y) + 4, width: 90, height: 10))
        return buffer
    }
}
