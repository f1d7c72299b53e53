import Geometry

extension Canvas {
    /// Draws `image` scaled and translated to fill `destRect` (translated by the canvas). Pixel
    /// centres map linearly (dest x + ½ ↔ source u + ½), edges clamp to the image's border
    /// pixels, fractional destination edges get partial coverage, and `opacity` multiplies
    /// everything (rounded to 8 bits). Bilinear weights are 8-bit and the math is integer.
    /// Reductions below ½ alias with bilinear sampling: draw `image.halved()` (cached) instead.
    /// `extendingEdges` fills the whole clip, the border pixels continuing beyond `destRect`
    /// (pixman's PAD repeat): a photo pinched smaller than the screen leaves no gap.
    package func draw(
        image: PixelBuffer, in destRect: Rect, filter: ImageFilter = .bilinear, opacity: Double = 1,
        extendingEdges: Bool = false
    ) {
        perform(.image(image, destRect, filter, opacity: opacity, extendingEdges: extendingEdges))
    }

    func drawDirectly(image: PixelBuffer, in destRect: Rect, filter: ImageFilter, opacity: Double, extendingEdges: Bool) {
        guard image.width > 0, image.height > 0, destRect.width > 0, destRect.height > 0,
            destRect.minX.isFinite, destRect.minY.isFinite, destRect.maxX.isFinite, destRect.maxY.isFinite
        else { return }
        let alpha = UInt32((min(max(opacity.isNaN ? 0 : opacity, 0), 1) * 255).rounded())
        guard alpha > 0 else { return }
        let d = device(destRect)
        let shape = RectShape(extendingEdges ? Rect(state.clip) : d)
        let b = shape.pixelBounds.intersection(state.clip)
        guard !b.isEmpty else { return }
        let sw = image.width, sh = image.height
        let scaleY = Double(sh) / d.height
        let bilinear = filter == .bilinear
        let (indices, weights) = Canvas.imageColumns(b, d, scaleX: Double(sw) / d.width, sourceWidth: sw, bilinear: bilinear)
        let scratch = cache.scratchRows(width: span.width)
        let clips = state.roundClips
        // Source columns this draw reads, and a row buffer for the vertically blended source row.
        let firstColumn = Int(indices[0]), lastColumn = min(Int(indices[b.width - 1]) + 1, sw - 1)
        // A picture one pixel wide gets its right neighbour in the row buffer.
        let singleColumn = sw == 1
        var blended = [UInt32](repeating: 0, count: sw + 1)
        withExtendedLifetime(image) {
            indices.withUnsafeBufferPointer { indexTable in
                weights.withUnsafeBufferPointer { weightTable in
                    blended.withUnsafeMutableBufferPointer { blendedRow in
                        let vertical = blendedRow.baseAddress!
                        let index = indexTable.baseAddress! - b.x, weight = weightTable.baseAddress! - b.x
                        for y in b.y..<b.maxY {
                            var r = shape.row(y, b.x, b.maxX, scratch)
                            if r.isEmpty { continue }
                            if !clips.isEmpty {
                                r = Canvas.applyClips(clips, to: r, y: y, scratch: scratch)
                                if r.isEmpty { continue }
                            }
                            let sy = Canvas.sample((Double(y) + 0.5 - d.minY) * scaleY - 0.5, count: sh, bilinear: bilinear)
                            let source = Canvas.imageSourceRow(
                                image, sy, vertical: vertical, firstColumn: firstColumn,
                                lastColumn: lastColumn, singleColumn: singleColumn)
                            Canvas.imageRow(span.row(y), r, indices: index, weights: weight, source: source, opacity: alpha)
                        }
                    }
                }
            }
        }
    }

