import Geometry

extension PixelBuffer {
    /// A copy at half the size (rounded up), each pixel the rounded average of a 2x2 block
    /// (edge pixels repeat for odd sizes). Bilinear drawing aliases when reducing below ½;
    /// draw a halved copy instead (halve repeatedly for stronger reductions, and cache the
    /// levels with the image: halving reads every source pixel).
    package func halved() -> PixelBuffer {
        let w = (width + 1) / 2, h = (height + 1) / 2
        let out = PixelBuffer(width: w, height: h)
        guard width > 0, height > 0 else { return out }
        for y in 0..<h {
            Halving.averageRows(
                pixels + min(2 * y, height - 1) * stride, pixels + min(2 * y + 1, height - 1) * stride,
                width: width, into: out.pixels + y * out.stride)
        }
        return out
    }

    /// Halved `times` times, as long as both sides have a half to take.
    package func halved(times: Int) -> PixelBuffer {
        var level = self
        for _ in 0..<Halving.possibleCount(times, width: width, height: height) { level = level.halved() }
        return level
    }
}

/// A picture decoded at a reduced size: `pixels` are the whole `width` x `height` picture
/// halved `halvings` times (a decoder that reduces as it decodes never holds the whole).
package struct ReducedPicture: Sendable {
    package var pixels: PixelBuffer
    package var width: Int
    package var height: Int
    /// Negative for a vector picture rendered larger than its own size (for a zoom).
    package var halvings: Int
    /// The most negative `halvings` its decoder can give: 0 for a bitmap, below for a vector
    /// picture that can be rendered larger than its own size.
    package var finest: Int

    package init(pixels: PixelBuffer, width: Int, height: Int, halvings: Int, finest: Int = 0) {
        self.pixels = pixels; self.width = width; self.height = height; self.halvings = halvings; self.finest = finest
    }

    /// The whole picture halved as often as `halvings` asks for its size (and it has halves
    /// to take): what a decoder that cannot reduce as it decodes gives.
    package init(whole: PixelBuffer, halvings: (_ width: Int, _ height: Int) -> Int) {
        let n = Halving.possibleCount(halvings(whole.width, whole.height), width: whole.width, height: whole.height)
        self.init(pixels: whole.halved(times: n), width: whole.width, height: whole.height, halvings: n)
    }
}

/// Halves a picture `times` times as its rows arrive (a PNG as it decodes), holding one row per
/// level instead of the whole picture; the result is `halved(times:)` of the whole, bit for bit.
package final class Halving {
    /// The halved picture, complete once every source row was given and `finish()` called.
    package let output: PixelBuffer
    package let times: Int
    /// Row widths per level (level 0: the source), and a row waiting for its pair per level.
    private let widths: [Int]
    private let pending: UnsafeMutablePointer<UInt32>
    private let pendingOffsets: [Int]
    private var hasPending: [Bool]
    private var outputRow = 0
    private var finished = false

    /// Halving a `width` x `height` picture up to `times` times (as often as both sides have a
    /// half to take).
    package init(width: Int, height: Int, times: Int) {
        self.times = Self.possibleCount(times, width: width, height: height)
        var widths = [width], heights = [height]
        for _ in 0..<self.times { widths.append((widths.last! + 1) / 2); heights.append((heights.last! + 1) / 2) }
        self.widths = widths
        output = PixelBuffer(width: widths.last!, height: heights.last!)
        var offsets: [Int] = [], total = 0
        for level in 0..<self.times { offsets.append(total); total += widths[level] }
        pendingOffsets = offsets
        pending = .allocate(capacity: max(1, total))
        hasPending = Array(repeating: false, count: self.times)
    }
    deinit { pending.deallocate() }

    /// How many of `times` halvings a `width` x `height` picture has a half to take for.
    package static func possibleCount(_ times: Int, width: Int, height: Int) -> Int {
        var (w, h, n) = (width, height, 0)
        while n < times && w >= 2 && h >= 2 { w = (w + 1) / 2; h = (h + 1) / 2; n += 1 }
        return n
    }

    /// The next source row, `widths[0]` premultiplied pixels.
    package func push(row: UnsafePointer<UInt32>) { push(row, level: 0) }

    /// Pairs a picture's odd last row with itself on each level, as `halved()` does.
    package func finish() {
        guard !finished else { return }
        finished = true
        for level in 0..<times where hasPending[level] {
            let row = pending + pendingOffsets[level]
            hasPending[level] = false
            pair(row, row, level: level)
        }
    }

    private func push(_ row: UnsafePointer<UInt32>, level: Int) {
        if level == times {
            guard outputRow < output.height else { return }
            (output.pixels + outputRow * output.stride).update(from: row, count: output.width)
            outputRow += 1
            return
        }
        let held = pending + pendingOffsets[level]
        if hasPending[level] {
            hasPending[level] = false
            pair(held, row, level: level)
        } else {
            held.update(from: row, count: widths[level])
            hasPending[level] = true
        }
    }

    /// Averages two rows of `level` into a row of the next, written in place of the first
    /// (its pixels are read before they are overwritten) and passed on.
    private func pair(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafePointer<UInt32>, level: Int) {
        Self.averageRows(first, second, width: widths[level], into: first)
        push(first, level: level + 1)
    }

    /// One row of a halving: each pixel the rounded average of a 2x2 block of `r0` and `r1`
    /// (`width` pixels each; an odd last column repeats). `out` may be `r0`: output pixel x
    /// is written after source pixels 2x and 2x+1 were read. The pairs are a loop of its own,
    /// without the odd column's bound, so the optimiser runs it in vector lanes (four output
    /// pixels a step, the even and odd pixels parted by shuffles; checked with
    /// `swiftc -O -emit-assembly`); where `out` is `r0` it takes its scalar form.
    @inline(__always)
    package static func averageRows(
        _ r0: UnsafePointer<UInt32>, _ r1: UnsafePointer<UInt32>, width: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        let pairs = width / 2
        for x in 0..<pairs {
            out[x] = average(r0[2 &* x], r0[2 &* x &+ 1], r1[2 &* x], r1[2 &* x &+ 1])
        }
        if width & 1 == 1 {
            let last = width - 1
            out[pairs] = average(r0[last], r0[last], r1[last], r1[last])
        }
    }

    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        // Two channels per add: each 16-bit lane sums four 8-bit values (≤ 1020).
        let rb = ((a & 0x00FF_00FF) &+ (b & 0x00FF_00FF) &+ (c & 0x00FF_00FF) &+ (d & 0x00FF_00FF) &+ 0x0002_0002) >> 2
        let ag =
            (((a >> 8) & 0x00FF_00FF) &+ ((b >> 8) & 0x00FF_00FF) &+ ((c >> 8) & 0x00FF_00FF)
                &+ ((d >> 8) & 0x00FF_00FF) &+ 0x0002_0002) >> 2
        return (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
    }
}
