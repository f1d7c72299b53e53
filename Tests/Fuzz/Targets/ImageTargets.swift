// PNG and JPEG decoding: libpng and libjpeg-turbo parse, Glide's code converts rows into
// premultiplied pixels. A decoded image is the size it claims and every pixel is premultiplied.
import ImageCodecs
import Raster

/// Small enough that a fuzzer's run stays in memory; the real limits are the same code.
let fuzzDecodeLimits = DecodeLimits(maxWidth: 4096, maxHeight: 4096, maxPixelCount: 2_000_000)

func fuzzImage(_ bytes: UnsafeRawBufferPointer, decode: ([UInt8], DecodeLimits) throws(ImageCodecError) -> PixelBuffer) {
    let image: PixelBuffer
    do {
        image = try decode(Array(bytes), fuzzDecodeLimits)
    } catch {
        checkMessage(error)
        return
    }
    expect(image.width > 0 && image.height > 0 && image.stride >= image.width, "decoded \(image.width)x\(image.height) stride \(image.stride)")
    expect(image.width * image.height <= fuzzDecodeLimits.maxPixelCount, "decoded past the limits")
    checkPremultiplied(image)
}

/// Reads every pixel (AddressSanitizer sees a buffer shorter than it claims) and checks that no
/// colour channel exceeds alpha.
func checkPremultiplied(_ image: PixelBuffer) {
    for y in 0..<image.height {
        let row = image.pixels + y * image.stride
        for x in 0..<image.width {
            let p = row[x], a = p >> 24
            expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a,
                   "pixel \(x),\(y) 0x\(String(p, radix: 16)) is not premultiplied")
        }
    }
}

func fuzzPNG(_ bytes: UnsafeRawBufferPointer) { fuzzImage(bytes) { (b, l) throws(ImageCodecError) in try PNG.decode(b, limits: l) } }
func fuzzJPEG(_ bytes: UnsafeRawBufferPointer) { fuzzImage(bytes) { (b, l) throws(ImageCodecError) in try JPEG.decode(b, limits: l) } }