    /// Source column and weight of the next one (0...256, in both halves of a UInt32: the
    /// weight of each 16-bit channel lane) for every destination column of `b`, which `d`
    /// maps onto a source `sw` pixels wide.
    @inline(__always)
    static func imageColumns(
        _ b: IntRect, _ d: Rect, scaleX: Double, sourceWidth sw: Int,
        bilinear: Bool
    ) -> (indices: [Int32], weights: [UInt32]) {
        var indices = [Int32](repeating: 0, count: b.width)
        var weights = [UInt32](repeating: 0, count: b.width)
        for i in 0..<b.width {
            var s = Canvas.sample((Double(b.x + i) + 0.5 - d.minX) * scaleX - 0.5, count: sw, bilinear: bilinear)
            // The last column as all of its left neighbour's right side (weight 256 gives that
            // pixel exactly): every entry then reads index + 1, and the loops below blend
            // without a branch per pixel.
            if s.index == sw - 1 && sw > 1 { s = (sw - 2, 256) }
            indices[i] = Int32(s.index); weights[i] = UInt32(s.weight) &* 0x0001_0001
        }
        return (indices, weights)
    }

    /// The vertical pass of one destination row: the source row `sy` samples, blended once with
    /// the next row by its weight into `vertical` (the columns `firstColumn...lastColumn` the
    /// draw reads), or the source row itself where the weight is 0. A picture one pixel wide
    /// (`singleColumn`) gets its pixel twice in `vertical`, so every column reads index + 1.
    @inline(__always)
    static func imageSourceRow(
        _ image: PixelBuffer, _ sy: (index: Int, weight: Int), vertical: UnsafeMutablePointer<UInt32>,
        firstColumn: Int, lastColumn: Int, singleColumn: Bool
    ) -> UnsafePointer<UInt32> {
        let row0 = image.pixels + sy.index * image.stride
        var source = UnsafePointer(row0)
        if sy.weight > 0 {
            Canvas.lerpRows(
                row0 + firstColumn, row0 + image.stride + firstColumn, UInt16(sy.weight),
                into: vertical + firstColumn, count: lastColumn - firstColumn + 1)
            source = UnsafePointer(vertical)
        }
        if singleColumn {
            if sy.weight == 0 { vertical[0] = row0[0] }
            vertical[1] = vertical[0]
            source = UnsafePointer(vertical)
        }
        return source
    }

    /// The horizontal pass and compositing of one destination row `dst` under coverage `r`:
    /// per-pixel coverage on its edges, one coverage in its solid middle. `index` and `weight`
    /// are the column tables, offset so that destination x reads entry x.
    @inline(__always)
    static func imageRow(
        _ dst: UnsafeMutablePointer<UInt32>, _ r: CoverageRow, indices index: UnsafePointer<Int32>,
        weights weight: UnsafePointer<UInt32>, source: UnsafePointer<UInt32>, opacity alpha: UInt32
    ) {
        if r.s0 > r.x0 {
            Canvas.imageSpan(
                dst + r.x0, count: r.s0 - r.x0, indices: index + r.x0, weights: weight + r.x0,
                source: source, coverage: r.bytes, opacity: alpha)
        }
        if r.s1 > r.s0 && r.alpha != 0 {
            Canvas.imageSpan(
                dst + r.s0, count: r.s1 - r.s0, indices: index + r.s0, weights: weight + r.s0,
                source: source, constant: div255(r.alpha * alpha))
        }
        if r.x1 > r.s1 {
            Canvas.imageSpan(
                dst + r.s1, count: r.x1 - r.s1, indices: index + r.s1, weights: weight + r.s1,
                source: source, coverage: r.bytes + (r.s1 - r.x0), opacity: alpha)
        }
    }

    /// Source index and 8-bit weight of index + 1 for a sample position `u` (pixel centres at
    /// integers), clamped to the edge pixels.
    @inline(__always)
    static func sample(_ u: Double, count: Int, bilinear: Bool) -> (index: Int, weight: Int) {
        if !bilinear {
            let i = pixelFloor(u + 0.5)
            return (min(max(i, 0), count - 1), 0)
        }
        let f = pixelFloor(min(max(u, -2), Double(count + 2)) * 256)
        let i = f >> 8, w = f & 255
        if i < 0 { return (0, 0) }
        if i >= count - 1 { return (count - 1, 0) }
        return (i, w)
    }

