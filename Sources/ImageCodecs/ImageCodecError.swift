#if canImport(Glibc)
import Glibc
#endif

/// Why an image could not be read, decoded or encoded. Corrupt input always ends here,
/// never in a crash: the C libraries are driven only through their error-returning APIs
/// (libpng's simplified API, TurboJPEG).
package enum ImageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed: `operation` is the C function name (`open`, `read`, ...).
    case io(operation: String, path: String, errno: Int32)
    /// The file is larger than `limit` bytes; we refuse to read it into memory.
    case fileTooLarge(path: String, limit: Int)
    /// Only regular files are read; `found` says what the path is ("a FIFO", "a directory").
    case notARegularFile(path: String, found: String)
    /// The bytes start with neither the PNG nor the JPEG signature, nor are they SVG.
    case unknownFormat
    /// libpng refused the data; `message` is libpng's own text (e.g. "IDAT: CRC error").
    case invalidPNG(message: String)
    /// TurboJPEG refused the data (corrupt, truncated, unsupported colour space, ...).
    case invalidJPEG(message: String)
    /// librsvg refused the document (malformed XML, no size, an entity bomb, ...).
    case invalidSVG(message: String)
    /// An SVG would cost more to parse or draw than `DecodeLimits` allows (its entities expand
    /// too far, its filters would take too long); `reason` says which and by how much.
    case svgTooCostly(reason: String)
    /// The header announces more pixels than `DecodeLimits` allows; nothing was allocated.
    case dimensionsTooLarge(width: Int, height: Int)
    /// An image with no pixels cannot be encoded.
    case emptyImage
    /// libpng could not encode the pixels.
    case encodeFailed(message: String)

    package var description: String {
        switch self {
        case let .io(operation, path, code):
            return "\(operation)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .fileTooLarge(path, limit):
            return "\(path) is larger than the \(limit)-byte limit"
        case let .notARegularFile(path, found):
            return "\(path) is \(found), not a regular file"
        case .unknownFormat:
            return "not a PNG, JPEG or SVG file (unrecognised signature)"
        case let .invalidPNG(message):
            return "invalid PNG: \(message)"
        case let .invalidJPEG(message):
            return "invalid JPEG: \(message)"
        case let .invalidSVG(message):
            return "invalid SVG: \(message)"
        case let .svgTooCostly(reason):
            return "SVG refused: \(reason)"
        case let .dimensionsTooLarge(width, height):
            return "image of \(width)x\(height) pixels exceeds the decode limits"
        case .emptyImage:
            return "cannot encode an image with no pixels"
        case let .encodeFailed(message):
            return "PNG encoding failed: \(message)"
        }
    }
}

/// Upper bounds checked against an image's header before any pixel memory is allocated,
/// so that a 16-byte file announcing 60000x60000 pixels is refused instead of allocating 14 GB.
package struct DecodeLimits: Sendable, Hashable {
    package var maxWidth: Int
    package var maxHeight: Int
    package var maxPixelCount: Int
    /// Bytes an SVG's entity references may add to it in all: a picture's entities name a
    /// namespace or a colour, and 9 KB expanding to 6 MB of text took librsvg 2.2 GB.
    package var maxSVGEntityBytes = 1 << 16
    /// Steps an SVG's filter primitives may take at the size it is rendered at (one step: about
    /// a sample of a morphology kernel, 2-4 ns on a desktop core; 500 million: about a second).
    package var maxSVGFilterWork = 500_000_000
    package init(maxWidth: Int, maxHeight: Int, maxPixelCount: Int) {
        self.maxWidth = maxWidth; self.maxHeight = maxHeight; self.maxPixelCount = maxPixelCount
    }
    /// 16384 px per side and 40 Mpx (160 MB of pixels): large photos pass, absurd headers do not.
    package static let `default` = DecodeLimits(maxWidth: 16384, maxHeight: 16384, maxPixelCount: 40_000_000)

    /// The error for a header announcing `width` x `height`, or nil when it is acceptable.
    func violation(width: Int, height: Int) -> ImageCodecError? {
        guard width > 0, height > 0, width <= maxWidth, height <= maxHeight,
            width.multipliedReportingOverflow(by: height).partialValue <= maxPixelCount,
            width <= 1 << 15, height <= 1 << 15  // PixelBuffer's own bound
        else { return .dimensionsTooLarge(width: width, height: height) }
        return nil
    }
}
