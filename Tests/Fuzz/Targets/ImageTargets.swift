// PNG and JPEG decoding: libpng and libjpeg-turbo parse, Glide's code converts rows into
// premultiplied pixels. A decoded image is the size it claims and every pixel is premultiplied.
import ImageCodecs
import Raster

/// Small enough that a fuzzer's run stays in memory; the real limits are the same code.
let fuzzDecodeLimits = DecodeLimits(maxWidth: 4096, maxHeight: 4096, maxPixelCount: 2_000_000)

func fuzzImage(_ bytes: UnsafeRawBufferPointer, decode: ([UInt8], DecodeLimits) throws(ImageCodecError) -> PixelBuffer) -> PixelBuffer? {
    let image: PixelBuffer
    do {
        image = try decode(Array(bytes), fuzzDecodeLimits)
    } catch {
        checkMessage(error)
        return nil
    }
    expect(
        image.width > 0 && image.height > 0 && image.stride >= image.width, "decoded \(image.width)x\(image.height) stride \(image.stride)")
    expect(image.width * image.height <= fuzzDecodeLimits.maxPixelCount, "decoded past the limits")
    checkPremultiplied(image)
    return image
}

/// Reads every pixel (AddressSanitizer sees a buffer shorter than it claims) and checks that no
/// colour channel exceeds alpha.
func checkPremultiplied(_ image: PixelBuffer) {
    for y in 0..<image.height {
        let row = image.pixels + y * image.stride
        for x in 0..<image.width { expectPremultiplied(row[x], x: x, y: y) }
    }
}

func expectPremultiplied(_ p: UInt32, x: Int, y: Int) {
    let a = p >> 24
    expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a, "pixel \(x),\(y) 0x\(String(p, radix: 16)) is not premultiplied")
}

/// The whole decode, then the one reduced as it decodes (halvings from the input's length, so
/// the fuzzer varies them too): a reduced picture is the whole one's size halved, and for PNG
/// the same pixels as the whole one halved.
func fuzzPNG(_ bytes: UnsafeRawBufferPointer) {
    let whole = fuzzImage(bytes) { (b, l) throws(ImageCodecError) in try PNG.decode(b, limits: l) }
    fuzzReduced(bytes, whole: whole, exact: true) { (b, l, h) throws(ImageCodecError) in try PNG.decode(b, limits: l, halvings: h) }
}

func fuzzJPEG(_ bytes: UnsafeRawBufferPointer) {
    let whole = fuzzImage(bytes) { (b, l) throws(ImageCodecError) in try JPEG.decode(b, limits: l) }
    fuzzReduced(bytes, whole: whole, exact: false) { (b, l, h) throws(ImageCodecError) in try JPEG.decode(b, limits: l, halvings: h) }
}

/// SVG through librsvg within its limits (issue 61): entities that expand too far and filters
/// too costly to draw are refused before librsvg parses or renders them, so every input ends
/// within the fuzzer's 10 s and 2 GB, or run.sh reports a timeout or a blow-up. A picture
/// rendered enlarged (halvings below 0, from the input's length) stays within the limits too.
func fuzzSVG(_ bytes: UnsafeRawBufferPointer) {
    _ = fuzzImage(bytes) { (b, l) throws(ImageCodecError) in try SVG.decode(b, limits: l) }
    let times = bytes.count % 5 - 2
    do {
        let picture = try SVG.decode(Array(bytes), limits: fuzzDecodeLimits) { _, _ in times }
        checkPremultiplied(picture.pixels)
        expect(picture.halvings >= SVG.finestLevel && picture.halvings <= max(0, times), "rendered at \(picture.halvings) of \(times)")
        expect(picture.pixels.width * picture.pixels.height <= fuzzDecodeLimits.maxPixelCount, "rendered past the limits")
    } catch {
        checkMessage(error)
    }
}

func fuzzReduced(
    _ bytes: UnsafeRawBufferPointer, whole: PixelBuffer?, exact: Bool,
    decode: ([UInt8], DecodeLimits, HalvingChoice) throws(ImageCodecError) -> ReducedPicture
) {
    let times = bytes.count % 5
    let reduced: ReducedPicture
    do {
        reduced = try decode(Array(bytes), fuzzDecodeLimits) { _, _ in times }
    } catch {
        checkMessage(error)
        return
    }
    checkPremultiplied(reduced.pixels)
    expect(
        reduced.halvings == Halving.possibleCount(times, width: reduced.width, height: reduced.height),
        "halvings \(reduced.halvings) of \(times)")
    // The pixels are the picture's size halved that often, rounded up.
    var (w, h) = (reduced.width, reduced.height)
    for _ in 0..<reduced.halvings { w = (w + 1) / 2; h = (h + 1) / 2 }
    expect(
        reduced.pixels.width == w && reduced.pixels.height == h,
        "reduced to \(reduced.pixels.width)x\(reduced.pixels.height), not \(w)x\(h)")
    guard let whole else { return }  // the streamed reader may read a file the whole one refuses
    let expected = whole.halved(times: times)
    expect(reduced.width == whole.width && reduced.height == whole.height, "reduced picture's size \(reduced.width)x\(reduced.height)")
    expect(
        reduced.pixels.width == expected.width && reduced.pixels.height == expected.height,
        "reduced to \(reduced.pixels.width)x\(reduced.pixels.height), halved \(expected.width)x\(expected.height)")
    guard exact else { return }
    for y in 0..<expected.height {
        for x in 0..<expected.width where reduced.pixels[x, y] != expected[x, y] {
            expect(
                false,
                "reduced pixel \(x),\(y) 0x\(String(reduced.pixels[x, y], radix: 16)) differs from the halved 0x\(String(expected[x, y], radix: 16))"
            )
            return
        }
    }
}
