import Geometry
import Raster
import Testing
import Text
@testable import UI

/// Custom views draw in points: the same drawing at scale 1 and at scale 2 is the same picture,
/// the second at twice the pixels.
@Suite struct DrawingInPointsTests {
    /// A ring (two arcs), a quadratic and a cubic curve, a stroked rounded rectangle, text and
    /// an image, all in the view's points.
    final class Dial: View {
        let picture: PixelBuffer
        init(picture: PixelBuffer) {
            self.picture = picture
            super.init(id: "dial")
        }
        override func draw(in context: inout DrawContext) {
            var ring = Path()
            ring.addArc(center: Point(x: 50, y: 50), radius: 40, startAngle: 0, endAngle: 2 * .pi)
            ring.addArc(center: Point(x: 50, y: 50), radius: 30, startAngle: 2 * .pi, endAngle: 0)
            context.fill(ring, rule: .evenOdd, color: Color(rgb: 0x0A84FF))
            var wave = Path()
            wave.move(to: Point(x: 110, y: 80))
            wave.quad(to: Point(x: 150, y: 80), control: Point(x: 130, y: 40))
            wave.cubic(to: Point(x: 190, y: 80), control1: Point(x: 160, y: 120), control2: Point(x: 180, y: 40))
            context.stroke(wave, lineWidth: 3, color: Color(rgb: 0xFF9F0A), roundCaps: true)
            context.stroke(Rect(x: 105, y: 5, width: 90, height: 30), cornerRadius: 8, lineWidth: 2, color: .black)
            context.draw("Glide", in: Rect(x: 110, y: 10, width: 80, height: 22), size: 16, alignment: .center)
            context.draw(picture, in: Rect(x: 10, y: 100, width: 80, height: 40))
        }
    }

    /// A stripe pattern, 8 x 4 pixels, to draw scaled.
    static func stripes() -> PixelBuffer {
        let p = PixelBuffer(width: 8, height: 4, fill: Color.white.premultiplied)
        for y in 0..<4 { for x in 0..<8 where x % 2 == 0 { p[x, y] = Color(rgb: 0x30D158).premultiplied.argb } }
        return p
    }

    func render(scale: Double) throws -> PixelBuffer {
        let dial = Dial(picture: Self.stripes()).frame(width: 200, height: 150).background(.white)
        let w = try makeWindow(
            VStack(id: "root") { dial },
            width: Int(200 * scale), height: Int(150 * scale), scale: scale)
        let out = PixelBuffer(width: w.pixelWidth, height: w.pixelHeight)
        _ = w.render(into: out, at: 0)
        return out
    }

    /// Per pixel of `one` inside `area` (points = scale-1 pixels): the largest channel
    /// difference from the average of its 2x2 block in `two`.
    static func differences(_ one: PixelBuffer, _ two: PixelBuffer, in area: Rect, excluding hole: Rect? = nil) -> [Int] {
        var out: [Int] = []
        for y in Int(area.minY)..<Int(area.maxY) {
            for x in Int(area.minX)..<Int(area.maxX) {
                if let hole, hole.contains(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) { continue }
                let a = one[x, y]
                let quad = [two[2 * x, 2 * y], two[2 * x + 1, 2 * y], two[2 * x, 2 * y + 1], two[2 * x + 1, 2 * y + 1]]
                var d = 0
                for shift in [0, 8, 16] as [UInt32] {
                    let avg = quad.map { Int(($0 >> shift) & 0xFF) }.reduce(0, +) / 4
                    d = max(d, abs(avg - Int((a >> shift) & 0xFF)))
                }
                out.append(d)
            }
        }
        return out
    }

    @Test func aDrawingAtScaleTwoIsTheSamePictureAtTwiceThePixels() throws {
        let one = try render(scale: 1), two = try render(scale: 2)
        #expect(two.width == 2 * one.width && two.height == 2 * one.height)
        // Shapes and the image: each edge is anti-aliased at its own scale's resolution, so an
        // edge pixel may differ by up to a half-covered pixel's worth. Tolerance: 97% of the
        // pixels within 24 of 255 per channel, none beyond 160, mean under 2.
        let text = Rect(x: 110, y: 10, width: 80, height: 22)
        let shapes = Self.differences(one, two, in: Rect(x: 0, y: 0, width: 200, height: 150), excluding: text)
        let close = shapes.filter { $0 <= 24 }.count
        #expect(Double(close) / Double(shapes.count) >= 0.97, "\(shapes.count - close) pixels differ by more than 24")
        #expect(shapes.max()! <= 160)
        #expect(Double(shapes.reduce(0, +)) / Double(shapes.count) < 2)
        // Text is hinted for each pixel size, so its stems move by a fraction of a pixel: only
        // the same ink in the same place is asked of it (mean under 24).
        let glyphs = Self.differences(one, two, in: text)
        #expect(Double(glyphs.reduce(0, +)) / Double(glyphs.count) < 24)
        // And the drawing is there: the ring's blue at radius 35 (points), at both scales; the
        // hole inside it is empty.
        #expect(one[50 + 35, 50] & 0xFFFFFF != 0xFFFFFF)
        #expect(two[2 * (50 + 35), 100] & 0xFFFFFF != 0xFFFFFF)
        #expect(one[50, 50] & 0xFFFFFF == 0xFFFFFF)
        let ink = (0..<80).filter { one[110 + $0, 21] & 0xFF < 128 }.count
        #expect(ink > 0, "the text is drawn")
    }
}
