import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Rest through the window: once nothing moves or fades, the window is at rest.
@Suite struct RestTests {
    @Test func aPagerWithAPageControlRestsAsSoonAsItSettles() throws {
        let pager = pagingScrollView(5)
        let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: .minimal)
        let w = try makeWindow(Overlay(children: [pager, control]), width: 400, height: 200)
        w.frames(from: 0, to: 0.1)
        #expect(w.isAtRest(at: 0.1))  // no indicator to flash: the only axis has a page control
        w.drag(from: Point(x: 300, y: 100), to: Point(x: 100, y: 100), at: 0.2, duration: 0.1)
        var t = 0.31
        while !pager.controller.isAtRest(at: t) { t += 1 / 60 }
        w.frames(from: 0.31, to: t)
        #expect(pager.currentPage == 1)
        #expect(w.isAtRest(at: t + 1 / 60))
        // A list that fits shows no indicator and rests at once too.
        let short = list(3)
        let w2 = try makeWindow(short)
        w2.frames(from: 0, to: 0.05)
        #expect(w2.isAtRest(at: 0.05))
    }

    /// A lift reported at no usable place or time (NaN, 1e300: a remote client, a broken
    /// driver) still lifts the finger: the list flings from where the finger was last seen
    /// and comes to rest, instead of being held for good.
    @Test(arguments: [(Double.nan, 100.0, 0.0), (100, 1e300, 0), (100, 100, Double.nan)])
    func aLiftAtNoUsablePlaceOrTimeStillLifts(x: Double, y: Double, lateness: Double) throws {
        let sv = list(100)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.1)
        let t = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.2, duration: 0.1, lift: false)
        w.touch(.up, x, y, at: t + 0.004 + lateness)
        w.frames(from: t + 0.02, to: t + 6)
        #expect(w.isAtRest(at: t + 6 + 1 / 60))
        #expect(sv.controller.state(at: t + 6).offset.y > 200)  // the drag's 200 pt and a fling
    }

    /// A fling ends between two frames: the engine is at rest, but the screen still shows the
    /// last moving frame and the indicator. The window is not at rest until frames show both.
    @Test func notAtRestUntilAFrameShowsTheSettledContentAndTheIndicatorHasFaded() throws {
        let sv = list(100)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 2)
        #expect(w.isAtRest(at: 2))
        let up = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 3, duration: 0.1)
        var t = up
        while !sv.controller.isAtRest(at: t + 1 / 60) { t += 1 / 60; w.frames(from: t, to: t) }
        let settled = t + 1 / 60
        #expect(sv.controller.isAtRest(at: settled))
        #expect(!w.isAtRest(at: settled))  // the last frame drawn still shows motion
        w.frames(from: settled, to: settled)
        #expect(!w.isAtRest(at: settled))  // the indicator lingers
        #expect(!w.isAtRest(at: settled + 0.7))  // and fades
        w.frames(from: settled, to: settled + 0.81)
        #expect(sv.indicatorGeometry(at: settled + 0.81).isEmpty)
        #expect(w.isAtRest(at: settled + 0.81))
    }
}
