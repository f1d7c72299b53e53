import Glibc
import Testing
import TestSupport
import Raster
@testable import ImageCodecs

@Suite struct PNGTests {
    /// Every valid premultiplied pixel (c <= a) survives encode → decode unchanged.
    @Test func premultipliedRoundTripIsExact() throws {
        var rng = SeededGenerator(seed: 1)
        let buffer = PixelBuffer(width: 61, height: 37)
        for i in 0..<(61 * 37) {
            let a = UInt32.random(in: 0...255, using: &rng)
            let r = UInt32.random(in: 0...a, using: &rng), g = UInt32.random(in: 0...a, using: &rng),
                b = UInt32.random(in: 0...a, using: &rng)
            buffer.pixels[i] = (a << 24) | (r << 16) | (g << 8) | b
        }
        // Every alpha value with its extreme channel values, so the rounding is checked exhaustively.
        for a in UInt32(0)...255 { buffer.pixels[Int(a)] = (a << 24) | (a << 16) | ((a / 2) << 8) }
        let decoded = try PNG.decode(PNG.encode(buffer))
        #expect(decoded.width == 61 && decoded.height == 37)
        var mismatches = 0
        for i in 0..<(61 * 37) where decoded.pixels[i] != buffer.pixels[i] { mismatches += 1 }
        #expect(mismatches == 0)
    }

    /// The file holds straight alpha: a hand-made RGBA PNG with (0, 0, 255, 128) decodes to
    /// premultiplied 0x80000080, and our encoder writes an RGBA file (colour type 6).
    /// The fast encoding (remote screenshots) holds the same opaque pixels, in a larger file.
    @Test func fastEncodingIsLosslessToo() throws {
        var rng = SeededGenerator(seed: 2)
        let frame = PixelBuffer(width: 97, height: 41)
        for i in 0..<(97 * 41) { frame.pixels[i] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &rng) & 0xF0F0F0 }
        let fast = try PNG.encode(frame, alpha: .opaque, fast: true)
        let small = try PNG.encode(frame, alpha: .opaque)
        let decoded = try PNG.decode(fast)
        var mismatches = 0
        for i in 0..<(97 * 41) where decoded.pixels[i] != frame.pixels[i] { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(fast[25] == 2, "colour type RGB")
        let decodedSmall = try PNG.decode(small)
        #expect(decodedSmall[5, 0] == decoded[5, 0])
        #expect(fast.count > small.count)
    }

    @Test func fileAlphaIsStraight() throws {
        let file = HandmadePNG.rgba(width: 2, height: 1, straightRGBA: [0, 0, 255, 128, 200, 100, 50, 255])
        let decoded = try PNG.decode(file)
        #expect(decoded[0, 0] == 0x8000_0080)
        #expect(decoded[1, 0] == 0xFFC8_6432)

        let buffer = PixelBuffer(width: 1, height: 1, fill: PremultipliedColor(argb: 0x8040_2000))
        let encoded = try PNG.encode(buffer)
        #expect(encoded[25] == 6, "colour type RGBA")
        #expect(try PNG.decode(encoded)[0, 0] == 0x8040_2000)
    }

    /// Other PNG layouts libpng converts for us: palette with tRNS, grey, grey + alpha.
    @Test func decodesPaletteAndGreyFiles() throws {
        func file(colorType: UInt8, extra: [UInt8], rows: [[UInt8]]) -> [UInt8] {
            let raw: [UInt8] = rows.flatMap { [UInt8(0)] + $0 }
            return PNG.signature + HandmadePNG.ihdr(width: UInt32(2), height: UInt32(rows.count), colorType: colorType)
                + extra + HandmadePNG.chunk("IDAT", HandmadePNG.zlibStored(raw)) + HandmadePNG.chunk("IEND", [])
        }
        // Palette: entry 0 red, opaque; entry 1 blue at alpha 51 (tRNS).
        let palette = file(
            colorType: 3, extra: HandmadePNG.chunk("PLTE", [255, 0, 0, 0, 0, 255]) + HandmadePNG.chunk("tRNS", [255, 51]),
            rows: [[0, 1]])
        let p = try PNG.decode(palette)
        #expect(p[0, 0] == 0xFFFF_0000 && p[1, 0] == 0x3300_0033)
        let grey = try PNG.decode(file(colorType: 0, extra: [], rows: [[0, 200]]))
        #expect(grey[0, 0] == 0xFF00_0000 && grey[1, 0] == 0xFFC8_C8C8)
        let greyAlpha = try PNG.decode(file(colorType: 4, extra: [], rows: [[200, 0, 100, 255]]))
        #expect(greyAlpha[0, 0] == 0 && greyAlpha[1, 0] == 0xFF64_6464)
        // A palette index beyond the palette: libpng treats the missing entries as opaque
        // black (it pads the palette), which is memory-safe; no crash either way.
        let outOfRange = try PNG.decode(file(colorType: 3, extra: HandmadePNG.chunk("PLTE", [1, 2, 3]), rows: [[0, 9]]))
        #expect(outOfRange[0, 0] == 0xFF01_0203 && outOfRange[1, 0] == 0xFF00_0000)
        // Streamed a row at a time, a file without alpha skips premultiplying: the pixels are
        // the same, translucent ones included.
        let files = [
            palette, file(colorType: 0, extra: [], rows: [[0, 200]]), file(colorType: 4, extra: [], rows: [[200, 0, 100, 255]]),
            file(colorType: 0, extra: HandmadePNG.chunk("tRNS", [0, 200]), rows: [[0, 200]]),
        ]
        for bytes in files {
            let whole = try PNG.decode(bytes), streamed = try PNG.decode(bytes, halvings: { _, _ in 0 }).pixels
            #expect(streamed[0, 0] == whole[0, 0] && streamed[1, 0] == whole[1, 0], "colour type \(bytes[25])")
        }
        let transparentGrey = try PNG.decode(files[3], halvings: { _, _ in 0 }).pixels
        #expect(transparentGrey[0, 0] == 0xFF00_0000 && transparentGrey[1, 0] == 0, "grey 200 is the transparent colour")
    }

