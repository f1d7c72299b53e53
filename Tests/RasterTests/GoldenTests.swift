import Geometry
import Raster
import Testing
import TestSupport

/// Renders on an opaque light background (so the PNG round trip is lossless) and compares with
/// `Tests/Golden/Raster/<name>.png` exactly.
private func golden(
    _ name: String, width: Int = 128, height: Int = 96, sourceLocation: SourceLocation = #_sourceLocation,
    _ draw: (inout Canvas) -> Void
) {
    let buffer = PixelBuffer(width: width, height: height, fill: PremultipliedColor(rgb: 0xF2F2F7))
    var canvas = Canvas(buffer, cache: RasterCache())
    draw(&canvas)
    assertGolden(buffer, suite: "Raster", name: name, sourceLocation: sourceLocation)
}

/// An 8x8 test picture: red rises to the right, green downwards, blue falls diagonally; the
/// top-left pixel is half-transparent white.
private func testImage(size: Int = 8) -> PixelBuffer {
    let image = PixelBuffer(width: size, height: size)
    let step = 255 / max(1, size - 1)
    for y in 0..<size {
        for x in 0..<size {
            let r = UInt32(x * step), g = UInt32(y * step), b = UInt32(255 - (x + y) * step / 2)
            image[x, y] = 0xFF00_0000 | r << 16 | g << 8 | b
        }
    }
    image[0, 0] = PremultipliedColor(rgb: 0xFFFFFF, alpha: 128).argb
    return image
}

/// Concentric rings (period 6 px) with a diagonal stripe: detail that shows downscaling.
private func ringImage(size: Int) -> PixelBuffer {
    let image = PixelBuffer(width: size, height: size)
    let c = Double(size) / 2
    for y in 0..<size {
        for x in 0..<size {
            let dx = Double(x) + 0.5 - c, dy = Double(y) + 0.5 - c
            let ring = Int((dx * dx + dy * dy).squareRoot()) / 3 % 2 == 0
            let stripe = abs(x - y) < 4
            image[x, y] = stripe ? 0xFFE0_3030 : ring ? 0xFF20_3080 : 0xFFF0_E0A0
        }
    }
    return image
}

@Suite struct GoldenTests {
    @Test func rectFractional() {
        golden("rect_fractional") { canvas in
            canvas.fill(rect: Rect(x: 8, y: 8, width: 30, height: 20), color: PremultipliedColor(rgb: 0x1C1C1E))
            canvas.fill(rect: Rect(x: 44.5, y: 8.5, width: 30, height: 20), color: PremultipliedColor(rgb: 0x007AFF))
            canvas.fill(rect: Rect(x: 80.25, y: 8.75, width: 30.3, height: 19.6), color: PremultipliedColor(rgb: 0x34C759))
            canvas.fill(rect: Rect(x: 20.3, y: 20.6, width: 60, height: 40), color: PremultipliedColor(rgb: 0xFF3B30, opacity: 0.5))
            // Thin and sub-pixel rectangles (hairlines).
            for i in 0..<8 {
                let x = 10 + Double(i) * 13.3
                canvas.fill(rect: Rect(x: x, y: 66, width: 0.25 + Double(i) * 0.25, height: 24), color: PremultipliedColor(rgb: 0x000000))
                canvas.fill(
                    rect: Rect(x: x + 4, y: 70 + Double(i) * 0.125, width: 6, height: 0.5), color: PremultipliedColor(rgb: 0xAF52DE))
            }
        }
    }

