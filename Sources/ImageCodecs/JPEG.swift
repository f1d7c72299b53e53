import CJPEG
import Raster

/// JPEG decoding through libjpeg-turbo's TurboJPEG API (`tj*`), which returns -1 and a
/// message on failure instead of longjmp-ing through Swift.
public enum JPEG {
    /// Every JPEG starts with SOI (FF D8) followed by another marker (FF).
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Decodes a baseline or progressive JPEG (grey, YCbCr) into opaque pixels (alpha 255).
    /// Corrupt or truncated data throws `.invalidJPEG`: libjpeg's recoverable warnings such as
    /// "Premature end of JPEG file" count as errors (TJFLAG_STOPONWARNING), so a half-grey
    /// truncated photo is never shown as if it were fine. EXIF orientation is not applied.
    /// The corresponding C functions are `tjDecompressHeader3` and `tjDecompress2`.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(bytes, limits: limits) { _, _ in 0 }
    }

    /// Decodes with the DCT scaled by ½ to the power `dctHalvings` gives for the picture's
    /// size (0 to 3): the size is the whole one halved that often, rounded up.
    static func decode(_ bytes: [UInt8], limits: DecodeLimits, dctHalvings: (_ width: Int, _ height: Int) -> Int)
        throws(ImageCodecError) -> PixelBuffer {
        guard bytes.count >= signature.count, bytes.prefix(signature.count).elementsEqual(signature) else {
            throw .invalidJPEG(message: "missing JPEG signature (FF D8 FF)")
        }
        guard let handle = tjInitDecompress() else {
            throw .invalidJPEG(message: "tjInitDecompress failed: " + String(cString: tjGetErrorStr2(nil)))
        }
        defer { tjDestroy(handle) }
        let result = bytes.withUnsafeBufferPointer { raw -> Result<PixelBuffer, ImageCodecError> in
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, raw.baseAddress, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0 else {
                return .failure(.invalidJPEG(message: String(cString: tjGetErrorStr2(handle))))
            }
            guard width > 0, height > 0 else {
                return .failure(.invalidJPEG(message: "no image size before the data ends (truncated file?)"))
            }
            if let violation = limits.violation(width: Int(width), height: Int(height)) {
                return .failure(violation)
            }
            // TJSCALED rounds up, as a halving does; TurboJPEG picks the largest scaling
            // factor that fits the size asked for, which is ½ to that power.
            let k = Int32(max(0, min(3, dctHalvings(Int(width), Int(height)))))
            let w = (width + (1 << k) - 1) >> k, h = (height + (1 << k) - 1) >> k
            let buffer = PixelBuffer(width: Int(w), height: Int(h))
            let status = buffer.pixels.withMemoryRebound(to: UInt8.self, capacity: buffer.width * buffer.height * 4) { out in
                tjDecompress2(handle, raw.baseAddress, UInt(raw.count), out, w, w * 4, h,
                              Int32(TJPF_BGRA.rawValue), TJFLAG_STOPONWARNING)
            }
            guard status == 0 else {
                return .failure(.invalidJPEG(message: String(cString: tjGetErrorStr2(handle))))
            }
            return .success(buffer)
        }
        return try result.get()
    }

    /// Reads and decodes a JPEG file.
    public static func read(path: String, limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(FileIO.readAll(path: path), limits: limits)
    }
}
