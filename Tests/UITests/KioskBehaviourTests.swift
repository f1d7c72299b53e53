import Controls
import Geometry
import Observation
import Raster
import Scrolling
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

/// What a kiosk needs of an app: the idle reset for the next visitor, zoom from code, and a
/// tall picture seen whole in a zoomable view.
@Suite struct KioskBehaviourTests {
    func zoomable(_ image: PixelBuffer) -> ScrollView {
        var config = ScrollConfiguration()
        config.minimumScale = 1
        config.maximumScale = 4
        return ScrollView(id: "map", configuration: config, content: ImageView(image, id: "picture", contentMode: .fit))
    }

    /// A map taller than the screen, fitted: all of it shows at the smallest scale, letterboxed.
    @Test func aFittedPictureInAZoomableViewShowsWhole() throws {
        let map = PixelBuffer(width: 200, height: 800, fill: PremultipliedColor(rgb: 0x2A9D8F))
        let sv = zoomable(map)
        let w = try makeWindow(sv, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        let picture = try #require(sv.content as? ImageView)
        #expect(picture.frame.size == Size(width: 400, height: 400))
        #expect(picture.imageRect == Rect(x: 150, y: 0, width: 100, height: 400))
        let state = w.state(at: 0.1, frameNumber: 0).scrollViews[0]
        #expect(state.contentSize == [400, 400] && state.offset == [0, 0])
    }

    @Test func setZoomZoomsAroundTheMiddleOnTheSpring() throws {
        let sv = zoomable(PixelBuffer(width: 400, height: 400, fill: PremultipliedColor(rgb: 0x2A9D8F)))
        let w = try makeWindow(sv, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        sv.setZoom(2)
        w.frames(from: 0.1, to: 0.15)
        let midway = w.state(at: 0.15, frameNumber: 0).scrollViews[0].scale
        #expect(midway > 1 && midway < 2)
        w.frames(from: 0.15, to: 2)
        let state = w.state(at: 2, frameNumber: 0).scrollViews[0]
        #expect(state.scale == 2 && state.offset == [200, 200])
        sv.setZoom(.nan)
        sv.setZoom(10, animated: false)  // clamped to the maximum
        #expect(w.state(at: 2.1, frameNumber: 0).scrollViews[0].scale == 4)
    }

    @Observable final class Visit { var showingCart = false }

    /// Left alone, the kiosk returns to its start: the sheet closes, the navigation stack goes
    /// back to its first screen, the list to its top and the map to its smallest zoom. Input
    /// keeps putting the reset off; the app's hook may keep everything as it is.
    @Test func anIdleKioskReturnsToItsStart() throws {
        let visit = Visit()
        let list = list(60)
        let map = zoomable(PixelBuffer(width: 400, height: 400, fill: PremultipliedColor(rgb: 0x2A9D8F)))
        let nav = NavigationStack(id: "nav", root: list)
        let root = Stack(.vertical, children: [nav.flexible(), map.frame(height: 100)])
            .sheet(id: "cart", isPresented: Binding(visit, \.showingCart)) { Label("Cart") }
        let w = try makeWindow(root, width: 400, height: 600)
        w.idleResetSeconds = 30
        var t = 0.1
        nav.push(Box(id: "detail", fill: .white))
        list.scroll(to: Point(x: 0, y: 900), animated: false)
        map.setZoom(3, animated: false)
        visit.showingCart = true
        _ = w.timers.runDue(upTo: t)
        w.frames(from: t, to: 2)
        #expect(w.state(at: 2, frameNumber: 0).modal?.kind == "sheet")
        // A key at 20 s puts the reset off until 50 s (a touch would close the sheet).
        w.key(.tab, at: 20)
        t = 20.1
        while t < 49 { _ = w.timers.runDue(upTo: t); w.frames(from: t, to: t + 1, hz: 1); t += 1 }
        #expect(nav.screens.count == 2 && visit.showingCart)
        while t < 53 { _ = w.timers.runDue(upTo: t); w.frames(from: t, to: t + 1, hz: 10); t += 1 }
        _ = w.timers.runDue(upTo: t)
        w.frames(from: t, to: t + 1)
        #expect(!visit.showingCart && nav.screens.count == 1)
        #expect(list.sampledOffset.y == 0)
        #expect(w.state(at: t + 1, frameNumber: 0).scrollViews.first { $0.id == "map" }?.scale == 1)

        // The app's hook says it reset itself: nothing else moves.
        var calls = 0
        w.onIdleReset = {
            calls += 1; return true
        }
        list.scroll(to: Point(x: 0, y: 500), animated: false)
        t += 2
        w.tap(200, 300, at: t)  // its lift at t + 0.06 counts: the first check waits out the rest
        _ = w.timers.runDue(upTo: t + 30.03)
        #expect(calls == 0)
        _ = w.timers.runDue(upTo: t + 31)
        w.frames(from: t + 31, to: t + 32)
        #expect(calls == 1)
        #expect(list.sampledOffset.y == 500)
    }

    /// The person is warned before the reset and any input then starts the wait again: the
    /// warning comes `idleResetWarningSeconds` before each reset, never after input put it off.
    @Test func theIdleResetIsAnnouncedFirstAndInputPutsItOff() throws {
        let w = try makeWindow(list(20), width: 400, height: 600)
        var warnings: [Double] = [], resets: [Double] = []
        w.idleResetSeconds = 60
        w.idleResetWarningSeconds = 10
        w.onIdleResetWarning = { warnings.append(w.time) }
        w.onIdleReset = {
            resets.append(w.time); return true
        }
        w.key(.tab, at: 0)
        for t in stride(from: 1.0, through: 200, by: 1) {
            if t == 55 { w.key(.tab, at: t) }  // the person answers the warning
            _ = w.timers.runDue(upTo: t)
        }
        // After a reset the wait starts again with the next visitor's first input. (The loop
        // runs the timers once a second here: each fires within that second.)
        #expect(warnings.count == 2 && abs(warnings[0] - 50) <= 1 && abs(warnings[1] - 105) <= 1, "\(warnings)")
        #expect(resets.count == 1 && abs(resets[0] - 115) <= 1, "\(resets)")
        // A warning as long as the wait is no warning: the audit says so.
        w.idleResetWarningSeconds = 60
        #expect(!w.warnsBeforeIdleReset)
    }
}
