import CPNG
import Raster

/// PNG through libpng's simplified API (`png_image_*`), which reports errors by return value
/// and message instead of longjmp, so nothing ever unwinds through Swift frames.
/// Files hold straight alpha; `PixelBuffer`s hold premultiplied 0xAARRGGBB; the conversion
/// lives only in `AlphaConversion`.
package enum PNG {
    /// The 8-byte PNG signature.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `buffer` as an 8-bit RGBA PNG (`.premultiplied`) or RGB PNG (`.opaque`, for
    /// XRGB frames whose top byte is undefined). `fast` favours speed over size (libpng's
    /// PNG_IMAGE_FLAG_FAST), for screenshots served while the app runs.
    /// The corresponding C function is `png_image_write_to_memory`.
    package static func encode(_ buffer: PixelBuffer, alpha: SourceAlpha = .premultiplied, fast: Bool = false)
        throws(ImageCodecError) -> [UInt8]
    {
        try withExtendedLifetime(buffer) { () throws(ImageCodecError) -> [UInt8] in
            try encode(buffer.span, alpha: alpha, fast: fast)
        }
    }

    /// Encodes the pixels of a borrowed span (any stride).
    package static func encode(_ span: PixelSpan, alpha: SourceAlpha = .premultiplied, fast: Bool = false)
        throws(ImageCodecError) -> [UInt8]
    {
        guard span.width > 0, span.height > 0 else { throw .emptyImage }
        let channels = alpha == .opaque ? 3 : 4
        let rowBytes = span.width * channels
        let straight = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * span.height, alignment: 4)
        defer { straight.deallocate() }
        switch alpha {
        case .premultiplied:
            AlphaConversion.unpremultiply(span, into: straight.assumingMemoryBound(to: UInt32.self))
        case .opaque:
            AlphaConversion.dropAlpha(span, into: straight.assumingMemoryBound(to: UInt8.self))
        }

        var image = png_image()
        image.version = CPNG_IMAGE_VERSION
        image.width = png_uint_32(span.width)
        image.height = png_uint_32(span.height)
        image.format = alpha == .opaque ? CPNG_FORMAT_BGR : CPNG_FORMAT_BGRA
        if fast { image.flags |= png_uint_32(PNG_IMAGE_FLAG_FAST) }
        var capacity = cpng_image_png_size_max(&image)
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let ok = output.withUnsafeMutableBytes { out in
            // row_stride counts components (bytes here), not pixels.
            png_image_write_to_memory(&image, out.baseAddress, &capacity, 0, straight, png_int_32(rowBytes), nil)
        }
        guard ok != 0 else {
            let message = messageOf(&image)
            png_image_free(&image)
            throw .encodeFailed(message: message)
        }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// Decodes any PNG (palette, grey, 16-bit, interlaced, tRNS, gamma) into premultiplied
    /// pixels. Truncated or corrupt data throws `.invalidPNG` with libpng's message; a header
    /// beyond `limits` throws `.dimensionsTooLarge` before any pixel memory is allocated.
    /// The corresponding C functions are `png_image_begin_read_from_memory` and `png_image_finish_read`.
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try checkSignature(bytes)
        // libpng keeps reading from `raw` until png_image_finish_read, so both calls stay in
        // one closure that borrows the bytes.
        let result = bytes.withUnsafeBytes { raw -> Result<PixelBuffer, ImageCodecError> in
            var image = png_image()
            image.version = CPNG_IMAGE_VERSION
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                let message = messageOf(&image)
                png_image_free(&image)
                return .failure(.invalidPNG(message: message))
            }
            let width = Int(image.width), height = Int(image.height)
            if let violation = limits.violation(width: width, height: height) {
                png_image_free(&image)
                return .failure(violation)
            }
            image.format = CPNG_FORMAT_BGRA
            let buffer = PixelBuffer(width: width, height: height)
            // png_image_finish_read frees the control structure whether it succeeds or fails.
            guard png_image_finish_read(&image, nil, buffer.pixels, png_int_32(width * 4), nil) != 0 else {
                return .failure(.invalidPNG(message: messageOf(&image)))
            }
            return .success(buffer)
        }
        let buffer = try result.get()
        AlphaConversion.premultiplyInPlace(buffer.pixels, count: buffer.width * buffer.height)
        return buffer
    }

    static func checkSignature(_ bytes: [UInt8]) throws(ImageCodecError) {
        guard bytes.starts(with: signature) else {
            throw .invalidPNG(message: bytes.count < signature.count ? "file too short for a PNG signature" : "missing PNG signature")
        }
    }

    /// Encodes and writes atomically (temporary file + rename).
    package static func write(_ buffer: PixelBuffer, to path: String, alpha: SourceAlpha = .premultiplied) throws(ImageCodecError) {
        try FileIO.writeAll(encode(buffer, alpha: alpha), path: path)
    }

    /// Reads and decodes a PNG file.
    package static func read(path: String, limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(FileIO.readAll(path: path), limits: limits)
    }

    private static func messageOf(_ image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw -> String in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return describe(libpngMessage: text)
    }

    static func describe(libpngMessage text: String) -> String {
        if text.isEmpty { return "libpng reported failure without a message" }
        // libpng's words for running out of input; say what it means for a file.
        return text == "read beyond end of data" ? "data ends early (truncated file): " + text : text
    }
}
