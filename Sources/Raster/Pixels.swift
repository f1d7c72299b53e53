import Geometry

/// A straight (non-premultiplied) sRGB colour with 8-bit channels, as apps and specs write it.
@frozen
public struct Color: Hashable, Sendable {
    /// The red channel, 0 to 255, not premultiplied by alpha.
    public var red: UInt8
    /// The green channel, 0 to 255, not premultiplied by alpha.
    public var green: UInt8
    /// The blue channel, 0 to 255, not premultiplied by alpha.
    public var blue: UInt8
    /// The opacity, from 0 (transparent) to 255 (opaque).
    public var alpha: UInt8
    /// Nonzero for a colour named by its role in a theme (the UI's `Color.primaryText`): the
    /// views' drawing puts the theme's colour for that role in its place, keeping this alpha
    /// as a fraction of the theme's. The channels hold the standard light theme's colour, what
    /// anything that does not know themes draws. 0 for a colour of its own.
    @usableFromInline package var role: UInt8
    /// A colour from its 8-bit channels; `alpha` defaults to 255 (opaque).
    @inlinable public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha; self.role = 0
    }
    /// A colour from `0xRRGGBB`, opaque unless `alpha` says otherwise.
    ///
    /// - Parameters:
    ///   - rgb: Red, green and blue, 8 bits each, in the low 24 bits (`0xRRGGBB`); higher bits
    ///     are ignored.
    ///   - alpha: The opacity, from 0 (transparent) to 255 (opaque, the default).
    @inlinable public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }
    /// Alpha given as a fraction, rounded to 8 bits to nearest (0.35 → 89).
    ///
    /// - Parameters:
    ///   - rgb: Red, green and blue, 8 bits each, in the low 24 bits (`0xRRGGBB`).
    ///   - opacity: From 0 (transparent) to 1 (opaque); values outside are clamped and NaN is
    ///     transparent.
    @inlinable public init(rgb: UInt32, opacity: Double) {
        let a = (max(0, min(1, opacity.isNaN ? 0 : opacity)) * 255).rounded()
        self.init(rgb: rgb, alpha: UInt8(a))
    }
    /// Opaque black.
    public static let black = Color(rgb: 0x000000)
    /// Opaque white.
    public static let white = Color(rgb: 0xFFFFFF)
    /// Fully transparent (all four channels 0).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    @inlinable package var premultiplied: PremultipliedColor {
        let a = UInt32(alpha)
        return PremultipliedColor(
            argb: (a << 24) | (div255(UInt32(red) * a) << 16) | (div255(UInt32(green) * a) << 8) | div255(UInt32(blue) * a))
    }
}

/// A premultiplied colour packed as `0xAARRGGBB`, the in-memory layout of DRM's
/// ARGB8888/XRGB8888 on little-endian machines (bytes B, G, R, A/X).
@frozen
@usableFromInline package struct PremultipliedColor: Hashable, Sendable {
    @usableFromInline package var argb: UInt32
    @usableFromInline @inlinable package init(argb: UInt32) { self.argb = argb }
    @inlinable package var alpha: UInt32 { argb >> 24 }
    package static let transparent = PremultipliedColor(argb: 0)
    /// The premultiplied form of a straight colour.
    @inlinable package init(_ color: Color) { self = color.premultiplied }
    /// `0xRRGGBB` with an 8-bit alpha, premultiplied.
    @inlinable package init(rgb: UInt32, alpha: UInt8 = 255) { self = Color(rgb: rgb, alpha: alpha).premultiplied }
    /// `0xRRGGBB` with alpha given as a fraction (rounded to 8 bits to nearest: 0.35 → 89).
    @inlinable package init(rgb: UInt32, opacity: Double) { self = Color(rgb: rgb, opacity: opacity).premultiplied }
    /// This colour with all four channels scaled by `k`/255 (coverage or opacity).
    @inlinable package func scaled(by k: UInt8) -> PremultipliedColor {
        PremultipliedColor(argb: scalePixel(argb, by: UInt32(k)))
    }
}

