import CJPEG
import Raster

/// JPEG decoding through libjpeg-turbo's TurboJPEG API (`tj*`), which returns -1 and a
/// message on failure instead of longjmp-ing through Swift.
package enum JPEG {
    /// Every JPEG starts with SOI (FF D8) followed by another marker (FF).
    package static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Decodes a baseline or progressive JPEG (grey, YCbCr, CMYK or YCCK) into opaque pixels.
    /// Corrupt or truncated data throws `.invalidJPEG`: libjpeg's recoverable warnings such as
    /// "Premature end of JPEG file" count as errors (TJFLAG_STOPONWARNING), so a half-grey
    /// truncated photo is never shown as if it were fine. EXIF orientation is not applied.
    /// The corresponding C functions are `tjDecompressHeader3` and `tjDecompress2`.
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(bytes, limits: limits) { _, _ in 0 }
    }

    /// Decodes with the DCT scaled by ½ to the power `dctHalvings` gives for the picture's
    /// size (0 to 3): the size is the whole one halved that often, rounded up.
    static func decode(_ bytes: [UInt8], limits: DecodeLimits, dctHalvings: (_ width: Int, _ height: Int) -> Int)
        throws(ImageCodecError) -> PixelBuffer
    {
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
            // Print workflows store CMYK (or YCCK): decoded as such and turned into RGB here,
            // since TurboJPEG converts only between its RGB and grey formats.
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let format = cmyk ? TJPF_CMYK : TJPF_BGRA
            let count = buffer.width * buffer.height
            let status = buffer.pixels.withMemoryRebound(to: UInt8.self, capacity: count * 4) { out in
                // LIMITSCANS: a progressive JPEG with an absurd number of scans is refused
                // rather than decoded many times over.
                tjDecompress2(
                    handle, raw.baseAddress, UInt(raw.count), out, w, w * 4, h,
                    Int32(format.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
            }
            guard status == 0 else {
                return .failure(.invalidJPEG(message: String(cString: tjGetErrorStr2(handle))))
            }
            if cmyk { convertInvertedCMYK(buffer.pixels, count: count) }
            return .success(buffer)
        }
        return try result.get()
    }

    /// CMYK bytes as Adobe's applications store them (inverted: 255 is no ink) to opaque XRGB in
    /// place: each channel is what its ink and the black leave of white. No colour management:
    /// close to what a browser shows for a CMYK JPEG without a profile.
    static func convertInvertedCMYK(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        pixels.withMemoryRebound(to: UInt8.self, capacity: count * 4) { bytes in
            for i in 0..<count {
                let p = bytes + 4 * i
                let c = UInt32(p[0]), m = UInt32(p[1]), y = UInt32(p[2]), k = UInt32(p[3])
                // XRGB8888 is B, G, R, X in memory.
                p[0] = UInt8(div255(y * k)); p[1] = UInt8(div255(m * k)); p[2] = UInt8(div255(c * k)); p[3] = 255
            }
        }
    }

    /// Reads and decodes a JPEG file.
    package static func read(path: String, limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(FileIO.readAll(path: path), limits: limits)
    }
}
