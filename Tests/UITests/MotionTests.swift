import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Layout never disturbs motion: a label that changes while a list is flung or a
/// carousel snaps leaves them to end where they would have without it; a change of size lets
/// them carry on in the new bounds, a page snap always ending on a page.
@Suite struct MotionTests {
    /// A clock label over `sv` (which fills the rest), in a window of `width`x`height`.
    func clock(over sv: ScrollView, width: Int, height: Int) throws -> (Window, Label, ScrollView) {
        let clock = Label("09:41:00", id: "clock", size: 20, maxLines: 1)
        let root = Stack(.vertical, id: "root", children: [clock, sv.flexible()])
        let w = try makeWindow(root, width: width, height: height)
        w.frames(from: 0, to: 0)
        return (w, clock, sv)
    }

    /// A header with a clock over a list of 100 rows of 50 pt.
    func clockOverList() throws -> (Window, Label, ScrollView) { try clock(over: list(100), width: 400, height: 400) }

    /// A 300 pt wide pager of five pages under a clock label.
    func clockOverPager() throws -> (Window, Label, ScrollView) { try clock(over: pagingScrollView(5), width: 300, height: 240) }

    /// Frames at 60 Hz from `from` to `to`; `tick` runs before the frames at each whole second
    /// (the README's clock: `window.every(1) { clock.text = … }`).
    func run(_ w: Window, from: Double, to: Double, tick: ((Int) -> Void)?) {
        var second = Int(from.rounded(.down)) + 1
        var t = from
        while t < to {
            let next = min(to, Double(second))
            w.frames(from: t, to: next)
            t = next
            if t == Double(second) { tick?(second); second += 1 }
        }
        w.frames(from: to, to: to)
    }

    @Test func aTickingLabelLeavesAFlickAlone() throws {
        var ends: [Double] = []
        var phasesAfterTick: [ScrollPhase] = []
        for ticking in [false, true] {
            let (w, clock, sv) = try clockOverList()
            // Released at 0.566 s: the clock ticks at 1 s while the list decelerates.
            let released = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.5, duration: 0.064)
            #expect(approx(released, 0.568))
            run(w, from: released, to: 1.05, tick: ticking ? { clock.text = "09:41:0\($0)" } : nil)
            phasesAfterTick.append(sv.sampledPhase)
            run(w, from: 1.05, to: 6, tick: ticking ? { clock.text = "09:41:0\($0)" } : nil)
            #expect(sv.sampledPhase == .idle)
            ends.append(sv.sampledOffset.y)
        }
        #expect(phasesAfterTick == [.decelerating, .decelerating])
        #expect(ends[0] > 1000)
        #expect(ends[0] == ends[1])
    }

    @Test func aTickingLabelLeavesAPageSnapAlone() throws {
        var ends: [Point] = []
        for ticking in [false, true] {
            let (w, clock, pager) = try clockOverPager()
            // A slow swipe from page 0 that ends past the middle: it snaps to page 1 across the tick.
            let released = w.drag(from: Point(x: 250, y: 100), to: Point(x: 80, y: 100), at: 0.6, duration: 0.36)
            run(w, from: released, to: 1.02, tick: ticking ? { clock.text = "09:41:0\($0)" } : nil)
            #expect(pager.sampledPhase == .snapping)
            run(w, from: 1.02, to: 4, tick: ticking ? { clock.text = "09:41:0\($0)" } : nil)
            #expect(pager.sampledPhase == .idle)
            ends.append(pager.sampledOffset)
        }
        #expect(ends[0] == Point(x: 300, y: 0))
        #expect(ends[1] == ends[0])
    }

    @Test func aHeaderThatGrowsLetsTheFlingCarryOn() throws {
        let (w, clock, sv) = try clockOverList()
        let released = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.5, duration: 0.064)
        w.frames(from: released, to: 0.8)
        let before = sv.sampledOffset.y, viewport = sv.frame.height
        // Two lines now: the list's viewport shrinks while it moves.
        clock.maxLines = 0
        clock.text = "A much longer headline that wraps onto a second line in this narrow window"
        w.frames(from: 0.8, to: 0.85)
        #expect(sv.frame.height < viewport)
        #expect(sv.sampledPhase == .decelerating)
        #expect(sv.sampledOffset.y > before)
        w.frames(from: 0.85, to: 6)
        #expect(sv.sampledPhase == .idle)
        #expect(sv.sampledOffset.y > 1000)
        #expect(sv.sampledOffset.y <= sv.controller.maximumOffset(.vertical))
    }

    @Test func aRotationDuringAPageSnapEndsOnAPage() throws {
        let (w, _, pager) = try clockOverPager()
        let released = w.drag(from: Point(x: 250, y: 100), to: Point(x: 80, y: 100), at: 0.6, duration: 0.36)
        w.frames(from: released, to: 1.02)
        #expect(pager.sampledPhase == .snapping)
        // The panel turns to portrait while the pager snaps to page 1.
        w.resize(width: 240, height: 300)
        w.frames(from: 1.03, to: 4, into: PixelBuffer(width: 240, height: 300))
        #expect(pager.frame.width == 240)
        #expect(pager.sampledPhase == .idle)
        #expect(pager.sampledOffset == Point(x: 240, y: 0))
        #expect(pager.currentPage == 1)
    }

    @Test func resizingToTheSameSizesIsNoChange() {
        var e = ScrollController(viewportSize: Size(width: 400, height: 400), contentSize: Size(width: 400, height: 5000))
        e.release(velocity: Point(x: 0, y: 2000), at: 0)
        let untouched = e
        e.resize(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 5000), at: 0.5)
        for t in [0.5, 1.0, 2.0, 5.0] { #expect(e.state(at: t) == untouched.state(at: t)) }
        // A taller content: the same fling, only with more room.
        e.resize(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 9000), at: 0.5)
        #expect(e.state(at: 0.5).phase == .decelerating)
        #expect(abs(e.state(at: 6).offset.y - untouched.state(at: 6).offset.y) < 0.5)
    }
}
