import Geometry
import LinuxDRM
import Raster
import Runtime
import Testing

@Suite struct RotatedCopy {
    /// A canvas whose every pixel is distinct.
    func canvas(_ w: Int, _ h: Int) -> PixelBuffer {
        let b = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b.pixels[y * b.stride + x] = 0xFF00_0000 | UInt32(y << 12 | x) } }
        return b
    }

    @Test(arguments: Rotation.allCases, [1, 3])
    func matchesPerPixelMapping(rotation: Rotation, threads: Int) {
        let cw = 37, ch = 23
        let src = canvas(cw, ch)
        let panel = rotation == .clockwise90 || rotation == .clockwise270 ? (ch, cw) : (cw, ch)
        let dstStride = panel.0 + 5  // a pitch wider than the row, as dumb buffers have
        let sentinel: UInt32 = 0x1234_5678
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: dstStride * panel.1)
        defer { storage.deallocate() }
        storage.initialize(repeating: sentinel, count: dstStride * panel.1)
        let dst = PixelSpan(base: storage, width: panel.0, height: panel.1, stride: dstStride)
        var region = Region()
        region.add(IntRect(x: 3, y: 2, width: 10, height: 7))
        region.add(IntRect(x: 30, y: 15, width: 20, height: 20))  // sticks out: clipped
        region.add(IntRect(x: 14, y: 0, width: 3, height: 23))  // beside the first: one band cuts both
        copyDamage(from: src.span, to: dst, region: region, rotation: rotation, bands: BandRenderer(threads: threads))

        var expected = [UInt32](repeating: sentinel, count: dstStride * panel.1)
        for r in region.rects {
            let c = r.intersection(src.bounds)
            for y in c.y..<c.maxY {
                for x in c.x..<c.maxX {
                    let p = rotation.panelPixel(canvasX: x, canvasY: y, canvasWidth: cw, canvasHeight: ch)
                    expected[p.y * dstStride + p.x] = src[x, y]
                }
            }
        }
        let actual = Array(UnsafeBufferPointer(start: storage, count: dstStride * panel.1))
        #expect(actual == expected)
    }

    @Test(arguments: Rotation.allCases)
    func panelRectCoversMappedPixels(rotation: Rotation) {
        let cw = 40, ch = 30
        let r = IntRect(x: 5, y: 7, width: 11, height: 4)
        let p = rotation.panelRect(canvasRect: r, canvasWidth: cw, canvasHeight: ch)
        #expect(p.area == r.area)
        for (x, y) in [(r.x, r.y), (r.maxX - 1, r.y), (r.x, r.maxY - 1), (r.maxX - 1, r.maxY - 1)] {
            let q = rotation.panelPixel(canvasX: x, canvasY: y, canvasWidth: cw, canvasHeight: ch)
            #expect(q.x >= p.x && q.x < p.maxX && q.y >= p.y && q.y < p.maxY)
        }
    }
}
