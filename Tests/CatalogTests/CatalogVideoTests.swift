import AppContract
import Catalog
import Geometry
import Raster
import TestSupport
import Testing
import UI

/// The catalog's clips (`Board/content/video.json`): the attract loop until the first touch and
/// after the idle reset, and cards that play a clip in place of their picture, all on the
/// virtual clock, so their frames at chosen times are goldens.
@Suite struct CatalogVideoTests {
    static func catalog(_ width: Int, _ height: Int) throws -> Window {
        let built = AppFactory.catalog(
            manifestPath: testsDirectory + "/../Board/content/video.json", width: width, height: height, scaleFactor: 1,
            typography: try typography())
        #expect(built.problems.isEmpty, "\(built.problems)")
        return built.window
    }

    static func video(_ id: String, in window: Window, at t: Double) -> WindowState.VideoState? {
        window.state(at: t, frameNumber: 0).videos.first { $0.id == id }
    }

    @Test(arguments: [(800, 480), (480, 800)])
    func theAttractLoopUntilTheFirstTouchAndAfterTheIdleReset(width: Int, height: Int) throws {
        let window = try Self.catalog(width, height)
        window.idleResetSeconds = 6
        let frame = PixelBuffer(width: width, height: height)
        func run(_ from: Double, _ to: Double) {
            var t = from
            while t <= to + 1e-9 {
                _ = window.timers.runDue(upTo: t)
                _ = window.render(into: frame, at: t)
                t += 1.0 / 60
            }
        }
        run(0, 1.5)
        // Text is FreeType's: a channel may differ by 2 between its builds; the clip's pixels may not.
        assertGolden(frame, suite: "CatalogVideo", name: "attract-1.5s-\(width)x\(height)", maxChannelDelta: 2)
        #expect(Self.video("attract-video", in: window, at: 1.5)?.position == 1.5)
        let centre = Point(x: Double(width) / 2, y: Double(height) / 2)
        window.handle(InputEvent(.touch(.down, slot: 0, position: centre), time: 1.6))
        window.handle(InputEvent(.touch(.up, slot: 0, position: centre), time: 1.65))
        run(1.65 + 1.0 / 60, 2.5)
        #expect(window.root.view(withID: "attract")?.isHidden == true, "the first touch lets the visitor in")
        #expect(Self.video("attract-video", in: window, at: 2.5) == nil)
        let card = try #require(Self.video("clip-0-video", in: window, at: 2.5))
        #expect(card.state == "playing" && card.position == 2.5 && card.duration == 3)
        assertGolden(frame, suite: "CatalogVideo", name: "feed-2.5s-\(width)x\(height)", maxChannelDelta: 2)
        // Six seconds after the last touch the loop is back, from its start.
        run(2.5 + 1.0 / 60, 8.0)
        #expect(window.root.view(withID: "attract")?.isHidden == false)
        let attract = try #require(Self.video("attract-video", in: window, at: 8.0))
        #expect(attract.state == "playing" && abs(attract.position - (8.0 - 7.65)) < 0.02)
    }
}