    @Test func roundedRect() {
        golden("rounded_rect", width: 160, height: 112) { canvas in
            canvas.fill(roundedRect: Rect(x: 8, y: 8, width: 64, height: 40), radius: 14, color: PremultipliedColor(rgb: 0xFFFFFF))
            canvas.fill(
                roundedRect: Rect(x: 80.5, y: 8.25, width: 70.3, height: 40.4), radius: 9.5, color: PremultipliedColor(rgb: 0x007AFF))
            // Capsules (corner boxes touch: the scan-converted fallback) and a fractional scroll thumb.
            canvas.fill(
                roundedRect: Rect(x: 8, y: 56, width: 64, height: 28), radius: 14, color: PremultipliedColor(rgb: 0x000000, opacity: 0.30))
            canvas.fill(
                roundedRect: Rect(x: 80, y: 60.37, width: 5, height: 36), radius: 2.5,
                color: PremultipliedColor(rgb: 0x000000, opacity: 0.35))
            canvas.fill(roundedRect: Rect(x: 92.7, y: 58.2, width: 60, height: 14.6), radius: 100, color: PremultipliedColor(rgb: 0xFF9500))
            // Large radius on a square: a circle.
            canvas.fill(
                roundedRect: Rect(x: 100, y: 76, width: 30, height: 30), radius: 15, color: PremultipliedColor(rgb: 0x34C759, opacity: 0.8))
            // Tiny radius.
            canvas.fill(roundedRect: Rect(x: 136.5, y: 78.5, width: 16, height: 24), radius: 1.5, color: PremultipliedColor(rgb: 0x5856D6))
        }
    }

    @Test func circles() {
        golden("circle") { canvas in
            canvas.fill(circleCenter: Point(28, 28), radius: 20, color: PremultipliedColor(rgb: 0xE5A35C))
            canvas.fill(circleCenter: Point(72.5, 28.25), radius: 19.7, color: PremultipliedColor(rgb: 0x5CA3E5))
            canvas.fill(circleCenter: Point(104, 24), radius: 4, color: PremultipliedColor(rgb: 0x000000))
            canvas.fill(circleCenter: Point(118, 24), radius: 4, color: PremultipliedColor(rgb: 0x000000, opacity: 0.45))
            canvas.fill(circleCenter: Point(110.3, 38.6), radius: 1.2, color: PremultipliedColor(rgb: 0x000000))
            // Overlapping translucent circles.
            canvas.fill(circleCenter: Point(40, 70), radius: 22, color: PremultipliedColor(rgb: 0xFF0000, opacity: 0.5))
            canvas.fill(circleCenter: Point(60, 70), radius: 22, color: PremultipliedColor(rgb: 0x00A000, opacity: 0.5))
            canvas.fill(circleCenter: Point(104, 72), radius: 17.5, color: PremultipliedColor(rgb: 0x0000FF, opacity: 0.5))
        }
    }

    @Test func starNonZero() {
        golden("path_star_nonzero", width: 96, height: 96) { canvas in
            canvas.fill(path: starPath(center: Point(48, 50), radius: 44), rule: .nonZero, color: PremultipliedColor(rgb: 0xFFCC00))
        }
    }

    @Test func starEvenOdd() {
        golden("path_star_evenodd", width: 96, height: 96) { canvas in
            canvas.fill(path: starPath(center: Point(48, 50), radius: 44), rule: .evenOdd, color: PremultipliedColor(rgb: 0xFFCC00))
        }
    }

    @Test func curves() {
        golden("path_curves", width: 160, height: 96) { canvas in
            // A heart from two cubics.
            var heart = Path()
            heart.move(to: Point(40, 84))
            heart.cubic(to: Point(40, 26), control1: Point(-12, 50), control2: Point(14, 0))
            heart.cubic(to: Point(40, 84), control1: Point(66, 0), control2: Point(92, 50))
            heart.close()
            canvas.fill(path: heart, color: PremultipliedColor(rgb: 0xFF2D55))
            // A wave band made of quadratic curves.
            var wave = Path()
            wave.move(to: Point(84, 40))
            wave.quad(to: Point(112, 40), control: Point(98, 10))
            wave.quad(to: Point(140, 40), control: Point(126, 70))
            wave.line(to: Point(152, 40))
            wave.line(to: Point(152, 88))
            wave.quad(to: Point(84, 88), control: Point(118, 60))
            wave.close()
            canvas.fill(path: wave, color: PremultipliedColor(rgb: 0x5AC8FA))
            // An ellipse and a translucent overlap (translated path).
            var ellipse = Path()
            ellipse.addEllipse(in: Rect(x: 0, y: 0, width: 50, height: 22))
            canvas.translate(dx: 94.5, dy: 6.25)
            canvas.fill(path: ellipse, color: PremultipliedColor(rgb: 0x000000, opacity: 0.35))
        }
    }

