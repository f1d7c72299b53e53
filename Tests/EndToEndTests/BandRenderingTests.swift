import Geometry
import Raster
import TestSupport
import Testing

/// A window drawing its damage in bands on several threads (`renderThreads`) shows what one
/// thread shows, bit for bit, through full frames, scroll frames that move pixels and draw a
/// strip, a pinch that resamples a photo every frame, and page swipes; the display copies
/// each frame's damage to the screen in as many bands.
@Suite struct BandRenderingTests {
    static func screenshots(threads: Int) throws -> [(name: String, image: PixelBuffer)] {
        let app = try makeCatalog()
        app.window.renderThreads = threads
        let photo = try frameOf("tab-photo", in: app), pages = try frameOf("tab-pages", in: app)
        var s = Script()
        s.wait(20); s.shot("start")
        s.drag(Point(x: 500, y: 600), Point(x: 500, y: 250), ms: 80)
        s.wait(50); s.shot("flung"); s.wait(230); s.shot("flung-later")
        s.tap(Point(x: photo.midX, y: photo.midY)); s.wait(300)
        let c = Point(x: 520, y: 360)
        s.touch("down", Point(x: c.x - 40, y: c.y), id: 0)
        s.touch("down", Point(x: c.x + 40, y: c.y), id: 1)
        for i in 1...12 {
            s.wait(10)
            let d = 40.0 + Double(i) * 13
            s.touch("move", Point(x: c.x - d, y: c.y + Double(i)), id: 0)
            s.touch("move", Point(x: c.x + d, y: c.y - Double(i)), id: 1)
        }
        s.shot("pinched")
        s.up(Point(x: c.x - 196, y: c.y + 12), id: 0); s.up(Point(x: c.x + 196, y: c.y - 12), id: 1)
        s.wait(120); s.shot("settling")
        s.tap(Point(x: pages.midX, y: pages.midY)); s.wait(300)
        s.drag(Point(x: 800, y: 300), Point(x: 500, y: 300), ms: 96)
        s.wait(90); s.shot("swiping")
        let result = try run(s, app: app)
        return result.output.screenshots.map { ($0.name, $0.image) }
    }

    @Test func threeThreadsDrawWhatOneDraws() throws {
        let one = try Self.screenshots(threads: 1), three = try Self.screenshots(threads: 3)
        #expect(one.map(\.name) == ["start", "flung", "flung-later", "pinched", "settling", "swiping"])
        #expect(one.map(\.name) == three.map(\.name))
        for (a, b) in zip(one, three) {
            #expect(compare(b.image, a.image).mismatches == 0, "\(a.name) differs on 3 threads")
        }
        // The screenshots differ from one another: the script moved things.
        #expect(compare(one[1].image, one[0].image).mismatches > 1000)
        #expect(compare(one[4].image, one[3].image).mismatches > 1000)
    }
}
