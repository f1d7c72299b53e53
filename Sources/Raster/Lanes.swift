/// Four packed pixels at once: the scalar kernels (`lerpPixel`, `scalePixel`, source-over)
/// spread over SIMD lanes. A pixel's blue and red (or green and alpha) bytes sit in 16-bit
/// lanes, where every product and rounding term of those kernels fits without carry, so each
/// function here equals its scalar counterpart bit for bit. Only SSE2 (x86-64's baseline) or
/// NEON operations come out of them: masks, 16-bit multiplies and shifts, no shuffles.
/// Weights and scales are given in both halves of each 32-bit lane (`k &* 0x0001_0001`), the
/// factor of both channel lanes of that pixel.
@usableFromInline
enum Lanes {
    @usableFromInline typealias Pixels = SIMD4<UInt32>

    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<UInt32>) -> Pixels {
        UnsafeRawPointer(p).loadUnaligned(as: Pixels.self)
    }

    @inlinable @inline(__always)
    static func load(_ p: UnsafeMutablePointer<UInt32>) -> Pixels { load(UnsafePointer(p)) }

    @inlinable @inline(__always)
    static func store(_ v: Pixels, to p: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Pixels.self)
    }

    /// Blue-red and green-alpha bytes, each in a 16-bit lane.
    @inlinable @inline(__always)
    static func split(_ p: Pixels) -> (rb: SIMD8<UInt16>, ag: SIMD8<UInt16>) {
        let m = Pixels(repeating: 0x00FF_00FF)
        return (unsafeBitCast(p & m, to: SIMD8<UInt16>.self), unsafeBitCast((p &>> 8) & m, to: SIMD8<UInt16>.self))
    }

    /// `lerpPixel(a, b, w)` for four pixels; `w` is 0...256 per pixel.
    @inlinable @inline(__always)
    static func lerp(_ a: Pixels, _ b: Pixels, _ w: Pixels) -> Pixels {
        let weight = unsafeBitCast(w, to: SIMD8<UInt16>.self)
        let inverse = SIMD8<UInt16>(repeating: 256) &- weight
        let half = SIMD8<UInt16>(repeating: 0x80)
        let (arb, aag) = split(a), (brb, bag) = split(b)
        let rb = (arb &* inverse &+ brb &* weight &+ half) &>> 8
        let ag = (aag &* inverse &+ bag &* weight &+ half) & SIMD8<UInt16>(repeating: 0xFF00)
        return unsafeBitCast(rb | ag, to: Pixels.self)
    }

    /// `scalePixel(p, by: k)` for four pixels; `k` is 0...255 per pixel.
    @inlinable @inline(__always)
    static func scale(_ p: Pixels, by k: Pixels) -> Pixels {
        let factor = unsafeBitCast(k, to: SIMD8<UInt16>.self)
        let half = SIMD8<UInt16>(repeating: 0x80)
        let (prb, pag) = split(p)
        let rb = prb &* factor &+ half, ag = pag &* factor &+ half
        let lowHalves = (rb &+ (rb &>> 8)) &>> 8
        let highHalves = (ag &+ (ag &>> 8)) & SIMD8<UInt16>(repeating: 0xFF00)
        return unsafeBitCast(lowHalves | highHalves, to: Pixels.self)
    }

    /// Premultiplied `source` over `destination` (`sourceOver`), four pixels.
    @inlinable @inline(__always)
    static func over(_ source: Pixels, _ destination: Pixels) -> Pixels {
        let k = Pixels(repeating: 255) &- (source &>> 24)
        return source &+ scale(destination, by: k | (k &<< 16))
    }

    /// `colour` (four copies of one pixel) scaled by four coverage bytes (`bytes`, the first
    /// pixel's in the low byte) and composited over the four pixels at `dst`.
    @inlinable @inline(__always)
    static func blend(_ colour: Pixels, coverage bytes: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        let k = Pixels(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD4<UInt8>.self))
        store(over(scale(colour, by: k | (k &<< 16)), load(dst)), to: dst)
    }

    /// `blend` of an opaque `colour`: the scaled colour's alpha is then the coverage itself
    /// (255 · k / 255 is exact), so the destination's factor 255 − k comes straight from the
    /// coverage lanes instead of from the product's alpha bytes.
    @inlinable @inline(__always)
    static func blendOpaque(_ colour: Pixels, coverage bytes: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        let k = Pixels(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD4<UInt8>.self))
        let factor = k | (k &<< 16)
        let source = scale(colour, by: factor)
        store(source &+ scale(load(dst), by: Pixels(repeating: 0x00FF_00FF) &- factor), to: dst)
    }

    /// Whether all four pixels have alpha 255.
    @inlinable @inline(__always)
    static func isOpaque(_ p: Pixels) -> Bool {
        let alpha = Pixels(repeating: 0xFF00_0000)
        return all(p & alpha .== alpha)
    }
}
