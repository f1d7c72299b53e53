import Geometry

extension Canvas {
    /// Draws `image`, at one image pixel per canvas pixel, turned clockwise by `degrees` about
    /// its centre, which lands at `center` (translated): each pixel the turned rectangle covers
    /// samples the picture bilinearly at the point that turns onto the pixel's centre. The
    /// rectangle's edges are anti-aliased by the scan converter's coverage, and `opacity`
    /// multiplies everything (a view's `rotationEffect`, drawn as a layer).
    package func draw(image: PixelBuffer, turnedBy degrees: Double, around center: Point, opacity: Double = 1) {
        perform(.turnedImage(image, degrees: degrees, center: center, opacity: opacity))
    }

    func drawDirectly(image: PixelBuffer, turnedBy degrees: Double, around center: Point, opacity: Double) {
        guard image.width > 0, image.height > 0, degrees.isFinite, center.isFinite else { return }
        let alpha = UInt32((min(max(opacity.isNaN ? 0 : opacity, 0), 1) * 255).rounded())
        guard alpha > 0 else { return }
        let t = state.translation
        let c = Point(center.x + t.x, center.y + t.y)
        let (cosA, sinA) = (cosine(degrees: degrees), sine(degrees: degrees))
        let (hw, hh) = (Double(image.width) / 2, Double(image.height) / 2)
        // The turned rectangle's corners, scan converted for its coverage.
        let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { x, y in
            Point(c.x + x * cosA - y * sinA, c.y + x * sinA + y * cosA)
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let box = IntRect(
            x: pixelFloor(xs.min()!), y: pixelFloor(ys.min()!),
            width: pixelCeil(xs.max()!) - pixelFloor(xs.min()!), height: pixelCeil(ys.max()!) - pixelFloor(ys.min()!)
        ).intersection(span.bounds)
        guard !box.isEmpty, !box.intersection(state.clip).isEmpty else { return }
        let mask = ScanConverter.mask([corners + [corners[0]]], box: box, rule: .nonZero, cache: cache)
        let shape = MaskShape(mask, x: box.x, y: box.y)
        let b = box.intersection(state.clip)
        withExtendedLifetime((mask, image)) {
            eachCoveredRow(of: shape, in: b) { y, r in
                // The source point of this row's first pixel centre, and its step along the row.
                let dy = Double(y) + 0.5 - c.y
                let dx0 = Double(r.x0) + 0.5 - c.x
                var u = dx0 * cosA + dy * sinA + hw - 0.5, v = -dx0 * sinA + dy * cosA + hh - 0.5
                let dst = span.row(y)
                for x in r.x0..<r.x1 {
                    let coverage = div255(r.coverage(at: x) * alpha)
                    if coverage > 0 {
                        let s = Canvas.bilinearSample(image, u, v)
                        dst[x] = sourceOver(coverage == 255 ? s : scalePixel(s, by: coverage), dst[x])
                    }
                    u += cosA
                    v -= sinA
                }
            }
        }
    }

    /// The premultiplied picture at (u, v) in pixel-centre coordinates, its border pixels
    /// continuing beyond it (the turned rectangle's coverage cuts the edge).
    @inline(__always)
    static func bilinearSample(_ image: PixelBuffer, _ u: Double, _ v: Double) -> UInt32 {
        let maxX = image.width - 1, maxY = image.height - 1
        let fu = max(0, min(u, Double(maxX))), fv = max(0, min(v, Double(maxY)))
        let x0 = Int(fu), y0 = Int(fv)
        let x1 = min(x0 + 1, maxX), y1 = min(y0 + 1, maxY)
        let wx = UInt32(((fu - Double(x0)) * 256).rounded()), wy = UInt32(((fv - Double(y0)) * 256).rounded())
        let row0 = image.pixels + y0 * image.stride, row1 = image.pixels + y1 * image.stride
        let top = lerpPixel(row0[x0], row0[x1], wx), bottom = lerpPixel(row1[x0], row1[x1], wx)
        return lerpPixel(top, bottom, wy)
    }
}
