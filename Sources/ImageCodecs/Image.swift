import Raster

/// Format-agnostic entry points: the format is taken from the file's signature, never
/// from its name.
package enum Image {
    package enum Format: Sendable, Hashable {
        case png, jpeg, svg
        /// The format whose signature `bytes` start with, or nil.
        package init?(sniffing bytes: [UInt8]) {
            if bytes.starts(with: PNG.signature) {
                self = .png
            } else if bytes.starts(with: JPEG.signature) {
                self = .jpeg
            } else if SVG.looksLikeSVG(bytes) {
                self = .svg
            } else {
                return nil
            }
        }
    }

    /// Decodes PNG or JPEG bytes, or renders SVG at its own size, into premultiplied pixels.
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        switch Format(sniffing: bytes) {
        case .png: return try PNG.decode(bytes, limits: limits)
        case .jpeg: return try JPEG.decode(bytes, limits: limits)
        case .svg: return try SVG.decode(bytes, limits: limits)
        case nil: throw .unknownFormat
        }
    }

    /// Reads a PNG, JPEG or SVG file into premultiplied pixels.
    package static func read(path: String, limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(FileIO.readAll(path: path), limits: limits)
    }
}

extension PixelBuffer {
    /// Reads the PNG, JPEG or SVG file at `path` (the format is sniffed from its first bytes) into
    /// pixels a custom view draws with `DrawContext.draw(_:in:)`. Throws a readable error for
    /// a missing, unreadable, corrupt or absurdly large file.
    ///
    /// - Parameter path: The file, absolute or relative to the working directory.
    /// - Returns: The picture at its own size.
    /// - Throws: `ImageCodecError` naming the file and what is wrong with it.
    public static func read(path: String) throws -> PixelBuffer {
        try Image.read(path: path)
    }
}
