import Geometry
import Raster
import Testing
import TestSupport
@testable import Text
#if canImport(Glibc)
import Glibc
#endif

/// Fonts changed underneath a running app: a font file truncated while in use (as `cp` over it
/// does) crashed the process with SIGBUS when FreeType mapped it; a damaged shipped font is
/// reported once and the other shipped font draws in its place.
@Suite struct FontDamageTests {
    /// A fresh folder holding copies of the shipped fonts.
    static func copiedFonts() throws -> String {
        let dir = try makeTemporaryFolder(prefix: "glide-font-damage")
        let shipped = try FontLibrary.locateFontsDirectory(near: #filePath)
        for file in [FontLibrary.primaryFaceFile, FontLibrary.japaneseFaceFile] {
            writeFile(dir + "/" + file, readFile(shipped + "/" + file))
        }
        return dir
    }

    static func remove(_ dir: String) {
        for file in [FontLibrary.primaryFaceFile, FontLibrary.japaneseFaceFile] { unlink(dir + "/" + file) }
        rmdir(dir)
    }

    /// Text drawn with glyphs from all over both files (outlines the loader's probes never read).
    static func drawAll(_ font: Font) -> Int {
        var text = String((0x21...0x24F).compactMap(Unicode.Scalar.init).map(Character.init))
        text += "あいうえおかきくけこ日本語の文字東京駅漢字表示確認"
        let layout = TextLayout(text: text, font: font, maxWidth: 600)
        let buffer = PixelBuffer(width: 640, height: Int(layout.size.height) + 8)
        layout.draw(in: buffer.span, at: Point(x: 4, y: 4), color: .black)
        return layout.glyphs.count
    }

    @Test func aFontTruncatedWhileInUseDoesNotCrash() throws {
        let dir = try Self.copiedFonts()
        defer { Self.remove(dir) }
        let fonts = try FontLibrary(directory: dir)
        let font = try fonts.standardFont(pixelSize: 16)
        _ = TextLayout(text: "Ready", font: font)
        for file in [FontLibrary.primaryFaceFile, FontLibrary.japaneseFaceFile] {
            #expect(truncate(dir + "/" + file, 1000) == 0)
        }
        // With the files mapped, the first glyph outline past byte 1000 was a SIGBUS.
        #expect(Self.drawAll(font) > 500)
        #expect(Self.drawAll(try fonts.standardFont(pixelSize: 23)) > 500)
    }

    @Test func aDamagedShippedFontIsReportedOnceAndReplaced() throws {
        let dir = try Self.copiedFonts()
        defer { Self.remove(dir) }
        #expect(truncate(dir + "/" + FontLibrary.primaryFaceFile, 300_000) == 0)
        let fonts = try FontLibrary(directory: dir)
        var reports: [String] = []
        fonts.report = { reports.append($0) }
        let font = try fonts.standardFont(pixelSize: 16)
        // (and the system's colour emoji after it, where installed)
        #expect(font.faces.filter { $0.colorStrike == nil }.map(\.familyName) == ["VL PGothic regular"])
        #expect(Self.drawAll(font) > 500)
        #expect(font.faces[0].hasGlyph(for: "A"))
        _ = try fonts.standardFont(pixelSize: 30)
        #expect(reports.count == 1)
        #expect(reports.first?.contains(FontLibrary.primaryFaceFile) == true)
        #expect(reports.first?.contains("truncated") == true)
    }

    @Test func withBothShippedFontsDamagedTheFirstErrorIsThrown() throws {
        let dir = try Self.copiedFonts()
        defer { Self.remove(dir) }
        #expect(truncate(dir + "/" + FontLibrary.primaryFaceFile, 0) == 0)
        #expect(truncate(dir + "/" + FontLibrary.japaneseFaceFile, 5000) == 0)
        let fonts = try FontLibrary(directory: dir)
        var reports: [String] = []
        fonts.report = { reports.append($0) }
        for size in [16.0, 20] {
            #expect(throws: FontError.self) { try fonts.standardFont(pixelSize: size) }
        }
        #expect(reports.count == 2)
    }

    /// A font with no glyphs: made from the shipped one by setting `maxp.numGlyphs` to 0.
    @Test func aFontWithoutGlyphsIsRefused() throws {
        let fonts = try repositoryFonts()
        var bytes = readFile(fonts.directory + "/" + FontLibrary.primaryFaceFile)
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let maxp = try #require((0..<tables).map { 12 + 16 * $0 }.first { Array(bytes[$0..<($0 + 4)]) == Array("maxp".utf8) })
        let offset = Int(bytes[maxp + 8]) << 24 | Int(bytes[maxp + 9]) << 16 | Int(bytes[maxp + 10]) << 8 | Int(bytes[maxp + 11])
        bytes[offset + 4] = 0
        bytes[offset + 5] = 0
        #expect(throws: FontError.self) { try fonts.loadFace(bytes: bytes, name: "no glyphs") }
    }
}
