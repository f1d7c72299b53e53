import Geometry
import Testing
@testable import Text
import TestSupport
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// The repository's Fonts/ folder (tests never use system fonts).
func repositoryFonts() throws -> FontLibrary {
    try FontLibrary(directory: FontLibrary.locateFontsDirectory(near: #filePath))
}

/// Bytes of a file, read with POSIX calls.
func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    guard let f = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}

@Suite struct FontLoadingTests {
    @Test func locatesRepositoryFontsFromFilePath() throws {
        let dir = try FontLibrary.locateFontsDirectory(near: #filePath)
        #expect(dir.hasSuffix("/Fonts"))
        #expect(!dir.hasPrefix("/usr/share"))
        let fonts = try FontLibrary(directory: dir)
        let latin = try fonts.loadFace(named: FontLibrary.primaryFaceFile)
        let japanese = try fonts.loadFace(named: FontLibrary.japaneseFaceFile)
        #expect(latin.familyName == "DejaVu Sans Book")
        #expect(japanese.familyName == "VL PGothic regular")
        // Loaded once per name.
        #expect(try fonts.loadFace(named: FontLibrary.primaryFaceFile) === latin)
    }

    @Test func locatingFailsClearlyOutsideTheRepository() {
        #expect(throws: FontError.self) { try FontLibrary.locateFontsDirectory(near: "/proc/self") }
    }

    @Test func missingFileAndDirectoryAreClearErrors() throws {
        let fonts = try repositoryFonts()
        #expect(throws: FontError.fileNotFound(path: fonts.directory + "/NoSuchFont.ttf")) {
            try fonts.loadFace(named: "NoSuchFont.ttf")
        }
        #expect(throws: FontError.unreadable(path: "/tmp", reason: "is a directory")) { try fonts.loadFace(path: "/tmp") }
        #expect(throws: FontError.fileNotFound(path: "/no/such/dir")) { try FontLibrary(directory: "/no/such/dir") }
    }

    @Test func randomBytesAreRejected() throws {
        let fonts = try repositoryFonts()
        var generator = SystemRandomNumberGenerator()
        for length in [1, 12, 100, 5000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try fonts.loadFace(bytes: bytes, name: "random-\(length)")
                Issue.record("random bytes of length \(length) loaded as a font")
            } catch {
                guard case .invalidFont = error else { Issue.record("unexpected \(error)"); continue }
                #expect(error.description.contains("random-\(length)"))
            }
        }
        #expect(throws: FontError.self) { try fonts.loadFace(bytes: [], name: "empty") }
    }

    @Test(arguments: [12, 1000, 20_000, 300_000, 600_000, 759_000])
    func truncatedFontsAreRejected(length: Int) throws {
        let fonts = try repositoryFonts()
        let full = readFile(fonts.directory + "/" + FontLibrary.primaryFaceFile)
        #expect(full.count == 759_720)
        let truncated = Array(full.prefix(length))
        #expect(throws: FontError.self) { try fonts.loadFace(bytes: truncated, name: "truncated-\(length)") }
        // Same through a file on disk.
        let path = "/tmp/glide-text-truncated-\(length)-\(getpid()).ttf"
        writeFile(path, truncated)
        defer { unlink(path) }
        #expect(throws: FontError.self) { try fonts.loadFace(path: path) }
    }

    @Test func fontsFromMemoryWork() throws {
        let fonts = try repositoryFonts()
        let bytes = readFile(fonts.directory + "/" + FontLibrary.primaryFaceFile)
        let face = try fonts.loadFace(bytes: bytes, name: "DejaVu from memory")
        #expect(face.familyName == "DejaVu Sans Book")
        #expect(face.hasGlyph(for: "A"))
        #expect(!face.hasGlyph(for: "日"))
    }

    @Test func invalidSizesAreRejected() throws {
        let fonts = try repositoryFonts()
        for size in [0, -3, .nan, .infinity, 5000] as [Double] {
            do {
                _ = try fonts.standardFont(pixelSize: size)
                Issue.record("size \(size) accepted")
            } catch {
                guard case .invalidSize = error else { Issue.record("unexpected \(error)"); continue }
            }
        }
        #expect(throws: FontError.noFaces) { try Font(faces: [], pixelSize: 16) }
    }

    @Test func glyphMasksComeInWholeGroupsOfFourWithoutEmptyGroups() throws {
        let fonts = try repositoryFonts()
        let face = try fonts.loadFace(named: FontLibrary.primaryFaceFile)
        let font = try Font(faces: [face], pixelSize: 16)
        var inked = 0
        for character in "Wil.m|gQ@".unicodeScalars {
            let mask = font.glyphTables[0].glyph(face.glyphIndex(for: character)).mask
            #expect(mask.width % 4 == 0, "\(character): \(mask.width) columns")
            guard mask.width > 0 else { Issue.record("\(character): no mask"); continue }
            // The padding is less than a group: some pixel of the last group has ink.
            var ink = 0
            for y in 0..<mask.height {
                for x in (mask.width - 4)..<mask.width where mask.coverage[y * mask.width + x] != 0 { ink += 1 }
            }
            #expect(ink > 0, "\(character): the last group of four is padding only")
            inked += 1
        }
        #expect(inked == 9)
    }

    @Test func metricsAt16Pixels() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        // DejaVu Sans: ascender 1901, descender -483 font units of 2048 per em (hinted,
        // rounded up to whole pixels).
        #expect(font.ascender == 15)
        #expect(font.descender == 4)
        #expect(font.lineHeight == 19)
    }
}

