// The rasteriser as a little drawing program: paths, strokes, rounded rectangles, circles,
// clips, translations, masks, images at any scale (edges extended or not) and scroll blits,
// with coordinates that include NaN, infinities and 1e300, on a span with an odd stride
// between guard rows.
import Geometry
import Raster

func fuzzRaster(_ bytes: UnsafeRawBufferPointer) {
    var input = FuzzInput(bytes)
    let target = GuardedSpan(
        width: input.int(in: 1...97), height: input.int(in: 1...61),
        padding: input.int(in: 0...5), fill: input.bool() ? 0xFF20_4060 : 0)
    var canvas = Canvas(span: target.span, cache: RasterCache(maximumEntries: 8))
    let image = fuzzImage(&input)
    var operations = 0
    while !input.isAtEnd && operations < 64 {
        operations += 1
        let color = PremultipliedColor(Color(red: input.byte(), green: input.byte(), blue: input.byte(), alpha: input.byte()))
        switch input.byte() % 16 {
        case 0: canvas.fill(rect: input.rect(), color: color)
        case 1: canvas.fill(roundedRect: input.rect(), radius: input.coordinate(), color: color)
        case 2:
            canvas.stroke(
                roundedRect: input.rect(), radius: input.coordinate(), lineWidth: input.coordinate(limit: 64),
                color: color, alignment: input.pick([.center, .inside, .outside]))
        case 3: canvas.fill(circleCenter: input.point(), radius: input.coordinate(), color: color)
        case 4: canvas.fill(path: fuzzPath(&input), rule: input.pick([.nonZero, .evenOdd]), color: color)
        case 5:
            canvas.stroke(
                path: fuzzPath(&input), lineWidth: input.coordinate(limit: 64), color: color,
                roundCaps: input.bool())
        case 6: canvas.clip(to: input.rect())
        case 7: canvas.clip(toRoundedRect: input.rect(), radius: input.coordinate())
        case 8:
            canvas.clip(
                toDeviceRect: IntRect(
                    x: input.int(in: -200...200), y: input.int(in: -200...200),
                    width: input.int(in: -50...300), height: input.int(in: -50...300)))
        case 9: canvas.translate(dx: input.coordinate(), dy: input.coordinate())
        case 10: canvas.save()
        case 11: canvas.restore()
        case 12:
            let dest = input.rect(limit: 400)
            let source = canvas.cache.source(for: dest.size, from: image)
            canvas.draw(
                image: source, in: dest, filter: input.pick([.nearest, .bilinear]),
                opacity: input.pick([1, 0.5, 0, -1, .nan, 2]), extendingEdges: input.bool())
        case 13:
            let (width, height) = (input.int(in: 0...40), input.int(in: 0...40))
            let mask = AlphaMask(width: width, height: height, coverage: (0..<width * height).map { _ in input.byte() })
            canvas.blend(mask: mask, x: input.int(in: -100...100), y: input.int(in: -100...100), color: color)
        case 14:
            canvas.copy(
                rect: IntRect(
                    x: input.int(in: -120...120), y: input.int(in: -120...120),
                    width: input.int(in: -20...200), height: input.int(in: -20...200)),
                dx: input.int(in: -150...150), dy: input.int(in: -150...150))
        default: canvas.clear(color: color)
        }
    }
    target.check()
}

/// A path of up to 24 elements; control points may be anything `coordinate()` gives.
private func fuzzPath(_ input: inout FuzzInput) -> Path {
    var path = Path()
    for _ in 0..<input.int(in: 0...24) {
        switch input.byte() % 8 {
        case 0: path.move(to: input.point(limit: 300))
        case 1, 2: path.line(to: input.point(limit: 300))
        case 3: path.quad(to: input.point(limit: 300), control: input.point(limit: 300))
        case 4: path.cubic(to: input.point(limit: 300), control1: input.point(limit: 300), control2: input.point(limit: 300))
        case 5: path.close()
        case 6: path.addRoundedRect(input.rect(limit: 300), radius: input.coordinate(limit: 100))
        default: path.addCircle(center: input.point(limit: 300), radius: input.coordinate(limit: 200))
        }
    }
    return path
}

/// An image of 1...40 px a side with premultiplied pixels from the input.
private func fuzzImage(_ input: inout FuzzInput) -> PixelBuffer {
    let image = PixelBuffer(width: input.int(in: 1...40), height: input.int(in: 1...40))
    let seed = UInt32(input.uint16())
    for y in 0..<image.height {
        for x in 0..<image.width {
            let a = UInt32((x * 37 + y * 11 + Int(seed)) & 0xFF)
            let c = a == 0 ? 0 : (seed &* UInt32(x + 1) &+ UInt32(y)) % (a + 1)
            image.pixels[y * image.stride + x] = a << 24 | c << 16 | (a - c) << 8 | c / 2
        }
    }
    return image
}