    @Test func strokeRoundedRect() {
        golden("stroke_rounded_rect", width: 160, height: 112) { canvas in
            // The feed card: white fill, 1 px #D1D1D6 border inside the edge.
            let card = Rect(x: 8, y: 8, width: 144, height: 44)
            canvas.fill(roundedRect: card, radius: 14, color: PremultipliedColor(rgb: 0xFFFFFF))
            canvas.stroke(roundedRect: card, radius: 14, lineWidth: 1, color: PremultipliedColor(rgb: 0xD1D1D6), alignment: .inside)
            canvas.stroke(
                roundedRect: Rect(x: 16.5, y: 64.5, width: 40, height: 36), radius: 8, lineWidth: 3,
                color: PremultipliedColor(rgb: 0x007AFF), alignment: .center)
            canvas.stroke(
                roundedRect: Rect(x: 70.25, y: 66.75, width: 30, height: 32), radius: 6, lineWidth: 2.5,
                color: PremultipliedColor(rgb: 0xFF3B30, opacity: 0.6), alignment: .outside)
            canvas.stroke(
                roundedRect: Rect(x: 114, y: 62, width: 36, height: 40), radius: 18, lineWidth: 1.5,
                color: PremultipliedColor(rgb: 0x1C1C1E), alignment: .inside)
        }
    }

    @Test func strokePath() {
        golden("path_stroke", width: 160, height: 96) { canvas in
            var zigzag = Path()
            zigzag.move(to: Point(8, 40))
            for i in 1...5 { zigzag.line(to: Point(8 + Double(i) * 14, i % 2 == 0 ? 40 : 12)) }
            canvas.stroke(path: zigzag, lineWidth: 4, color: PremultipliedColor(rgb: 0x007AFF))
            var curve = Path()
            curve.move(to: Point(90, 40))
            curve.cubic(to: Point(152, 40), control1: Point(100, -10), control2: Point(140, 90))
            canvas.stroke(path: curve, lineWidth: 6, color: PremultipliedColor(rgb: 0xFF3B30, opacity: 0.7), roundCaps: true)
            var triangle = Path()
            triangle.move(to: Point(20, 88)); triangle.line(to: Point(50, 52)); triangle.line(to: Point(80, 88)); triangle.close()
            canvas.stroke(path: triangle, lineWidth: 3, color: PremultipliedColor(rgb: 0x1C1C1E))
            // Hairlines at several angles.
            for k in 0..<6 {
                var line = Path()
                line.move(to: Point(96 + Double(k) * 10, 90))
                line.line(to: Point(100 + Double(k) * 12, 56))
                canvas.stroke(path: line, lineWidth: 1, color: PremultipliedColor(rgb: 0x34C759), roundCaps: k % 2 == 1)
            }
        }
    }

    @Test func clipRect() {
        golden("clip_rect") { canvas in
            canvas.translate(dx: 10, dy: 6)
            canvas.save()
            canvas.clip(to: Rect(x: 10, y: 10, width: 60, height: 50))
            canvas.fill(circleCenter: Point(40, 35), radius: 34, color: PremultipliedColor(rgb: 0x34C759))
            canvas.fill(
                roundedRect: Rect(x: 50, y: 40, width: 60, height: 40), radius: 10, color: PremultipliedColor(rgb: 0x007AFF, opacity: 0.7))
            canvas.restore()
            canvas.fill(rect: Rect(x: 10, y: 10, width: 60, height: 1), color: PremultipliedColor(rgb: 0x000000, opacity: 0.3))
        }
    }

