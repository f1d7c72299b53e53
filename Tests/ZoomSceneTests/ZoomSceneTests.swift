import Geometry
import ImageCodecs
import Raster
import Runtime
import Testing
import TestSupport
import ZoomScene

/// Benchmark scene R2 (../shared/bench/zoom-scene.md) drawn as the spec defines it, and in bands
/// on several threads with the same result.
@Suite struct ZoomSceneTests {

    /// An opaque picture with gradients and a hard edge, so misplaced samples show.
    static func picture(width: Int, height: Int) -> PixelBuffer {
        let b = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / max(1, width - 1)), g = UInt32(y * 255 / max(1, height - 1))
                let blue: UInt32 = (x / 5 + y / 7) % 2 == 0 ? 40 : 220
                b[x, y] = 0xFF00_0000 | r << 16 | g << 8 | blue
            }
        }
        return b
    }

    /// The spec's sample for canvas pixel (x, y): source point ((x + ½ − W/2)/s + iw/2, ...),
    /// bilinear over the four nearest pixel centres, edges clamped; in exact arithmetic.
    static func reference(_ scene: ZoomScene, frame f: Int, x: Int, y: Int) -> [Double] {
        let s = scene.scale(frame: f), image = scene.image
        let u = (Double(x) + 0.5 - Double(scene.width) / 2) / s + Double(image.width) / 2 - 0.5
        let v = (Double(y) + 0.5 - Double(scene.height) / 2) / s + Double(image.height) / 2 - 0.5
        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
        let fx = u - Double(x0), fy = v - Double(y0)
        func px(_ i: Int, _ j: Int) -> UInt32 { image[min(max(i, 0), image.width - 1), min(max(j, 0), image.height - 1)] }
        return [0, 8, 16].map { shift -> Double in
            func c(_ p: UInt32) -> Double { Double((p >> UInt32(shift)) & 0xFF) }
            let top = c(px(x0, y0)) * (1 - fx) + c(px(x0 + 1, y0)) * fx
            let bottom = c(px(x0, y0 + 1)) * (1 - fx) + c(px(x0 + 1, y0 + 1)) * fx
            return top * (1 - fy) + bottom * fy
        }
    }

    static func render(_ scene: ZoomScene, frame f: Int, threads: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: scene.width, height: scene.height)  // transparent: what is drawn is opaque
        BandRenderer(threads: threads).draw(rows: 0..<scene.height) { _, rows, cache in
            scene.draw(frame: f, rows: rows, into: buffer.span, cache: cache)
        }
        return buffer
    }

    /// Every canvas pixel is written (the edges continue past the picture at the fit zoom) and
    /// is the spec's bilinear sample within the 8-bit weights' rounding: mean difference ≤ ½,
    /// none above 2.
    @Test(arguments: [(160, 90), (90, 160), (101, 77)])
    func framesAreTheSpecsBilinearSamples(width: Int, height: Int) throws {
        let scene = try #require(ZoomScene(image: Self.picture(width: 64, height: 44), width: width, height: height, frames: 5))
        for f in 0..<5 {
            let frame = Self.render(scene, frame: f, threads: 1)
            var total = 0.0, largest = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    let p = frame[x, y], expected = Self.reference(scene, frame: f, x: x, y: y)
                    #expect(p >> 24 == 0xFF)
                    for (i, shift) in [0, 8, 16].enumerated() {
                        let d = abs(Double((p >> UInt32(shift)) & 0xFF) - expected[i])
                        total += d; largest = max(largest, d)
                    }
                }
            }
            let mean = total / Double(3 * width * height)
            #expect(mean <= 0.5 && largest <= 2, "frame \(f) at \(width)x\(height): mean \(mean), largest \(largest)")
        }
    }

    /// Bands on 2, 3 and 4 threads give the one thread's frame, bit for bit, with the shipped
    /// photo at a size whose rows do not split evenly.
    @Test func bandsOnThreadsEqualOneThread() throws {
        let photo = try Image.read(path: testsDirectory + "/../Board/content/images/zoom.png")
        let scene = try #require(ZoomScene(image: photo, width: 322, height: 181, frames: 4))
        for f in [0, 3] {
            let one = Self.render(scene, frame: f, threads: 1)
            for threads in [2, 3, 4] {
                let banded = Self.render(scene, frame: f, threads: threads)
                #expect(compare(banded, one).mismatches == 0, "frame \(f) on \(threads) threads")
            }
        }
        // A band has a row at least; bands of a range start at its first row.
        #expect(BandRenderer(threads: 8).bands(of: 0..<3) == [0..<1, 1..<2, 2..<3])
        #expect(BandRenderer(threads: 3).bands(of: 10..<20) == [10..<13, 13..<16, 16..<20])
        #expect(BandRenderer(threads: 0).threads == 1)
        // A small damage is drawn in one band, on this thread; a full frame in as many as pay.
        let four = BandRenderer(threads: 4)
        #expect(four.bandCount(forPixels: 1920 * 30) == 1 && four.bandCount(forPixels: 150_000) == 2)
        #expect(four.bandCount(forPixels: 1920 * 1080) == 4 && four.bandCount(forPixels: 0) == 1)
        var bands = 0
        four.draw(rows: 0..<1080, pixels: 1920 * 30) { _, rows, _ in
            bands += 1
            #expect(rows == 0..<1080)
        }
        #expect(bands == 1)
    }

    @Test func aSceneNeedsTwoFramesAndPixels() {
        let photo = Self.picture(width: 4, height: 4)
        #expect(ZoomScene(image: photo, width: 100, height: 100, frames: 1) == nil)
        #expect(ZoomScene(image: photo, width: 0, height: 100, frames: 10) == nil)
        #expect(ZoomScene(image: PixelBuffer(width: 0, height: 0), width: 10, height: 10, frames: 10) == nil)
    }
}