    /// `count` pixels of `row0` blended towards `row1` by `weight`/256 (`lerpPixel`): the
    /// vertical pass of a bilinear draw, every source column of a row. Four pixels at a time
    /// in 16-bit channel lanes, which hold the products without carry, so the result is
    /// `lerpPixel`'s bit for bit.
    @inline(__always)
    static func lerpRows(
        _ row0: UnsafePointer<UInt32>, _ row1: UnsafePointer<UInt32>, _ weight: UInt16,
        into out: UnsafeMutablePointer<UInt32>, count: Int
    ) {
        let w = SIMD4<UInt32>(repeating: UInt32(weight) &* 0x0001_0001)
        var i = 0
        while i &+ 4 <= count {
            let p = Lanes.lerp(Lanes.load(row0 + i), Lanes.load(row1 + i), w)
            Lanes.store(p, to: out + i)
            i &+= 4
        }
        let scalarWeight = UInt32(weight)
        while i < count { out[i] = lerpPixel(row0[i], row1[i], scalarWeight); i &+= 1 }
    }

    /// Four destination pixels of the horizontal pass: the left and right source pixels of
    /// each column, blended by the columns' weights.
    @inline(__always)
    static func gatherLerp(
        _ source: UnsafePointer<UInt32>, _ indices: UnsafePointer<Int32>,
        _ weights: UnsafePointer<UInt32>
    ) -> SIMD4<UInt32> {
        let s0 = Int(indices[0]), s1 = Int(indices[1]), s2 = Int(indices[2]), s3 = Int(indices[3])
        let left = SIMD4<UInt32>(source[s0], source[s1], source[s2], source[s3])
        let right = SIMD4<UInt32>(source[s0 &+ 1], source[s1 &+ 1], source[s2 &+ 1], source[s3 &+ 1])
        return Lanes.lerp(left, right, Lanes.load(weights))
    }

    /// Horizontal pass and compositing with one coverage for the whole run (the solid middle).
    @inline(__always)
    static func imageSpan(
        _ dst: UnsafeMutablePointer<UInt32>, count: Int, indices: UnsafePointer<Int32>,
        weights: UnsafePointer<UInt32>, source: UnsafePointer<UInt32>, constant k: UInt32
    ) {
        if k == 0 { return }
        var i = 0
        if k == 255 {
            // Full coverage, full opacity: the common case for photos, where four opaque
            // pixels are stored without reading the destination.
            while i &+ 4 <= count {
                let p = gatherLerp(source, indices + i, weights + i)
                if Lanes.isOpaque(p) {
                    Lanes.store(p, to: dst + i)
                } else {
                    Lanes.store(Lanes.over(p, Lanes.load(dst + i)), to: dst + i)
                }
                i &+= 4
            }
            while i < count {
                let sx = Int(indices[i])
                dst[i] = sourceOver(lerpPixel(source[sx], source[sx &+ 1], weights[i] & 0x1FF), dst[i])
                i &+= 1
            }
            return
        }
        let kk = SIMD4<UInt32>(repeating: k &* 0x0001_0001)
        while i &+ 4 <= count {
            let p = Lanes.scale(gatherLerp(source, indices + i, weights + i), by: kk)
            Lanes.store(Lanes.over(p, Lanes.load(dst + i)), to: dst + i)
            i &+= 4
        }
        while i < count {
            let sx = Int(indices[i])
            let p = scalePixel(lerpPixel(source[sx], source[sx &+ 1], weights[i] & 0x1FF), by: k)
            dst[i] = p &+ scalePixel(dst[i], by: 255 &- (p >> 24))
            i &+= 1
        }
    }

    /// Horizontal pass and compositing through per-pixel coverage (edges, rounded clips).
    @inline(__always)
    static func imageSpan(
        _ dst: UnsafeMutablePointer<UInt32>, count: Int, indices: UnsafePointer<Int32>,
        weights: UnsafePointer<UInt32>, source: UnsafePointer<UInt32>,
        coverage: UnsafePointer<UInt8>, opacity: UInt32
    ) {
        for i in 0..<count {
            let k = div255(UInt32(coverage[i]) * opacity)
            if k == 0 { continue }
            let sx = Int(indices[i])
            var p = lerpPixel(source[sx], source[sx &+ 1], weights[i] & 0x1FF)
            if k != 255 { p = scalePixel(p, by: k) }
            let sa = p >> 24
            dst[i] = sa == 255 ? p : p &+ scalePixel(dst[i], by: 255 &- sa)
        }
    }
}