    @Test func clipRoundedRect() {
        golden("clip_rounded_rect", width: 160, height: 112) { canvas in
            let image = ringImage(size: 64)
            canvas.save()
            canvas.clip(toRoundedRect: Rect(x: 8.5, y: 8.5, width: 90, height: 70), radius: 16)
            canvas.draw(image: image, in: Rect(x: 0, y: 0, width: 120, height: 100), filter: .bilinear)
            canvas.fill(rect: Rect(x: 0, y: 50, width: 160, height: 10), color: PremultipliedColor(rgb: 0x000000, opacity: 0.5))
            // Nested: a second rounded clip intersects the first.
            canvas.clip(toRoundedRect: Rect(x: 60, y: 30, width: 60, height: 60), radius: 30)
            canvas.fill(rect: Rect(x: 0, y: 0, width: 160, height: 112), color: PremultipliedColor(rgb: 0xFFCC00, opacity: 0.8))
            canvas.restore()
            // A stroke inside a rounded clip.
            canvas.save()
            canvas.clip(toRoundedRect: Rect(x: 104, y: 70, width: 50, height: 36), radius: 12)
            canvas.stroke(
                roundedRect: Rect(x: 96, y: 80, width: 40, height: 40), radius: 6, lineWidth: 4, color: PremultipliedColor(rgb: 0xFF2D55))
            canvas.fill(circleCenter: Point(150, 104), radius: 10, color: PremultipliedColor(rgb: 0x5856D6))
            canvas.restore()
        }
    }

    @Test func imageBilinearUp() {
        golden("image_bilinear_up", width: 160, height: 96) { canvas in
            let image = testImage()
            canvas.draw(image: image, in: Rect(x: 4, y: 4, width: 72, height: 72), filter: .bilinear)
            canvas.draw(image: image, in: Rect(x: 84.5, y: 4.5, width: 72, height: 72), filter: .nearest)
            canvas.draw(image: image, in: Rect(x: 4, y: 80, width: 152, height: 12), filter: .bilinear, opacity: 0.5)
        }
    }

    @Test func imageBilinearDown() {
        golden("image_bilinear_down", width: 128, height: 64) { canvas in
            let image = ringImage(size: 96)
            canvas.draw(image: image, in: Rect(x: 4, y: 4, width: 48, height: 48), filter: .bilinear)
            canvas.draw(image: image, in: Rect(x: 60.3, y: 8.6, width: 30.5, height: 30.5), filter: .bilinear)
            canvas.draw(image: image, in: Rect(x: 96, y: 8, width: 24, height: 48), filter: .nearest)
        }
    }

    @Test func imageHalvedDown() {
        // The same reductions as image_bilinear_down, drawn from pre-halved copies: no moiré.
        golden("image_halved_down", width: 128, height: 64) { canvas in
            let image = ringImage(size: 96)
            let half = image.halved(), quarter = half.halved()
            canvas.draw(image: half, in: Rect(x: 4, y: 4, width: 48, height: 48), filter: .bilinear)
            canvas.draw(image: quarter, in: Rect(x: 60.3, y: 8.6, width: 30.5, height: 30.5), filter: .bilinear)
            canvas.draw(image: half.halved().halved(), in: Rect(x: 96, y: 8, width: 24, height: 48), filter: .bilinear)
        }
    }