@Suite struct FontSearchTests {
    /// The places given are tried in turn; a `$GLIDE_FONTS` without the fonts is passed over
    /// with a warning.
    @Test func triesTheGivenPlacesInTurn() throws {
        let dir = try FontLibrary.locateFontsDirectory(near: #filePath)
        var warnings: [String] = []
        let found = try FontLibrary.locateFontsDirectory(glideFonts: "/nonexistent/fonts", searchingUpFrom: ["/proc/self", #filePath]) {
            warnings.append($0)
        }
        #expect(found == dir)
        #expect(warnings == ["$GLIDE_FONTS=/nonexistent/fonts does not exist; looking for Glide's Fonts/ next to the executable instead"])
        #expect(try FontLibrary.locateFontsDirectory(glideFonts: dir, searchingUpFrom: []) == dir)
        #expect(throws: FontError.self) { try FontLibrary.locateFontsDirectory(glideFonts: nil, searchingUpFrom: ["/proc/self"]) }
    }
}

@Suite struct OwnershipTests {
    @Test func libraryFacesAndCachesAreFreed() throws {
        weak var weakLibrary: FontLibrary?
        weak var weakFace: FontFace?
        weak var weakTable: GlyphTable?
        do {
            let fonts = try repositoryFonts()
            let font = try fonts.standardFont(pixelSize: 16)
            let buffer = PixelBuffer(width: 100, height: 30)
            TextLayout(text: "Free 日本", font: font).draw(in: buffer.span, at: .zero, color: .black)
            weakLibrary = fonts
            weakFace = font.faces[1]
            weakTable = font.glyphTables[1]
            #expect(weakTable?.count == 2)
        }
        // No reference cycle keeps FreeType objects alive after their last user.
        #expect(weakLibrary == nil)
        #expect(weakFace == nil)
        #expect(weakTable == nil)
    }

    @Test func faceOutlivesItsLibraryObject() throws {
        var face: FontFace? = nil
        do {
            let fonts = try repositoryFonts()
            face = try fonts.loadFace(named: FontLibrary.primaryFaceFile)
        }
        // The FontLibrary object is gone; the FT_Library lives on in the face.
        let font = try Font(faces: [face!], pixelSize: 20)
        #expect(font.width(of: "Still works") > 50)
        #expect(font.glyphTables[0].glyph(face!.glyphIndex(for: "S")).mask.width > 0)
    }
}

/// A FIFO named as a font used to block FreeType's open for good; /dev/zero never ends.
@Suite struct SpecialFileFontTests {
    @Test func aFIFOOrDeviceIsRefusedWithoutOpeningIt() throws {
        let fonts = try repositoryFonts()
        try forEachSpecialFile { path in
            do {
                _ = try fonts.loadFace(path: path)
                Issue.record("loaded \(path) as a font")
            } catch {
                #expect(error as? FontError == .unreadable(path: path, reason: "not a regular file (a FIFO, device or socket)"))
                #expect("\(error)".contains(path))
            }
        }
    }
}

/// A letter no shipped font has is drawn as a box and said once per script.
@Suite struct MissingGlyphTests {
    @Test func aScriptNoFontHasIsDrawnAsBoxesAndReportedOnce() throws {
        let fonts = try repositoryFonts()
        var reports: [String] = []
        fonts.report = { reports.append($0) }
        let font = try fonts.standardFont(pixelSize: 20)
        let thai = TextLayout(text: "สวัสดี ครับ", font: font)
        _ = TextLayout(text: "ภาษาไทย", font: font)
        _ = TextLayout(text: "Gate 12 · 東京 · مرحبا", font: font)
        #expect(reports.count == 1)
        #expect(reports.first?.contains("script Thai") == true)
        #expect(reports.first?.contains("DejaVu Sans") == true)
        // Boxes, not nothing: the glyphs put down ink.
        let buffer = PixelBuffer(width: 300, height: 40, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        thai.draw(in: buffer.span, at: Point(x: 4, y: 4), color: .black)
        var dark = 0
        for y in 0..<40 { for x in 0..<300 where buffer[x, y] & 0xFF < 128 { dark += 1 } }
        #expect(dark > 100)
    }
}
