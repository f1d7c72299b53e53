import Geometry
import ImageCodecs
import Raster

/// Draws the sample pictures the catalog ships (landscapes from gradients and paths), so the
/// project's content is its own work: `glide demo --generate-content DIR` writes them.
package enum SampleArt {
    package struct Palette: Sendable {
        var skyTop: UInt32, skyBottom: UInt32, sun: UInt32, far: UInt32, near: UInt32, water: UInt32
    }
    package static let palettes: [Palette] = [
        Palette(skyTop: 0x1E3C72, skyBottom: 0xF7B267, sun: 0xFFE29A, far: 0x5B4B8A, near: 0x2E294E, water: 0x3D5A80),
        Palette(skyTop: 0x74B9FF, skyBottom: 0xDFF9FB, sun: 0xFFFFFF, far: 0x7FB3A6, near: 0x2D6A4F, water: 0x48CAE4),
        Palette(skyTop: 0x0F2027, skyBottom: 0x2C5364, sun: 0xF1F1F1, far: 0x203A43, near: 0x0B1A20, water: 0x1B3A4B),
        Palette(skyTop: 0xFF7E5F, skyBottom: 0xFEB47B, sun: 0xFFF3B0, far: 0xB5555C, near: 0x6D2E46, water: 0xE76F51),
        Palette(skyTop: 0x89F7FE, skyBottom: 0x66A6FF, sun: 0xFFFDE4, far: 0x4E8D7C, near: 0x045757, water: 0x1C7293),
        Palette(skyTop: 0x355C7D, skyBottom: 0xC06C84, sun: 0xF8B195, far: 0x6C5B7B, near: 0x3A2E4A, water: 0x5C4D7D),
    ]

    static func mix(_ a: UInt32, _ b: UInt32, _ f: Double) -> Color {
        func ch(_ v: UInt32, _ s: UInt32) -> Double { Double((v >> s) & 0xFF) }
        func m(_ s: UInt32) -> UInt8 { UInt8((ch(a, s) * (1 - f) + ch(b, s) * f).rounded()) }
        return Color(red: m(16), green: m(8), blue: m(0))
    }

    /// A landscape `width`×`height` in palette `index` with a seed-dependent ridge line.
    package static func landscape(width: Int, height: Int, palette index: Int, seed: UInt64) -> PixelBuffer {
        let p = palettes[index % palettes.count]
        let image = PixelBuffer(width: width, height: height, fill: Color(rgb: p.skyTop).premultiplied)
        let canvas = Canvas(image, cache: RasterCache())
        let w = Double(width), h = Double(height)
        let horizon = h * 0.62
        for y in 0..<Int(horizon.rounded(.up)) {
            canvas.fill(
                rect: Rect(x: 0, y: Double(y), width: w, height: 1), color: mix(p.skyTop, p.skyBottom, Double(y) / horizon).premultiplied)
        }
        var rng = seed | 1
        func random() -> Double {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            return Double(rng % 10_000) / 10_000
        }
        let sunX = w * (0.25 + 0.5 * random()), sunY = horizon * (0.35 + 0.3 * random())
        canvas.fill(circleCenter: Point(x: sunX, y: sunY), radius: h * 0.13, color: Color(rgb: p.sun, alpha: 70).premultiplied)
        canvas.fill(circleCenter: Point(x: sunX, y: sunY), radius: h * 0.085, color: Color(rgb: p.sun).premultiplied)
        for (layer, colour) in [(0, p.far), (1, p.near)] {
            var path = Path()
            let base = horizon + Double(layer) * h * 0.06
            path.move(to: Point(x: 0, y: h))
            var x = 0.0
            path.line(to: Point(x: 0, y: base - h * (0.1 + 0.15 * random())))
            while x < w {
                let step = w * (0.08 + 0.1 * random())
                let peak = base - h * (0.05 + (layer == 0 ? 0.3 : 0.18) * random())
                path.quad(to: Point(x: x + step, y: base - h * 0.04 * random()), control: Point(x: x + step / 2, y: peak))
                x += step
            }
            path.line(to: Point(x: w, y: h)); path.close()
            canvas.fill(path: path, color: Color(rgb: colour).premultiplied)
        }
        let waterTop = horizon + h * 0.16
        for y in Int(waterTop)..<height {
            let f = (Double(y) - waterTop) / (h - waterTop)
            canvas.fill(rect: Rect(x: 0, y: Double(y), width: w, height: 1), color: mix(p.water, p.near, f * 0.7).premultiplied)
        }
        for i in 0..<14 {
            let y = waterTop + (h - waterTop) * (0.1 + 0.8 * Double(i) / 14)
            canvas.fill(
                roundedRect: Rect(x: sunX - w * 0.06 * (1 + random()), y: y, width: w * 0.12 * (1 + random()), height: 2.5),
                radius: 1.25, color: Color(rgb: p.sun, alpha: 90).premultiplied)
        }
        return image
    }

    /// Writes the sample images into `directory/images` (PNG).
    package static func writeImages(to directory: String) throws {
        for i in 0..<6 {
            try PNG.write(landscape(width: 264, height: 264, palette: i, seed: UInt64(11 + i)), to: "\(directory)/images/card-\(i).png")
            try PNG.write(landscape(width: 1120, height: 680, palette: i, seed: UInt64(101 + i)), to: "\(directory)/images/photo-\(i).png")
        }
        try PNG.write(landscape(width: 1600, height: 1100, palette: 4, seed: 2026), to: "\(directory)/images/zoom.png")
    }
}
