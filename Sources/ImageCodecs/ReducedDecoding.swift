import CJPEG
import CPNGRows
import Raster

// Decoding straight to the size a picture is drawn at (issue 13): a 8000x5000 photo shown as a
// thumbnail never occupies 160 MB, not even while it decodes. JPEG scales in libjpeg-turbo's
// DCT (½, ¼, ⅛); PNG rows are halved as libpng streams them.

/// How many halvings to keep of a `width` x `height` picture, asked once its header is read.
package typealias HalvingChoice = (_ width: Int, _ height: Int) -> Int

extension Image {
    /// Decodes PNG or JPEG bytes halved as many times as `halvings` asks for the picture's
    /// size (as often as both sides have a half to take), or renders SVG at that size (or
    /// larger, for a negative count: see `SVG.finestLevel`).
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default, halvings: HalvingChoice)
        throws(ImageCodecError) -> ReducedPicture
    {
        switch Format(sniffing: bytes) {
        case .png: return try PNG.decode(bytes, limits: limits, halvings: halvings)
        case .jpeg: return try JPEG.decode(bytes, limits: limits, halvings: halvings)
        case .svg: return try SVG.decode(bytes, limits: limits, halvings: halvings)
        case nil: throw .unknownFormat
        }
    }

    /// Reads a PNG, JPEG or SVG file halved as many times as `halvings` asks for its size.
    package static func read(path: String, limits: DecodeLimits = .default, halvings: HalvingChoice)
        throws(ImageCodecError) -> ReducedPicture
    {
        try decode(FileIO.readAll(path: path), limits: limits, halvings: halvings)
    }
}

extension PNG {
    /// Decodes a PNG halved as `halvings` asks, a row at a time: what is held is the halved
    /// picture and a row per halving. The pixels equal `decode(_:limits:)` halved. Interlaced
    /// files (whose rows are final only after the last pass) are decoded whole, then halved.
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default, halvings: HalvingChoice)
        throws(ImageCodecError) -> ReducedPicture
    {
        try checkSignature(bytes)
        var message = [CChar](repeating: 0, count: 256)
        // The stream lives only for this call: the choice it holds does not escape.
        let (status, stream) = withoutActuallyEscaping(halvings) { halvings in
            let stream = RowStream(limits: limits, halvings: halvings)
            let context = Unmanaged.passUnretained(stream).toOpaque()
            let status = bytes.withUnsafeBufferPointer { raw in
                message.withUnsafeMutableBufferPointer { text in
                    glide_png_read_rows(
                        raw.baseAddress, raw.count,
                        { context, width, height, opaque in
                            RowStream.from(context).begin(width: Int(width), height: Int(height), opaque: opaque != 0)
                        },
                        { context, row in
                            RowStream.from(context).push(row!)
                        }, context, text.baseAddress, text.count)
                }
            }
            stream.halvings = nil
            return (Int(status), stream)
        }
        switch status {
        case GLIDE_PNG_DONE:
            // Done means `begin` accepted the header and made the halving.
            let halving = stream.halving!
            halving.finish()
            return ReducedPicture(pixels: halving.output, width: stream.width, height: stream.height, halvings: halving.times)
        case GLIDE_PNG_REFUSED:
            throw stream.refusal!
        case GLIDE_PNG_INTERLACED:
            return try ReducedPicture(whole: decode(bytes, limits: limits), halvings: halvings)
        default:
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .invalidPNG(message: describe(libpngMessage: text))
        }
    }

    /// The rows libpng hands over, premultiplied and halved as they come.
    private final class RowStream {
        let limits: DecodeLimits
        /// Dropped when the read ends: the caller's choice must not outlive the call.
        var halvings: HalvingChoice?
        var width = 0, height = 0
        /// No alpha in the file: its rows need no premultiplying.
        var opaque = false
        var halving: Halving?
        var refusal: ImageCodecError?

        init(limits: DecodeLimits, halvings: @escaping HalvingChoice) { self.limits = limits; self.halvings = halvings }

        static func from(_ context: UnsafeMutableRawPointer?) -> RowStream {
            Unmanaged<RowStream>.fromOpaque(context!).takeUnretainedValue()
        }

        func begin(width: Int, height: Int, opaque: Bool) -> Int32 {
            self.width = width; self.height = height; self.opaque = opaque
            if let violation = limits.violation(width: width, height: height) { refusal = violation; return 1 }
            halving = Halving(width: width, height: height, times: halvings?(width, height) ?? 0)
            return 0
        }

        func push(_ row: UnsafeMutablePointer<UInt32>) {
            if !opaque { AlphaConversion.premultiplyInPlace(row, count: width) }
            halving?.push(row: row)
        }
    }
}

extension JPEG {
    /// Decodes a JPEG halved as `halvings` asks: up to three halvings are libjpeg-turbo's DCT
    /// scaling (½, ¼, ⅛: the 8x8 blocks are decoded small, not decoded whole and reduced),
    /// further ones halve the ⅛ picture. The size equals `decode(_:limits:)` halved; the pixels
    /// are the DCT's own downscale, not a box filter of the whole.
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default, halvings: HalvingChoice)
        throws(ImageCodecError) -> ReducedPicture
    {
        var size: (width: Int, height: Int, halvings: Int) = (0, 0, 0)
        let scaled = try decode(
            bytes, limits: limits,
            dctHalvings: { width, height in
                let n = Halving.possibleCount(halvings(width, height), width: width, height: height)
                size = (width, height, n)
                return min(n, 3)
            })
        return ReducedPicture(
            pixels: scaled.halved(times: size.halvings - min(size.halvings, 3)),
            width: size.width, height: size.height, halvings: size.halvings)
    }
}
