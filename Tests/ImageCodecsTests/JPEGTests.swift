import Glibc
import Testing
import TestSupport
import Raster
@testable import ImageCodecs

@Suite struct JPEGTests {
    func fixture(_ name: String) throws -> [UInt8] { try FileIO.readAll(path: fixturePath(name)) }

    func near(_ p: UInt32, _ r: Int, _ g: Int, _ b: Int, within tolerance: Int) -> Bool {
        let c = channels(p)
        return c.a == 255 && abs(c.r - r) <= tolerance && abs(c.g - g) <= tolerance && abs(c.b - b) <= tolerance
    }

    @Test func decodesColourHalves() throws {
        let image = try JPEG.read(path: fixturePath("halves-444.jpg"))
        #expect(image.width == 32 && image.height == 16)
        #expect(near(image[3, 8], 220, 40, 40, within: 6))
        #expect(near(image[28, 8], 40, 60, 200, within: 6))
        for i in 0..<(32 * 16) { #expect(image.pixels[i] >> 24 == 255) }
    }

    @Test func decodesProgressiveGrey() throws {
        let image = try Image.read(path: fixturePath("grey-progressive.jpg"))
        #expect(image.width == 24 && image.height == 24)
        for x in [0, 7, 12, 23] {
            let v = 10 * x + 5
            #expect(near(image[x, 11], v, v, v, within: 8), "x=\(x) got \(String(image[x, 11], radix: 16))")
        }
    }

    @Test func decodesSubsampledRamp() throws {
        let image = try Image.decode(fixture("ramp-420.jpg"))
        #expect(image.width == 64 && image.height == 48)
        #expect(near(image[32, 24], 128, 120, 128, within: 10))
    }

    /// Print workflows' CMYK JPEGs (Adobe's inverted CMYK in a YCCK file) were refused as
    /// "Unsupported color conversion".
    @Test func decodesCMYK() throws {
        let image = try Image.decode(fixture("halves-cmyk.jpg"))
        #expect(image.width == 32 && image.height == 16)
        #expect(near(image[4, 8], 255, 0, 0, within: 6))
        #expect(near(image[28, 8], 128, 128, 128, within: 6))
        // Reduced in the DCT too.
        let half = try Image.read(path: fixturePath("halves-cmyk.jpg"), halvings: { _, _ in 1 })
        #expect(half.pixels.width == 16 && near(half.pixels[2, 4], 255, 0, 0, within: 8))
    }

    /// A legal progressive JPEG with a long scan script (695 scans of a 16x16 grey image) decodes
    /// many times over in other readers; TurboJPEG's scan limit refuses it, naming the limit.
    @Test func progressiveJPEGsWithTooManyScansAreRefused() throws {
        let bytes = try fixture("grey-695-scans.jpg")
        do {
            _ = try JPEG.decode(bytes)
            Issue.record("695 scans were decoded")
        } catch let .invalidJPEG(message) {
            #expect(message.contains("500"), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func absurdHeaderDimensionsAreRefused() throws {
        var bytes = try fixture("halves-444.jpg")
        // SOF0 (FF C0): length(2) precision(1) height(2) width(2).
        let sof = (0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes[sof + 5] = 0x75; bytes[sof + 6] = 0x30  // height 30000
        bytes[sof + 7] = 0x75; bytes[sof + 8] = 0x30  // width 30000
        #expect(throws: ImageCodecError.dimensionsTooLarge(width: 30000, height: 30000)) { try JPEG.decode(bytes) }
        bytes[sof + 5] = 0xFF; bytes[sof + 6] = 0xF0  // height 65520: libjpeg's own limit
        #expect(throws: ImageCodecError.self) { try JPEG.decode(bytes) }
        bytes[sof + 5] = 0; bytes[sof + 6] = 0  // height 0
        #expect(throws: ImageCodecError.self) { try JPEG.decode(bytes) }
    }

    @Test func everyTruncationThrows() throws {
        let file = try fixture("ramp-420.jpg")
        for length in 0..<file.count {
            #expect(throws: ImageCodecError.self, "length \(length)") { try Image.decode(Array(file[..<length])) }
        }
        #expect(throws: ImageCodecError.invalidJPEG(message: "no image size before the data ends (truncated file?)")) {
            try Image.decode(Array(file[..<20]))
        }
        #expect(throws: ImageCodecError.invalidJPEG(message: "Premature end of JPEG file")) {
            try Image.decode(Array(file[..<(file.count - 2)]))
        }
    }

    @Test func seededFuzzNeverCrashes() throws {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let sources = try ["halves-444.jpg", "grey-progressive.jpg", "ramp-420.jpg"].map(fixture)
        var thrown = 0, decoded = 0
        for case_ in 0..<3000 {
            var bytes = sources[case_ % 3]
            switch case_ % 4 {
            case 0:
                bytes = JPEG.signature + (0..<Int.random(in: 0...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            case 1, 2:
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 3..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
            default:
                bytes[Int.random(in: 3..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                bytes.removeLast(Int.random(in: 1..<bytes.count / 2, using: &rng))
            }
            do {
                let image = try Image.decode(bytes)
                #expect(image.width > 0 && image.width * image.height <= DecodeLimits.default.maxPixelCount)
                decoded += 1
            } catch {
                switch error {
                case .invalidJPEG, .dimensionsTooLarge: thrown += 1
                default: Issue.record("case \(case_): unexpected \(error)")
                }
            }
        }
        // A flip inside entropy-coded data can decode to wrong colours without any error;
        // that is allowed. What is checked is: no crash, only the two expected errors.
        #expect(thrown + decoded == 3000)
        #expect(thrown > 1000)
    }
}
