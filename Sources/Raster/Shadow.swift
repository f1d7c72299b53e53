import Geometry

extension AlphaMask {
    /// The soft shadow of a `width`×`height` rectangle (device pixels) with corners rounded by
    /// `cornerRadius`, blurred as CSS's `box-shadow` blur of `blur` pixels (a Gaussian of
    /// σ = blur / 2, made of three box blurs of σ's half-width each way). The mask is larger than
    /// the rectangle by `margin` on every side. Integer arithmetic: the same bytes on every CPU.
    package static func shadow(width: Int, height: Int, cornerRadius: Double, blur: Double) -> (mask: AlphaMask, margin: Int) {
        let sigma = max(0, blur.isFinite ? min(blur, 512) : 0) / 2
        let half = Int(sigma.rounded())
        let margin = 3 * half + 1
        let w = max(0, width) + 2 * margin, h = max(0, height) + 2 * margin
        guard w > 0, h > 0, w * h <= 1 << 24 else { return (AlphaMask(width: 0, height: 0), 0) }
        let shape = PixelBuffer(width: w, height: h)
        Canvas(shape, cache: RasterCache()).fill(
            roundedRect: Rect(x: Double(margin), y: Double(margin), width: Double(width), height: Double(height)),
            radius: min(max(0, cornerRadius), Double(min(width, height)) / 2), color: PremultipliedColor(rgb: 0xFFFFFF))
        var alpha = [UInt32](repeating: 0, count: w * h)
        for i in 0..<(w * h) { alpha[i] = shape.pixels[i] >> 24 }
        if half > 0 {
            alpha.withUnsafeMutableBufferPointer { a in
                var scratch = [UInt32](repeating: 0, count: max(w, h))
                scratch.withUnsafeMutableBufferPointer { line in
                    for _ in 0..<3 {
                        for y in 0..<h { boxBlur(a.baseAddress! + y * w, count: w, step: 1, half: half, line: line.baseAddress!) }
                        for x in 0..<w { boxBlur(a.baseAddress! + x, count: h, step: w, half: half, line: line.baseAddress!) }
                    }
                }
            }
        }
        return (AlphaMask(width: w, height: h, coverage: alpha.map { UInt8(min($0, 255)) }), margin)
    }

    /// Averages each of `count` values `step` apart over the `2·half + 1` around it (zero
    /// beyond the ends), rounded to nearest, through a running sum.
    private static func boxBlur(
        _ values: UnsafeMutablePointer<UInt32>, count: Int, step: Int, half: Int, line: UnsafeMutablePointer<UInt32>
    ) {
        for i in 0..<count { line[i] = values[i * step] }
        let width = UInt32(2 * half + 1)
        var sum: UInt32 = 0
        for i in 0..<min(half, count) { sum += line[i] }
        for i in 0..<count {
            if i + half < count { sum += line[i + half] }
            if i - half - 1 >= 0 { sum -= line[i - half - 1] }
            values[i * step] = (sum + width / 2) / width
        }
    }
}
