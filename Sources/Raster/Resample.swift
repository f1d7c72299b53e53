import Geometry

extension PixelBuffer {
    /// A copy at half the size (rounded up), each pixel the rounded average of a 2x2 block
    /// (edge pixels repeat for odd sizes). Bilinear drawing aliases when reducing below ½;
    /// draw a halved copy instead (halve repeatedly for stronger reductions, and cache the
    /// levels with the image: halving reads every source pixel).
    public func halved() -> PixelBuffer {
        let w = (width + 1) / 2, h = (height + 1) / 2
        let out = PixelBuffer(width: w, height: h)
        guard width > 0, height > 0 else { return out }
        for y in 0..<h {
            let r0 = pixels + min(2 * y, height - 1) * stride
            let r1 = pixels + min(2 * y + 1, height - 1) * stride
            let o = out.pixels + y * out.stride
            for x in 0..<w {
                let x0 = min(2 * x, width - 1), x1 = min(2 * x + 1, width - 1)
                let a = r0[x0], b = r0[x1], c = r1[x0], d = r1[x1]
                // Two channels per add: each 16-bit lane sums four 8-bit values (≤ 1020).
                let rb = ((a & 0x00FF_00FF) &+ (b & 0x00FF_00FF) &+ (c & 0x00FF_00FF) &+ (d & 0x00FF_00FF) &+ 0x0002_0002) >> 2
                let ag = (((a >> 8) & 0x00FF_00FF) &+ ((b >> 8) & 0x00FF_00FF) &+ ((c >> 8) & 0x00FF_00FF)
                          &+ ((d >> 8) & 0x00FF_00FF) &+ 0x0002_0002) >> 2
                o[x] = (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
            }
        }
        return out
    }

    /// Halved `times` times, as long as both sides have a half to take.
    public func halved(times: Int) -> PixelBuffer {
        var level = self
        for _ in 0..<max(0, times) where level.width >= 2 && level.height >= 2 { level = level.halved() }
        return level
    }
}
