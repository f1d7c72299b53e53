import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// A navigation stack pushes with a slide, pops with the back button, Esc or an edge
/// swipe that follows the finger and completes or cancels by its velocity; the screen below
/// keeps its scroll position; the swipe yields to a carousel except from the edge.
@Suite struct NavigationTests {
    final class Log { var taps: [String] = []; var changes: [Int] = [] }

    /// A 400x400 window: a list of 40 rows (each pushes a detail screen with a carousel).
    func setup(log: Log = Log()) throws -> (Window, NavigationStack) {
        let rows = Stack(.vertical, id: "rows")
        var nav: NavigationStack!
        for i in 0..<40 {
            let r = row(i, height: 60, id: "item-\(i)")
            r.onTap = {
                log.taps.append("item-\(i)"); nav.push(detail(i), title: "Item \(i)")
            }
            rows.add(r)
        }
        let list = ScrollView(id: "list", content: rows)
        nav = NavigationStack(id: "nav", root: list, title: "Items")
        nav.onChange = { log.changes.append($0.count) }
        let w = try makeWindow(nav, width: 400, height: 400)
        w.frames(from: 0, to: 0)
        return (w, nav)
    }

    func detail(_ i: Int) -> View {
        let carousel = pagingScrollView(4, id: "carousel")
        return Stack(.vertical, id: "detail-\(i)", children: [carousel.frame(height: 200), Label("Item \(i)", size: 20)])
    }

    @Test func pushSlidesInAndTheBackButtonSlidesOut() throws {
        let log = Log()
        let (w, nav) = try setup(log: log)
        #expect(nav.bar.back.isHidden)
        #expect(nav.bar.title.text == "Items")
        w.tap(200, 100, at: 0.5)  // row 0 (the bar is 50 pt)
        #expect(log.taps == ["item-0"])
        w.frames(from: 0.56, to: 0.66)
        let moving = try #require(nav.slide)
        #expect(moving.kind == .push)
        #expect(moving.x > 0 && moving.x < 400)
        #expect(w.state(at: 0.66, frameNumber: 0).navigation.first?.transition == "push")
        w.frames(from: 0.66, to: 2)
        #expect(nav.slide == nil)
        #expect(nav.screens.map(\.id) == ["list", "detail-0"])
        #expect(nav.children.count == 2)  // the detail screen and the bar
        #expect(nav.bar.title.text == "Item 0")
        #expect(nav.bar.back.text == "Items")
        #expect(log.changes == [2])
        let state = w.state(at: 2, frameNumber: 0)
        #expect(state.navigation.first?.depth == 2)
        let back = try #require(state.elements.first { $0.id == "nav-back" })
        // The back button, tapped where the state says it is, pops.
        w.tap(back.frame[0] + back.frame[2] / 2, back.frame[1] + back.frame[3] / 2, at: 2.5)
        w.frames(from: 2.56, to: 4)
        #expect(nav.screens.map(\.id) == ["list"])
        #expect(log.changes == [2, 1])
        #expect(w.root.view(withID: "detail-0") == nil)
    }

    @Test func theScreenBelowKeepsItsScrollPosition() throws {
        let (w, nav) = try setup()
        let list = w.scrollView("list")
        let released = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.5, duration: 0.3)
        w.frames(from: released, to: 6)
        let offset = list.sampledOffset
        #expect(list.sampledPhase == .idle && offset.y > 150)
        nav.push(detail(1), title: "Item 1")
        w.frames(from: 6, to: 7)
        #expect(list.window == nil)
        w.key(.escape, at: 7)  // Esc pops with nothing focused
        w.frames(from: 7, to: 7.2)
        #expect(nav.slide?.kind == .pop)
        w.frames(from: 7.2, to: 8)
        #expect(nav.screens.count == 1)
        #expect(list.sampledOffset == offset)
        #expect(list.sampledPhase == .idle)
    }

    /// An edge swipe released after `distance` points over `duration` seconds.
    func edgeSwipe(_ w: Window, distance: Double, duration: Double, at t: Double, y: Double = 300) -> Double {
        w.drag(from: Point(x: 5, y: y), to: Point(x: 5 + distance, y: y), at: t, duration: duration)
    }

    @Test func anEdgeSwipeFollowsTheFingerAndCompletesOrCancels() throws {
        let (w, nav) = try setup()
        nav.push(detail(0), title: "Item 0", animated: false)
        w.frames(from: 0.1, to: 0.2)
        // Held halfway across: the detail screen follows the finger, the list shows below.
        w.touch(.down, 5, 300, at: 0.5)
        for (i, x) in stride(from: 25.0, through: 205, by: 20).enumerated() { w.touch(.move, x, 300, at: 0.5 + Double(i + 1) * 0.05) }
        w.frames(from: 1.0, to: 1.0)
        #expect(nav.slide?.kind == .interactive)
        #expect(nav.topScreen.frame.minX == 200 - 8)  // the finger less the slop
        #expect(w.root.view(withID: "list") != nil)
        // Let go slowly short of half: it cancels.
        w.touch(.move, 150, 300, at: 1.5)
        w.touch(.up, 150, 300, at: 1.6)
        w.frames(from: 1.6, to: 3)
        #expect(nav.screens.count == 2 && nav.slide == nil && nav.topScreen.frame.minX == 0)
        #expect(w.root.view(withID: "list") == nil)
        // Slowly past half: it completes.
        let slow = edgeSwipe(w, distance: 260, duration: 1.2, at: 3.5)
        w.frames(from: slow, to: 6)
        #expect(nav.screens.count == 1)
        // A quick short flick completes too.
        nav.push(detail(0), title: "Item 0", animated: false)
        let quick = edgeSwipe(w, distance: 90, duration: 0.08, at: 7)
        w.frames(from: quick, to: 9)
        #expect(nav.screens.count == 1)
    }

    @Test func theCarouselTakesSwipesAwayFromTheEdge() throws {
        let (w, nav) = try setup()
        nav.push(detail(0), title: "Item 0", animated: false)
        w.frames(from: 0.1, to: 0.2)
        let carousel = w.scrollView("carousel")
        // Rightwards from the middle of the carousel, on page 1: the carousel goes back a page.
        carousel.setPage(1, animated: false)
        w.frames(from: 0.2, to: 0.3)
        let mid = w.drag(from: Point(x: 150, y: 150), to: Point(x: 350, y: 150), at: 0.5, duration: 0.2)
        w.frames(from: mid, to: 2)
        #expect(nav.screens.count == 2)
        #expect(carousel.currentPage == 0)
        // From the edge over the carousel: the stack's.
        let edge = w.drag(from: Point(x: 4, y: 150), to: Point(x: 300, y: 150), at: 2.5, duration: 0.2)
        w.frames(from: edge, to: 4)
        #expect(nav.screens.count == 1)
        // On the bottom screen the edge is the list's: a tap near it still taps the row.
        w.tap(6, 300, at: 4.5)
        w.frames(from: 4.6, to: 6)
        #expect(nav.screens.count == 2)
    }

    @Test func aTapNearTheEdgeOfAPushedScreenStillTaps() throws {
        let log = Log()
        let (w, nav) = try setup(log: log)
        let inner = Stack(.vertical, id: "inner", children: [row(0, height: 300, id: "button")])
        inner.children[0].onTap = { log.taps.append("button") }
        nav.push(inner, title: "Inner", animated: false)
        w.frames(from: 0.1, to: 0.2)
        w.tap(6, 200, at: 0.5)
        #expect(log.taps == ["button"])
        #expect(nav.screens.count == 2)
    }
}