    /// Rows are premultiplied eight opaque pixels at a time where they can be: a translucent
    /// pixel anywhere in a block, or in the tail, is still premultiplied.
    @Test func premultiplyingPassesOverOpaqueBlocksOnly() {
        for translucent in [0, 3, 7, 8, 15, 16, 18] {
            var row = [UInt32](repeating: 0xFF10_2030, count: 19)
            row[translucent] = 0x80FF_8040
            row.withUnsafeMutableBufferPointer { AlphaConversion.premultiplyInPlace($0.baseAddress!, count: 19) }
            for (i, p) in row.enumerated() { #expect(p == (i == translucent ? 0x80_80_40_20 : 0xFF10_2030), "pixel \(i)") }
        }
    }

    /// XRGB frames: the top byte is ignored, the file is RGB (colour type 2), alpha reads as 255.
    @Test func opaqueFramesWriteRGB() throws {
        let buffer = PixelBuffer(width: 3, height: 2)
        let xrgb: [UInt32] = [0x00F2_F2F7, 0x1234_5678, 0xFF00_0000, 0x7F11_2233, 0x0000_00FF, 0xAB00_FF00]
        for (i, p) in xrgb.enumerated() { buffer.pixels[i] = p }
        let encoded = try PNG.encode(buffer, alpha: .opaque)
        #expect(encoded[25] == 2, "colour type RGB")
        let decoded = try PNG.decode(encoded)
        for (i, p) in xrgb.enumerated() {
            #expect(decoded.pixels[i] == 0xFF00_0000 | (p & 0x00FF_FFFF))
        }
    }

    /// A span with stride > width encodes only its visible pixels.
    @Test func encodesSpansWithStride() throws {
        let backing = PixelBuffer(width: 8, height: 3, fill: PremultipliedColor(argb: 0xFFFF_0000))
        for y in 0..<3 { for x in 0..<5 { backing[x, y] = 0xFF00_00FF } }
        let span = PixelSpan(base: backing.pixels, width: 5, height: 3, stride: 8)
        let decoded = try PNG.decode(PNG.encode(span))
        #expect(decoded.width == 5 && decoded.height == 3)
        for i in 0..<15 { #expect(decoded.pixels[i] == 0xFF00_00FF) }
    }

    @Test func emptyImageIsRefused() {
        #expect(throws: ImageCodecError.emptyImage) { try PNG.encode(PixelBuffer(width: 0, height: 4)) }
    }

    @Test func writeThenReadFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let buffer = PixelBuffer(width: 20, height: 10, fill: Color(rgb: 0x336699, alpha: 200).premultiplied)
        try PNG.write(buffer, to: dir.path + "/a.png")
        let back = try PNG.read(path: dir.path + "/a.png")
        #expect(back.width == 20 && back.pixels[199] == buffer.pixels[199])
        let viaSniff = try Image.read(path: dir.path + "/a.png")
        #expect(viaSniff.pixels[0] == buffer.pixels[0])
    }

    @Test func missingFileAndDirectoryGiveIOErrors() {
        #expect(throws: ImageCodecError.io(operation: "open", path: "/nonexistent/x.png", errno: ENOENT)) {
            try PNG.read(path: "/nonexistent/x.png")
        }
        #expect(throws: ImageCodecError.notARegularFile(path: "/tmp", found: "a directory")) {
            try PNG.read(path: "/tmp")
        }
        #expect(throws: ImageCodecError.io(operation: "open", path: "/nonexistent/dir/x.png", errno: ENOENT)) {
            try PNG.write(PixelBuffer(width: 1, height: 1), to: "/nonexistent/dir/x.png")
        }
        let message = ImageCodecError.io(operation: "open", path: "/x", errno: ENOENT).description
        #expect(message.contains("No such file"))
    }

    @Test func absurdHeaderDimensionsAreRefusedBeforeAllocating() {
        func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
            PNG.signature + HandmadePNG.ihdr(width: w, height: h, colorType: 6)
                + HandmadePNG.chunk("IDAT", HandmadePNG.zlibStored([0, 1, 2, 3, 4])) + HandmadePNG.chunk("IEND", [])
        }
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 60000, height: 60000)) { try PNG.decode(header(60000, 60000)) }
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 16385, height: 1)) { try PNG.decode(header(16385, 1)) }
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 10000, height: 10000)) { try PNG.decode(header(10000, 10000)) }
        // libpng itself refuses widths beyond 2^31 - 1 and zero sizes.
        #expect(throws: ImageCodecError.self) { try PNG.decode(header(0x8000_0000, 1)) }
        #expect(throws: ImageCodecError.self) { try PNG.decode(header(0, 5)) }
        // Within the limits but no pixel data behind the header: a clear libpng error.
        do {
            _ = try PNG.decode(header(4000, 4000))
            Issue.record("a 4000x4000 header with 5 bytes of data decoded")
        } catch {
            guard case .invalidPNG(let message) = error else { Issue.record("unexpected \(error)"); return }
            #expect(!message.isEmpty)
        }
        // Callers can lower the limits.
        let small = HandmadePNG.rgba(width: 4, height: 4, straightRGBA: [UInt8](repeating: 9, count: 64))
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 4, height: 4)) {
            try PNG.decode(small, limits: DecodeLimits(maxWidth: 3, maxHeight: 100, maxPixelCount: 100))
        }
    }

    @Test func notAPNG() {
        #expect(throws: ImageCodecError.invalidPNG(message: "missing PNG signature")) { try PNG.decode(Array("hello, world".utf8)) }
        #expect(throws: ImageCodecError.invalidPNG(message: "file too short for a PNG signature")) { try PNG.decode([]) }
        #expect(throws: ImageCodecError.unknownFormat) { try Image.decode([1, 2, 3, 4, 5]) }
    }

    /// Every truncation of a valid file throws (never crashes, never returns a half image).
    @Test func everyTruncationThrows() throws {
        var rng = SeededGenerator(seed: 7)
        let buffer = PixelBuffer(width: 23, height: 19)
        for i in 0..<(23 * 19) { buffer.pixels[i] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &rng) }
        let file = try PNG.encode(buffer)
        var decodedPrefixes = 0
        for length in 0..<file.count {
            do {
                _ = try PNG.decode(Array(file[..<length]))
                decodedPrefixes += 1
            } catch {
                guard case .invalidPNG = error else { Issue.record("length \(length): \(error)"); continue }
            }
        }
        // Only a file missing (part of) the IEND chunk may still decode: all pixels are there.
        #expect(decodedPrefixes <= 12)
        #expect(throws: ImageCodecError.invalidPNG(message: "data ends early (truncated file): read beyond end of data")) {
            try PNG.decode(Array(file[..<(file.count / 2)]))
        }
    }

    /// Random bytes behind a valid signature, and random byte flips in a valid file: a few
    /// thousand seeded cases, each either decodes to the right size or throws `.invalidPNG`.
    @Test func seededFuzzNeverCrashes() throws {
        var rng = SeededGenerator(seed: 0x5EED)
        let source = PixelBuffer(width: 16, height: 12)
        for i in 0..<(16 * 12) {
            source.pixels[i] = Color(rgb: UInt32(i * 2_654_435_761 & 0xFFFFFF), alpha: UInt8(i % 256)).premultiplied.argb
        }
        let valid = try PNG.encode(source)
        var thrown = 0, decoded = 0
        for case_ in 0..<3000 {
            var bytes: [UInt8]
            switch case_ % 3 {
            case 0:  // pure noise after the signature
                bytes = PNG.signature + (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1:  // 1-4 flipped bytes anywhere in a valid file
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
            default:  // flipped bytes plus truncation
                bytes = valid
                bytes[Int.random(in: 8..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                bytes.removeLast(Int.random(in: 0..<bytes.count / 2, using: &rng))
            }
            do {
                let image = try Image.decode(bytes)
                #expect(image.width * image.height <= DecodeLimits.default.maxPixelCount)
                decoded += 1
            } catch {
                switch error {
                case .invalidPNG, .dimensionsTooLarge, .unknownFormat: thrown += 1
                default: Issue.record("case \(case_): unexpected \(error)")
                }
            }
        }
        #expect(thrown + decoded == 3000)
        #expect(thrown > 2500, "almost every corruption must be detected (CRC, zlib, signature)")
    }
}
