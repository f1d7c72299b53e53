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
        return source &+ scale(destination, by: halves(Pixels(repeating: 255) &- (source &>> 24)))
    }

    /// `colour` (four copies of one pixel) scaled by four coverage bytes (`bytes`, the first
    /// pixel's in the low byte) and composited over the four pixels at `dst`.
    @inlinable @inline(__always)
    static func blend(_ colour: Pixels, coverage bytes: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        store(over(scale(colour, by: factors(coverage: bytes)), load(dst)), to: dst)
    }

    /// `blend` of an opaque `colour`: the scaled colour's alpha is then the coverage itself
    /// (255 · k / 255 is exact), so the destination's factor 255 − k comes straight from the
    /// coverage lanes instead of from the product's alpha bytes.
    @inlinable @inline(__always)
    static func blendOpaque(_ colour: Pixels, coverage bytes: UInt32, into dst: UnsafeMutablePointer<UInt32>) {
        let factor = factors(coverage: bytes)
        let source = scale(colour, by: factor)
        store(source &+ scale(load(dst), by: Pixels(repeating: 0x00FF_00FF) &- factor), to: dst)
    }

    /// Each pixel's coverage byte from `bytes` (the first pixel's lowest) as its factor.
    @inlinable @inline(__always)
    static func factors(coverage bytes: UInt32) -> Pixels {
        #if arch(arm64)
        // Each lane moves its own byte to the top and back down (`ushl`, `and`). The conversion
        // below becomes a byte-by-byte move through general registers on aarch64 (13
        // instructions for four pixels, a third of a glyph's blend).
        return halves((Pixels(repeating: bytes) &* Pixels(1 << 24, 1 << 16, 1 << 8, 1)) &>> 24)
        #else
        return halves(Pixels(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD4<UInt8>.self)))
        #endif
    }

    /// Each pixel's factor `k` (0...256) in both 16-bit halves of its lane.
    @inlinable @inline(__always)
    static func halves(_ k: Pixels) -> Pixels {
        #if arch(arm64)
        // One multiply, where the shift and or become element moves on aarch64.
        return k &* 0x0001_0001
        #else
        // SSE2 has no 32-bit multiply.
        return k | (k &<< 16)
        #endif
    }

    /// Whether all four pixels have alpha 255.
    @inlinable @inline(__always)
    static func isOpaque(_ p: Pixels) -> Bool {
        let alpha = Pixels(repeating: 0xFF00_0000)
        return all(p & alpha .== alpha)
    }
}
