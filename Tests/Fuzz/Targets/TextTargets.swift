// Font loading and shaping (FreeType and HarfBuzz), line breaking and glyph blits into a span.
import Geometry
import Raster
import Text
#if canImport(Glibc)
import Glibc
#endif

/// Opened once per process: loading DejaVu Sans and VL PGothic for every input would be most
/// of the run.
public final class TextFuzzContext {
    let library: FontLibrary
    var fonts: [Int: Font] = [:]
    /// Where the font target writes its input to load it from a file, one per process.
    let scratchFontPath = "/tmp/glide-fuzz-font-\(getpid()).ttf"

    public init() throws {
        library = try FontLibrary(directory: FontLibrary.locateFontsDirectory(near: #filePath))
    }

    func standardFont(pixelSize: Int) -> Font {
        if let font = fonts[pixelSize] { return font }
        // The shipped fonts load (the unit tests say so); a failure here is a finding.
        guard let font = try? library.standardFont(pixelSize: Double(pixelSize)) else {
            fatalError("the shipped fonts do not load at \(pixelSize) px")
        }
        fonts[pixelSize] = font
        return font
    }
}

let sampleText = "Glide ffi Åsa — 日本語のテキスト 123\u{2029}wrap\u{200B}me\tplease"

/// The bytes are a font file: it loads or gives a clear error; a font that loads shapes, lays
/// out and draws text without writing outside the span.
func fuzzFont(_ bytes: UnsafeRawBufferPointer, context: TextFuzzContext) {
    let face: FontFace
    do {
        face = try context.library.loadFace(bytes: Array(bytes), name: "fuzz.ttf")
    } catch {
        checkMessage(error)
        expect(!loadsFromFile(bytes, context: context), "the bytes load from a file but not from memory")
        return
    }
    expect(loadsFromFile(bytes, context: context), "the bytes load from memory but not from a file")
    guard let font = try? Font(faces: [face], pixelSize: 18) else { return }
    let layout = TextLayout(text: sampleText, font: font, maxWidth: 90, maxLines: 3)
    let target = GuardedSpan(width: 61, height: 47, padding: 3, fill: 0xFF10_2030)
    layout.draw(in: target.span, at: Point(x: -7, y: 3), color: Color(rgb: 0x3366CC, alpha: 200))
    target.check()
}

/// Whether `bytes` load as a face through a file, as fonts on disk do (read whole into memory).
private func loadsFromFile(_ bytes: UnsafeRawBufferPointer, context: TextFuzzContext) -> Bool {
    let path = context.scratchFontPath
    guard let file = fopen(path, "wb") else { return false }
    defer { unlink(path) }  // the face holds the bytes, not the file
    let written = fwrite(bytes.baseAddress, 1, bytes.count, file)
    fclose(file)
    guard written == bytes.count else { return false }
    do {
        _ = try context.library.loadFace(path: path)
        return true
    } catch {
        checkMessage(error)
        return false
    }
}

/// The bytes are a layout request and its text: any size, width, alignment, line limit and
/// Unicode lay out and draw inside the span.
func fuzzText(_ bytes: UnsafeRawBufferPointer, context: TextFuzzContext) {
    var input = FuzzInput(bytes)
    let size = input.int(in: 6...96)
    let widths = [Double.infinity, .nan, 0, -5, 1, 37.5, 120, 1e12]
    let widthChoice = Int(input.byte()) % (widths.count + 1)
    let maxWidth = widthChoice < widths.count ? widths[widthChoice] : input.finiteCoordinate(limit: 600)
    let alignment = input.pick([TextAlignment.leading, .center, .trailing])
    let maxLines = input.int(in: -2...6)
    let spacing = input.pick([1, 0, 1.5, -1, .nan, 1e9])
    let origin = input.point(limit: 300)
    let (width, height, padding) = (input.int(in: 1...97), input.int(in: 1...61), input.int(in: 0...5))
    let text = String(decoding: input.rest(), as: UTF8.self)
    let layout = TextLayout(
        text: text, font: context.standardFont(pixelSize: size), maxWidth: maxWidth,
        alignment: alignment, lineSpacing: spacing, maxLines: maxLines)
    expect(layout.size.width.isFinite && layout.size.height.isFinite, "layout size \(layout.size)")
    if maxLines > 0 { expect(layout.lines.count <= maxLines, "\(layout.lines.count) lines with maxLines \(maxLines)") }
    let target = GuardedSpan(width: width, height: height, padding: padding, fill: 0)
    layout.draw(in: target.span, at: origin, color: Color(rgb: 0xF0E0D0, alpha: 255))
    target.check()
}
