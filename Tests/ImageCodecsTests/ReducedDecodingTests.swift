import Raster
import Testing
import TestSupport
@testable import ImageCodecs

/// Decoding at the size a picture is drawn at (issue 13): PNG rows halved as they stream,
/// JPEG through the DCT's own scaling.
@Suite struct ReducedDecodingTests {
    static func repositoryFile(_ path: String) -> String { "\(testsDirectory)/../\(path)" }

    /// The differences of each colour channel of each pixel.
    static func channelDifferences(_ a: PixelBuffer, _ b: PixelBuffer) -> [Int] {
        var out: [Int] = []
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                for shift: UInt32 in [0, 8, 16] { out.append(abs(Int((a[x, y] >> shift) & 0xFF) - Int((b[x, y] >> shift) & 0xFF))) }
            }
        }
        return out
    }

    /// True when both have the same size and pixels.
    static func same(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        a.width == b.width && a.height == b.height && compare(a, b).mismatches == 0
    }

    /// Streaming halvings give `halved(times:)` bit for bit, for odd and even sizes, including
    /// pictures that run out of halves on one side.
    @Test(arguments: [(1, 1), (2, 2), (3, 5), (7, 2), (17, 9), (64, 33), (100, 1)])
    func streamedHalvingsEqualHalvingTheWhole(width: Int, height: Int) {
        let whole = PixelBuffer(width: width, height: height)
        var seed: UInt32 = 12345
        for i in 0..<width * height {
            seed = seed &* 1_103_515_245 &+ 12345
            let a = seed >> 24
            // Premultiplied: no channel above alpha.
            whole.pixels[i] =
                a << 24 | (((seed >> 16) & 0xFF) * a / 255) << 16 | (((seed >> 8) & 0xFF) * a / 255) << 8 | ((seed & 0xFF) * a / 255)
        }
        for times in 0...6 {
            let halving = Halving(width: width, height: height, times: times)
            for y in 0..<height { halving.push(row: whole.pixels + y * whole.stride) }
            halving.finish()
            let expected = whole.halved(times: times)
            #expect(Self.same(halving.output, expected), "\(width)x\(height) halved \(times) times")
        }
    }

    /// Every kind of PNG (8 and 16 bits, grey, palette with transparency, alpha, interlaced)
    /// and the catalog's photos: the rows halved as they stream equal the whole decode halved.
    @Test(arguments: [
        "Tests/Fuzz/Corpus/png/seed-rgb8", "Tests/Fuzz/Corpus/png/seed-rgba8",
        "Tests/Fuzz/Corpus/png/seed-grey16", "Tests/Fuzz/Corpus/png/seed-greyalpha8",
        "Tests/Fuzz/Corpus/png/seed-palette-trns",
        "Board/content/images/photo-0.png", "Board/content/images/card-3.png",
    ])
    func pngRowsHalvedAsTheyStreamEqualTheWholeHalved(path: String) throws {
        try Self.expectHalvedAsTheyStream(FileIO.readAll(path: Self.repositoryFile(path)), name: path)
    }

    /// An interlaced PNG's rows are final only after the last pass: it is decoded whole, then
    /// halved, and gives what the same picture not interlaced gives streamed.
    @Test func interlacedPNGsAreHalvedWhole() throws {
        let (width, height) = (37, 21)
        let rgba = (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }
        let interlaced = HandmadePNG.rgbaInterlaced(width: width, height: height, straightRGBA: rgba)
        let plain = HandmadePNG.rgba(width: width, height: height, straightRGBA: rgba)
        for times in 0...4 {
            let fromInterlaced = try PNG.decode(interlaced) { _, _ in times }
            let streamed = try PNG.decode(plain) { _, _ in times }
            #expect(fromInterlaced.halvings == streamed.halvings && fromInterlaced.width == width && fromInterlaced.height == height)
            #expect(Self.same(fromInterlaced.pixels, streamed.pixels), "halved \(times) times")
        }
    }

    static func expectHalvedAsTheyStream(_ bytes: [UInt8], name path: String) throws {
        let whole = try PNG.decode(bytes)
        for times in 0...4 {
            var asked: (Int, Int)?
            let reduced = try PNG.decode(bytes) { w, h in
                asked = (w, h); return times
            }
            #expect(asked.map { $0 == (whole.width, whole.height) } == true)
            let expected = whole.halved(times: times)
            #expect(reduced.width == whole.width && reduced.height == whole.height)
            #expect(reduced.halvings == Halving.possibleCount(times, width: whole.width, height: whole.height))
            #expect(Self.same(reduced.pixels, expected), "\(path) halved \(times) times")
        }
    }

    /// Up to three halvings are the DCT's scaling: the same size as the whole decode halved,
    /// and the same picture within a few levels (a better filter than the box, not the same).
    @Test(arguments: [
        "Tests/ImageCodecsTests/Fixtures/ramp-420.jpg", "Tests/ImageCodecsTests/Fixtures/halves-444.jpg",
        "Tests/ImageCodecsTests/Fixtures/grey-progressive.jpg",
    ])
    func jpegScaledInTheDCTMatchesTheWholeHalved(path: String) throws {
        let bytes = try FileIO.readAll(path: Self.repositoryFile(path))
        let whole = try JPEG.decode(bytes)
        for times in 0...5 {
            let reduced = try Image.decode(bytes) { _, _ in times }
            let expected = whole.halved(times: times)
            #expect(reduced.pixels.width == expected.width && reduced.pixels.height == expected.height, "\(path) \(times)")
            #expect(reduced.halvings == Halving.possibleCount(times, width: whole.width, height: whole.height))
            let differences = Self.channelDifferences(reduced.pixels, expected)
            let mean = Double(differences.reduce(0, +)) / Double(max(1, differences.count))
            #expect(mean <= 3, "\(path) halved \(times) times: mean channel difference \(mean)")
            if times == 0 { #expect(Self.same(reduced.pixels, expected)) }
        }
    }

    /// Bad input gives the errors of a whole decode: a header beyond the limits is refused
    /// before any pixel memory, a truncated file names the truncation.
    @Test func badFilesFailAsTheyDoWhole() throws {
        let photo = try FileIO.readAll(path: Self.repositoryFile("Board/content/images/photo-0.png"))
        let truncated = Array(photo.prefix(photo.count / 2))
        #expect(throws: ImageCodecError.invalidPNG(message: "data ends early (truncated file): read beyond end of data")) {
            try PNG.decode(truncated) { _, _ in 2 }
        }
        var huge = HandmadePNG.rgba(width: 1, height: 1, straightRGBA: [0, 0, 0, 0])
        let ihdr = HandmadePNG.ihdr(width: 60000, height: 60000, colorType: 6)
        huge.replaceSubrange(8..<8 + ihdr.count, with: ihdr)
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 60000, height: 60000)) { try PNG.decode(huge) { _, _ in 3 } }
        #expect(throws: ImageCodecError.unknownFormat) { try Image.decode([1, 2, 3]) { _, _ in 1 } }
        let jpeg = try FileIO.readAll(path: Self.repositoryFile("Tests/ImageCodecsTests/Fixtures/ramp-420.jpg"))
        let cut = Array(jpeg.prefix(jpeg.count / 2))
        let wholeError = #expect(throws: ImageCodecError.self) { try JPEG.decode(cut) }
        #expect(throws: try #require(wholeError)) { try Image.decode(cut) { _, _ in 2 } }
    }
}