/// Exact x/255 rounded to nearest for x in 0...65025 (integer, so bit-exact on every CPU).
@inlinable @inline(__always)
package func div255(_ x: UInt32) -> UInt32 { (x + 128 + ((x + 128) >> 8)) >> 8 }

/// Scales all four 8-bit channels of a packed pixel by `k`/255 (two channels per multiply).
@inlinable @inline(__always)
package func scalePixel(_ p: UInt32, by k: UInt32) -> UInt32 {
    var rb = (p & 0x00FF_00FF) &* k &+ 0x0080_0080
    rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var ag = ((p >> 8) & 0x00FF_00FF) &* k &+ 0x0080_0080
    ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
    return rb | ag
}

/// Source-over of premultiplied `src` onto premultiplied `dst`.
@inlinable @inline(__always)
package func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    let sa = src >> 24
    if sa == 255 { return src }
    if sa == 0 { return dst }
    return src &+ scalePixel(dst, by: 255 - sa)
}

/// A borrowed view of 32-bit pixels (`0xAARRGGBB` premultiplied, or XRGB with X ignored)
/// with a row stride in pixels. It does not own the memory: a DRM mapping, a PNG buffer or
/// a `PixelBuffer` lends it.
@frozen
package struct PixelSpan {
    package let base: UnsafeMutablePointer<UInt32>
    package let width: Int
    package let height: Int
    /// Distance between rows, in pixels (bytes / 4).
    package let stride: Int

    @inlinable package init(base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width)
        self.base = base; self.width = width; self.height = height; self.stride = stride
    }
    @inlinable package var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }
    @inlinable package func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { base + y * stride }
    @inlinable package subscript(x: Int, y: Int) -> UInt32 {
        get { precondition(x >= 0 && x < width && y >= 0 && y < height); return base[y * stride + x] }
        nonmutating set { precondition(x >= 0 && x < width && y >= 0 && y < height); base[y * stride + x] = newValue }
    }
}

/// An owned, heap-allocated pixel buffer. A class because it is shared and rotated
/// (shadow buffers, image caches) and identity is what callers want.
public final class PixelBuffer: @unchecked Sendable {
    /// The width, in pixels.
    public let width: Int
    /// The height, in pixels.
    public let height: Int
    package let stride: Int
    package let pixels: UnsafeMutablePointer<UInt32>

    package init(width: Int, height: Int, fill: PremultipliedColor = .transparent) {
        precondition(width >= 0 && height >= 0 && width <= 1 << 15 && height <= 1 << 15, "absurd buffer size")
        self.width = width; self.height = height; self.stride = width
        let count = max(1, width * height)
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: fill.argb, count: count)
    }
    deinit { pixels.deallocate() }

    /// A buffer of its own holding `source`'s pixels (a screenshot, a read-back scanout buffer).
    package convenience init(copying source: PixelSpan) {
        self.init(width: source.width, height: source.height)
        span.copy(from: source, sourceRect: source.bounds, toX: 0, y: 0)
    }

    package var span: PixelSpan { PixelSpan(base: pixels, width: width, height: height, stride: stride) }
    package var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }
    /// The pixel in column `x` of row `y` (from the top-left, zero-based) as premultiplied
    /// `0xAARRGGBB`; coordinates outside the buffer stop the program.
    public subscript(x: Int, y: Int) -> UInt32 {
        get { span[x, y] }
        set { span[x, y] = newValue }
    }
}

/// An 8-bit coverage mask (glyphs, cached corners). Row-major, `width` bytes per row.
package struct AlphaMask: Sendable {
    package let width: Int
    package let height: Int
    package var coverage: [UInt8]
    package init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(coverage.count == width * height)
        self.width = width; self.height = height; self.coverage = coverage
    }
    package init(width: Int, height: Int) {
        self.init(width: width, height: height, coverage: [UInt8](repeating: 0, count: width * height))
    }

    /// The mask reflected left to right.
    package var mirrored: AlphaMask {
        var flipped = coverage
        for y in 0..<height {
            for x in 0..<width { flipped[y * width + x] = coverage[y * width + width - 1 - x] }
        }
        return AlphaMask(width: width, height: height, coverage: flipped)
    }
}
