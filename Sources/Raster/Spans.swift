import Geometry
import CLinux

// Span compositing: the inner loops. Everything here works on raw row pointers handed out by
// `PixelSpan`, one colour per call (dispatch per span, never per pixel), integer premultiplied
// math only, so results are bit-exact on every CPU.

/// Source-over of one colour over `count` pixels at full coverage. An opaque colour is a
/// store (`storeSpan`: `wmemset`, which libc runs at the CPU's widest stores, AVX-512 on the
/// benchmark machine, where Glide's own loops are limited to x86-64's SSE2).
@inlinable
package func fillSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: PremultipliedColor) {
    guard count > 0 else { return }
    let c = color.argb
    let sa = c >> 24
    if sa == 255 { return storeSpan(dst, count: count, color: c) }
    if c == 0 { return }
    let inverse = 255 &- sa
    // Translucent overlays (dimming, scroll indicators, page-control capsules) four at a time.
    let colour = Lanes.Pixels(repeating: c), factor = Lanes.Pixels(repeating: inverse | inverse &<< 16)
    var i = 0
    while i &+ 4 <= count {
        Lanes.store(colour &+ Lanes.scale(Lanes.load(dst + i), by: factor), to: dst + i)
        i &+= 4
    }
    while i < count { dst[i] = c &+ scalePixel(dst[i], by: inverse); i &+= 1 }
}

/// Sets `count` pixels to `color` (a copy, whatever its alpha).
@inlinable @inline(__always)
package func storeSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32) {
    // Short spans (edges of shapes) are cheaper inline than through a call.
    #if arch(arm64)
    // glibc's wmemset is a scalar C loop on aarch64 (1.5 instructions a pixel, where x86_64 gets
    // SIMD versions): 128-bit stores, 32 pixels a round (the stores pair up, four `stp`s and the
    // loop's three instructions), then four at a time, and the last one to three pixels by one
    // store over the span's last four, which rewrites pixels already set instead of looping.
    if count >= 4 {
        let four = SIMD4<UInt32>(repeating: color), raw = UnsafeMutableRawPointer(dst)
        let bytes = count &* 4
        var offset = 0
        while offset &+ 128 <= bytes {
            for k in 0..<8 { raw.storeBytes(of: four, toByteOffset: offset &+ k &* 16, as: SIMD4<UInt32>.self) }
            offset &+= 128
        }
        while offset &+ 16 <= bytes {
            raw.storeBytes(of: four, toByteOffset: offset, as: SIMD4<UInt32>.self)
            offset &+= 16
        }
        if offset < bytes { raw.storeBytes(of: four, toByteOffset: bytes &- 16, as: SIMD4<UInt32>.self) }
        return
    }
    #else
    if count >= 16 && MemoryLayout<wchar_t>.size == 4 {
        dst.withMemoryRebound(to: wchar_t.self, capacity: count) { _ = wmemset($0, wchar_t(truncatingIfNeeded: color), count) }
        return
    }
    #endif
    if count > 0 { dst.update(repeating: color, count: count) }
}

/// Source-over of one colour through an 8-bit coverage run: pixel `i` gets the colour scaled by
/// `coverage[i]`/255. Coverage 0 leaves a pixel untouched; 255 with an opaque colour stores.
@inlinable
package func blendSpan(
    _ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int,
    color: PremultipliedColor
) {
    blendSpan(dst, coverage: coverage, count: count, color: color, writable: count)
}

/// `blendSpan(_:coverage:count:color:)` for a caller that owns `writable` (≥ `count`) pixels
/// from `dst` on: where they reach the next multiple of four, the last partial group is blended
/// four at a time with zero coverage in its extra lanes, which leaves those pixels exactly as
/// they were, instead of pixel by pixel: glyph rows are narrow, so most of them end in a
/// partial group. Only `coverage[0..<count]` is read.
@inlinable
package func blendSpan(
    _ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int,
    color: PremultipliedColor, writable: Int
) {
    blendRows(dst, stride: 0, coverage: coverage, coverageStride: 0, count: count, rows: 1, color: color, writable: writable)
}

/// `blendSpan` over the `rows` rows of a coverage mask (a glyph) in one call, so that what
/// does not change from row to row is set up once: row `r` blends `coverage + r ×
/// coverageStride` into `dst + r × stride`, `writable` pixels writable in each.
@inlinable
package func blendRows(
    _ dst: UnsafeMutablePointer<UInt32>, stride: Int, coverage: UnsafePointer<UInt8>, coverageStride: Int,
    count: Int, rows: Int, color: PremultipliedColor, writable: Int
) {
    let c = color.argb, colour = Lanes.Pixels(repeating: c)
    // A loop for each opacity, chosen once for all the rows, so that no group of four tests it.
    @inline(__always) func blend(opaque: Bool) {
        for r in 0..<rows {
            blendGroups(
                dst + r &* stride, coverage: coverage + r &* coverageStride, count: count, color: c, colour: colour,
                writable: writable, opaque: opaque)
        }
    }
    if c >> 24 == 255 { blend(opaque: true) } else { blend(opaque: false) }
}