    @Test func maskTint() {
        golden("mask_tint", width: 128, height: 64) { canvas in
            // A ring-shaped mask with soft edges, like an anti-aliased glyph.
            let size = 24
            var coverage = [UInt8](repeating: 0, count: size * size)
            for y in 0..<size {
                for x in 0..<size {
                    let dx = Double(x) + 0.5 - 12, dy = Double(y) + 0.5 - 12
                    let d = abs((dx * dx + dy * dy).squareRoot() - 8)
                    coverage[y * size + x] = UInt8(max(0, min(1, 3 - d)) * 255 / 2 + (d < 1.5 ? 127 : 0))
                }
            }
            let mask = AlphaMask(width: size, height: size, coverage: coverage)
            canvas.fill(rect: Rect(x: 64, y: 0, width: 64, height: 64), color: PremultipliedColor(rgb: 0x1C1C1E))
            canvas.blend(mask: mask, x: 8, y: 8, color: PremultipliedColor(rgb: 0x1C1C1E))
            canvas.blend(mask: mask, x: 36, y: 8, color: PremultipliedColor(rgb: 0xFF3B30, opacity: 0.6))
            canvas.blend(mask: mask, x: 72, y: 8, color: PremultipliedColor(rgb: 0xFFFFFF))
            canvas.translate(dx: 0.4, dy: 0.6)  // glyph origins stay on whole pixels
            canvas.blend(mask: mask, x: 100, y: 30, color: PremultipliedColor(rgb: 0x34C759))
            canvas.blend(mask: mask, x: 52, y: 34, color: PremultipliedColor(rgb: 0x007AFF, opacity: 0.8))  // straddles the edge
        }
    }

    @Test func scrollCopy() {
        golden("scroll_copy", width: 96, height: 96) { canvas in
            for i in 0..<6 {
                canvas.fill(
                    roundedRect: Rect(x: 8, y: 4 + Double(i) * 20, width: 80, height: 16), radius: 6,
                    color: PremultipliedColor(rgb: i % 2 == 0 ? 0x007AFF : 0x34C759))
                canvas.fill(circleCenter: Point(18, 12 + Double(i) * 20), radius: 5, color: PremultipliedColor(rgb: 0xFFFFFF))
            }
            // Scroll the list up by 27 px (overlapping blit), then redraw the exposed strip.
            canvas.copy(rect: IntRect(x: 0, y: 27, width: 96, height: 69), dx: 0, dy: -27)
            canvas.save()
            canvas.clip(to: Rect(x: 0, y: 69, width: 96, height: 27))
            canvas.clear(color: PremultipliedColor(rgb: 0xF2F2F7))
            canvas.fill(roundedRect: Rect(x: 8, y: 73, width: 80, height: 16), radius: 6, color: PremultipliedColor(rgb: 0xFF9500))
            canvas.restore()
            // And a sideways blit of a block (overlapping to the right).
            canvas.copy(rect: IntRect(x: 8, y: 0, width: 40, height: 30), dx: 10, dy: 0)
        }
    }

    @Test func feedCard() {
        golden("feed_card", width: 320, height: 160) { canvas in
            let card = Rect(x: 24, y: 20, width: 272, height: 120)
            canvas.fill(roundedRect: card, radius: 14, color: PremultipliedColor(rgb: 0xFFFFFF))
            canvas.stroke(roundedRect: card, radius: 14, lineWidth: 1, color: PremultipliedColor(rgb: 0xD1D1D6), alignment: .inside)
            canvas.fill(circleCenter: Point(card.minX + 60, card.minY + 60), radius: 40, color: PremultipliedColor(rgb: 0xE5C07A))
            // Page-control capsule with dots.
            canvas.fill(
                roundedRect: Rect(x: 96, y: 106, width: 128, height: 28), radius: 14,
                color: PremultipliedColor(rgb: 0x000000, opacity: 0.30))
            for k in 0..<7 {
                canvas.fill(
                    circleCenter: Point(112 + Double(k) * 16, 120), radius: 4,
                    color: PremultipliedColor(rgb: 0xFFFFFF, opacity: k == 2 ? 1 : 0.45))
            }
            // Scroll thumb at a fractional position.
            canvas.fill(
                roundedRect: Rect(x: 312, y: 33.71, width: 5, height: 36), radius: 2.5,
                color: PremultipliedColor(rgb: 0x000000, opacity: 0.35))
        }
    }
}
