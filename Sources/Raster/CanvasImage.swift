import Geometry

extension Canvas {
    /// Draws `image` scaled and translated to fill `destRect` (translated by the canvas). Pixel
    /// centres map linearly (dest x + ½ ↔ source u + ½), edges clamp to the image's border
    /// pixels, fractional destination edges get partial coverage, and `opacity` multiplies
    /// everything (rounded to 8 bits). Bilinear weights are 8-bit and the math is integer.
    /// Reductions below ½ alias with bilinear sampling: draw `image.halved()` (cached) instead.
    /// `extendingEdges` fills the whole clip, the border pixels continuing beyond `destRect`
    /// (pixman's PAD repeat): a photo pinched smaller than the screen leaves no gap.
    public func draw(image: PixelBuffer, in destRect: Rect, filter: ImageFilter = .bilinear, opacity: Double = 1,
                     extendingEdges: Bool = false) {
        guard image.width > 0, image.height > 0, destRect.width > 0, destRect.height > 0,
              destRect.minX.isFinite, destRect.minY.isFinite, destRect.maxX.isFinite, destRect.maxY.isFinite else { return }
        let alpha = UInt32((min(max(opacity.isNaN ? 0 : opacity, 0), 1) * 255).rounded())
        guard alpha > 0 else { return }
        let d = device(destRect)
        let shape = RectShape(extendingEdges ? Rect(state.clip) : d)
        let b = shape.pixelBounds.intersection(state.clip)
        guard !b.isEmpty else { return }
        let sw = image.width, sh = image.height
        let scaleX = Double(sw) / d.width, scaleY = Double(sh) / d.height
        let bilinear = filter == .bilinear
        // Source column and weight of the next one (0...256) for every destination column.
        var columns = [Int32](repeating: 0, count: 2 * b.width)
        for i in 0..<b.width {
            var s = Canvas.sample((Double(b.x + i) + 0.5 - d.minX) * scaleX - 0.5, count: sw, bilinear: bilinear)
            // The last column as all of its left neighbour's right side (weight 256 gives that
            // pixel exactly): every entry then reads index + 1, and the loops below blend
            // without a branch per pixel.
            if s.index == sw - 1 && sw > 1 { s = (sw - 2, 256) }
            columns[2 * i] = Int32(s.index); columns[2 * i + 1] = Int32(s.weight)
        }
        let scratch = cache.scratchRows(width: span.width)
        let clips = state.roundClips
        // Source columns this draw reads, and a row buffer for the vertically blended source row.
        let firstColumn = Int(columns[0]), lastColumn = min(Int(columns[2 * b.width - 2]) + 1, sw - 1)
        // A picture one pixel wide gets its right neighbour in the row buffer.
        let singleColumn = sw == 1
        var blended = [UInt32](repeating: 0, count: sw + 1)
        withExtendedLifetime(image) {
            columns.withUnsafeBufferPointer { table in
                blended.withUnsafeMutableBufferPointer { blendedRow in
                    let cols = table.baseAddress!, vertical = blendedRow.baseAddress!
                    for y in b.y..<b.maxY {
                        var r = shape.row(y, b.x, b.maxX, scratch)
                        if r.isEmpty { continue }
                        if !clips.isEmpty {
                            r = Canvas.applyClips(clips, to: r, y: y, scratch: scratch)
                            if r.isEmpty { continue }
                        }
                        // Blend the two source rows once per destination row (vertical pass).
                        let sy = Canvas.sample((Double(y) + 0.5 - d.minY) * scaleY - 0.5, count: sh, bilinear: bilinear)
                        let row0 = image.pixels + sy.index * image.stride
                        var source = UnsafePointer(row0)
                        if sy.weight > 0 {
                            Canvas.lerpRows(row0 + firstColumn, row0 + image.stride + firstColumn, UInt16(sy.weight),
                                            into: vertical + firstColumn, count: lastColumn - firstColumn + 1)
                            source = UnsafePointer(vertical)
                        }
                        if singleColumn {
                            if sy.weight == 0 { vertical[0] = row0[0] }
                            vertical[1] = vertical[0]
                            source = UnsafePointer(vertical)
                        }
                        let dst = span.row(y)
                        let c = cols + 2 * (r.x0 - b.x)
                        if r.s0 > r.x0 {
                            Canvas.imageSpan(dst + r.x0, count: r.s0 - r.x0, columns: c, source: source,
                                             coverage: r.bytes, opacity: alpha)
                        }
                        if r.s1 > r.s0 && r.alpha != 0 {
                            Canvas.imageSpan(dst + r.s0, count: r.s1 - r.s0, columns: c + 2 * (r.s0 - r.x0), source: source,
                                             constant: div255(r.alpha * alpha))
                        }
                        if r.x1 > r.s1 {
                            Canvas.imageSpan(dst + r.s1, count: r.x1 - r.s1, columns: c + 2 * (r.s1 - r.x0), source: source,
                                             coverage: r.bytes + (r.s1 - r.x0), opacity: alpha)
                        }
                    }
                }
            }
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
    /// vertical pass of a bilinear draw, every source column of a row.
    @inline(__always)
    static func lerpRows(_ row0: UnsafePointer<UInt32>, _ row1: UnsafePointer<UInt32>, _ weight: UInt16,
                         into out: UnsafeMutablePointer<UInt32>, count: Int) {
        let w = UInt32(weight)
        for i in 0..<count { out[i] = lerpPixel(row0[i], row1[i], w) }
    }

    /// Horizontal pass and compositing with one coverage for the whole run (the solid middle).
    @inline(__always)
    static func imageSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, columns: UnsafePointer<Int32>,
                          source: UnsafePointer<UInt32>, constant k: UInt32) {
        if k == 0 { return }
        var column = columns
        if k == 255 {
            // Full coverage, full opacity: the common case for photos.
            for i in 0..<count {
                let sx = Int(column[0]), wx = UInt32(column[1])
                column += 2
                let p = lerpPixel(source[sx], source[sx &+ 1], wx)
                let sa = p >> 24
                dst[i] = sa == 255 ? p : p &+ scalePixel(dst[i], by: 255 &- sa)
            }
            return
        }
        for i in 0..<count {
            let sx = Int(column[0]), wx = UInt32(column[1])
            column += 2
            let p = scalePixel(lerpPixel(source[sx], source[sx &+ 1], wx), by: k)
            dst[i] = p &+ scalePixel(dst[i], by: 255 &- (p >> 24))
        }
    }

    /// Horizontal pass and compositing through per-pixel coverage (edges, rounded clips).
    @inline(__always)
    static func imageSpan(_ dst: UnsafeMutablePointer<UInt32>, count: Int, columns: UnsafePointer<Int32>,
                          source: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>, opacity: UInt32) {
        var column = columns
        for i in 0..<count {
            let sx = Int(column[0]), wx = UInt32(column[1])
            column += 2
            let k = div255(UInt32(coverage[i]) * opacity)
            if k == 0 { continue }
            var p = lerpPixel(source[sx], source[sx &+ 1], wx)
            if k != 255 { p = scalePixel(p, by: k) }
            let sa = p >> 24
            dst[i] = sa == 255 ? p : p &+ scalePixel(dst[i], by: 255 &- sa)
        }
    }
}