@inlinable @inline(__always)
func blendGroups(
    _ dst: UnsafeMutablePointer<UInt32>, coverage: UnsafePointer<UInt8>, count: Int,
    color c: UInt32, colour: Lanes.Pixels, writable: Int, opaque: Bool
) {
    // Four pixels at a time and without a branch per pixel (coverage of glyphs and edges is
    // unpredictable): s = colour × coverage, dst = s + dst × (255 - alpha(s)). Coverage 0
    // leaves dst exact (scaling by 255 is the identity) and 255 of an opaque colour stores
    // it, so this is the branchy per-pixel source-over bit for bit. Runs of four empty or
    // four full bytes, common inside glyphs and shapes, skip the arithmetic.
    @inline(__always) func blend(_ bytes: UInt32, at i: Int) {
        if opaque { Lanes.blendOpaque(colour, coverage: bytes, into: dst + i) } else { Lanes.blend(colour, coverage: bytes, into: dst + i) }
    }
    var i = 0
    while i &+ 4 <= count {
        let bytes = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt32.self)
        if bytes == 0 { i &+= 4; continue }
        if opaque && bytes == 0xFFFF_FFFF {
            Lanes.store(colour, to: dst + i)
        } else {
            blend(bytes, at: i)
        }
        i &+= 4
    }
    let rest = count &- i
    guard rest > 0 else { return }
    if i &+ 4 <= writable {
        var bytes = UInt32(coverage[i])
        if rest > 1 { bytes |= UInt32(coverage[i &+ 1]) &<< 8 }
        if rest > 2 { bytes |= UInt32(coverage[i &+ 2]) &<< 16 }
        if bytes != 0 { blend(bytes, at: i) }
        return
    }
    while i < count {
        let s = scalePixel(c, by: UInt32(coverage[i]))
        dst[i] = s &+ scalePixel(dst[i], by: 255 &- (s >> 24))
        i &+= 1
    }
}

/// Linear interpolation of two packed premultiplied pixels, `w` in 0...256 (weight of `b`),
/// rounded to nearest, two channels per multiply. Convex, so the result stays premultiplied.
@inlinable @inline(__always)
package func lerpPixel(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let iw = 256 &- w
    let mask: UInt32 = 0x00FF_00FF, half: UInt32 = 0x0080_0080
    let rbSum: UInt32 = (a & mask) &* iw &+ (b & mask) &* w &+ half
    let agSum: UInt32 = ((a >> 8) & mask) &* iw &+ ((b >> 8) & mask) &* w &+ half
    let rb = (rbSum >> 8) & mask
    let ag = agSum & 0xFF00_FF00
    return rb | ag
}

extension PixelSpan {
    /// Moves the pixels of `rect` by (`dx`, `dy`) within this span (a scroll blit), with
    /// memmove semantics: source and destination may overlap. The destination is clipped to
    /// `clip` and to the span; pixels whose source lies outside the span are not written.
    package func move(_ rect: IntRect, dx: Int, dy: Int, clip: IntRect? = nil) {
        let source = rect.intersection(bounds)
        var destination = IntRect(x: source.x + dx, y: source.y + dy, width: source.width, height: source.height)
            .intersection(bounds)
        if let clip { destination = destination.intersection(clip) }
        guard !destination.isEmpty, dx != 0 || dy != 0 else { return }
        let byteCount = destination.width * 4
        func copyRow(_ y: Int) {
            let to = UnsafeMutableRawPointer(row(y) + destination.x)
            let from = UnsafeRawPointer(row(y - dy) + destination.x - dx)
            to.copyMemory(from: from, byteCount: byteCount)  // memmove
        }
        if dy > 0 {
            var y = destination.maxY - 1
            while y >= destination.y { copyRow(y); y -= 1 }
        } else {
            for y in destination.y..<destination.maxY { copyRow(y) }
        }
    }

    /// Copies `sourceRect` of `source` so that its top-left lands at (`x`, `y`) in this span.
    /// Both rectangles are clipped (to `source` and to this span); the spans must not overlap
    /// in memory (use `move` within one span).
    package func copy(from source: PixelSpan, sourceRect: IntRect, toX x: Int, y: Int) {
        let s = sourceRect.intersection(source.bounds)
        let d = IntRect(x: x + (s.x - sourceRect.x), y: y + (s.y - sourceRect.y), width: s.width, height: s.height)
            .intersection(bounds)
        guard !d.isEmpty else { return }
        let sx = d.x - x + sourceRect.x, sy = d.y - y + sourceRect.y
        for row in 0..<d.height {
            (self.row(d.y + row) + d.x).update(from: source.row(sy + row) + sx, count: d.width)
        }
    }
}
