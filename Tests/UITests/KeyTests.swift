import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Keys through `Window.handle`: scrolling keys, focus order, Enter, the wheel.
@Suite struct KeyTests {
    func setup(overlap: Double = 0) throws -> (Window, ScrollView) {
        var config = ScrollConfiguration()
        config.lineScroll = 40
        config.pageOverlap = overlap
        let sv = list(60, configuration: config)  // 3000 pt of content, 400 pt viewport
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0)
        return (w, sv)
    }

    func press(_ w: Window, _ k: Key, at t: inout Double, settle: Double = 1.5) {
        w.key(k, at: t)
        w.frames(from: t, to: t + settle)
        t += settle + 0.01
    }

    @Test func arrowsPagesSpaceHomeAndEndScroll() throws {
        let (w, sv) = try setup(overlap: 30)
        var t = 0.1
        press(w, .down, at: &t)
        #expect(sv.sampledOffset.y == 40)
        press(w, .up, at: &t)
        #expect(sv.sampledOffset.y == 0)
        press(w, .up, at: &t)
        #expect(sv.sampledOffset.y == 0)
        // A page is the viewport less the overlap.
        press(w, .pageDown, at: &t)
        #expect(sv.sampledOffset.y == 370)
        press(w, .space, at: &t)
        #expect(sv.sampledOffset.y == 740)
        w.handle(InputEvent(.key(.leftShift, pressed: true), time: t))
        press(w, .space, at: &t)
        w.handle(InputEvent(.key(.leftShift, pressed: false), time: t))
        #expect(sv.sampledOffset.y == 370)
        press(w, .pageUp, at: &t)
        #expect(sv.sampledOffset.y == 0)
        press(w, .end, at: &t)
        #expect(sv.sampledOffset.y == 2600)
        press(w, .pageDown, at: &t)
        #expect(sv.sampledOffset.y == 2600)
        press(w, .home, at: &t)
        #expect(sv.sampledOffset.y == 0)
        // Keys animate: half-way through a Page Down the content is between the pages.
        w.key(.pageDown, at: t)
        w.frames(from: t, to: t + 0.05)
        #expect(sv.sampledOffset.y > 0 && sv.sampledOffset.y < 370)
        // Repeated presses add up from where the animation is heading.
        w.key(.pageDown, at: t + 0.06)
        w.key(.pageDown, at: t + 0.07)
        w.frames(from: t + 0.06, to: t + 3)
        #expect(sv.sampledOffset.y == 3 * 370)
    }

    @Test func tabMovesFocusInTreeOrderAndEnterActivates() throws {
        final class Log { var taps: [String] = [] }
        let log = Log()
        let a = Box(id: "a", fill: .white, height: 40), b = Box(id: "b", fill: .white, height: 40)
        let c = Box(id: "c", fill: .white, height: 40), skipped = Box(id: "skipped", fill: .white, height: 40)
        for v in [a, b, c] { v.isFocusable = true; v.onTap = { [id = v.id!] in log.taps.append(id) } }
        let hidden = Box(id: "hidden", height: 40); hidden.isFocusable = true; hidden.isHidden = true
        let root = Stack(.vertical, spacing: 10, children: [a, skipped, Stack(.horizontal, children: [c, hidden]), b])
        let w = try makeWindow(root)
        #expect(w.focusedView == nil)
        w.key(.enter, at: 0.1)  // nothing focused: nothing happens
        #expect(log.taps.isEmpty)
        var order: [String] = []
        for i in 0..<4 { w.key(.tab, at: 0.2 + Double(i) * 0.01); order.append(w.focusedView?.id ?? "-") }
        #expect(order == ["a", "c", "b", "a"])
        w.key(.down, at: 0.3)
        #expect(w.focusedView?.id == "c")
        w.key(.up, at: 0.31)
        w.key(.left, at: 0.32)
        #expect(w.focusedView?.id == "b")
        w.key(.right, at: 0.33)
        #expect(w.focusedView?.id == "a")
        w.key(.enter, at: 0.4)
        #expect(log.taps == ["a"])
        w.key(.escape, at: 0.5)
        #expect(w.focusedView == nil)

        // The focus ring is drawn around the focused view and removed again.
        let plain = w.fullRedraw(at: 1)
        w.focus(b)
        let ring = w.fullRedraw(at: 1.1)
        #expect(ring[Int(b.frame.minX) + 20, Int(b.frame.minY) - 2] != plain[Int(b.frame.minX) + 20, Int(b.frame.minY) - 2])
    }

    @Test func theWheelScrollsTheViewUnderThePointerSmoothly() throws {
        let left = list(40), right = list(40)
        left.id = "left"; right.id = "right"
        let root = Stack(.horizontal, children: [left.frame(width: 200), right.frame(width: 200)])
        let w = try makeWindow(root)
        w.frames(from: 0, to: 0)
        w.handle(InputEvent(.wheel(delta: Point(x: 0, y: 120), position: Point(x: 300, y: 200)), time: 0.1))
        w.frames(from: 0.1, to: 0.15)
        #expect(right.sampledOffset.y > 0 && right.sampledOffset.y < 120)  // animated, not a jump
        w.frames(from: 0.15, to: 2)
        #expect(right.sampledOffset.y == 120)
        #expect(left.sampledOffset.y == 0)
        // Notches add up from where the animation is heading.
        for i in 0..<3 {
            w.handle(InputEvent(.wheel(delta: Point(x: 0, y: 120), position: Point(x: 100, y: 200)), time: 2 + Double(i) * 0.02))
        }
        w.frames(from: 2, to: 4)
        #expect(left.sampledOffset.y == 360)
        #expect(right.sampledOffset.y == 120)
        // A horizontal-only view takes vertical turns as horizontal.
        let strip = ScrollView(
            id: "strip", axes: .horizontal, content: Stack(.horizontal, children: (0..<6).map { row($0).frame(width: 150) }))
        let w2 = try makeWindow(strip, width: 400, height: 100)
        w2.handle(InputEvent(.wheel(delta: Point(x: 0, y: 100), position: Point(x: 200, y: 50)), time: 0.1))
        w2.frames(from: 0.1, to: 2)
        #expect(strip.sampledOffset.x == 100)
        // Keys go to the view last scrolled by the wheel.
        w.key(.down, at: 5)
        w.frames(from: 5, to: 7)
        #expect(left.sampledOffset.y == 400)
    }

    @Test func aVerticalWheelOverACarouselInAListScrollsTheList() throws {
        let carousel = ScrollView(
            id: "strip", axes: .horizontal,
            content: Stack(.horizontal, children: (0..<6).map { row($0).frame(width: 150) }))
        let column = Stack(.vertical, id: "column")
        column.add(carousel.frame(height: 100))
        for i in 0..<20 { column.add(row(i)) }
        let outer = ScrollView(id: "list", axes: .vertical, content: column)
        let w = try makeWindow(outer)
        w.frames(from: 0, to: 0)
        w.handle(InputEvent(.wheel(delta: Point(x: 0, y: 100), position: Point(x: 200, y: 50)), time: 0.1))
        w.handle(InputEvent(.wheel(delta: Point(x: 60, y: 0), position: Point(x: 200, y: 50)), time: 0.1))
        w.frames(from: 0.1, to: 2)
        #expect(outer.sampledOffset.y == 100 && carousel.sampledOffset.x == 60)
    }

    /// Touchpad two-finger scrolling follows the fingers, then carries on with their
    /// speed under the same friction as a flick.
    @Test func touchpadScrollingHasInertia() throws {
        let sv = list(400)  // 20,000 pt
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 1)
        func scroll(_ dy: Double, at t: Double) {
            w.handle(InputEvent(.fingerScroll(delta: Point(x: 0, y: dy), position: Point(x: 200, y: 200)), time: t))
        }
        // 10 pt every 10 ms: 1000 pt/s.
        for i in 1...10 { scroll(10, at: 1 + Double(i) * 0.01) }
        w.frames(from: 1, to: 1.1)
        #expect(sv.sampledOffset.y == 100)  // 1:1, no slop, no animation
        scroll(0, at: 1.1)  // the fingers lift
        w.frames(from: 1.1, to: 1.2)
        #expect(sv.sampledPhase == .decelerating)
        #expect(approx(sv.controller.state(at: 1.1).velocity.y, 1000))
        w.frames(from: 1.2, to: 8)
        // At rest where a release at 1000 pt/s comes to rest: x0 + 0.4995 v0.
        #expect(abs(sv.sampledOffset.y - (100 + 499.5)) < 1)
        #expect(w.isAtRest(at: 8))

        // Fingers that rested before lifting: no fling.
        for i in 1...5 { scroll(10, at: 9 + Double(i) * 0.01) }
        scroll(0, at: 9.2)
        w.frames(from: 9, to: 9.3)
        #expect(sv.sampledPhase == .idle)
        #expect(abs(sv.sampledOffset.y - (599.5 + 50)) < 1)

        // New fingers during a fling start from where the content is, not where it was heading.
        for i in 1...10 { scroll(20, at: 10 + Double(i) * 0.01) }
        scroll(0, at: 10.1)
        w.frames(from: 10.1, to: 10.3)
        let moving = sv.sampledOffset.y
        scroll(5, at: 10.3)
        w.frames(from: 10.3, to: 10.3)
        // 5 pt on from the fling's position at 10.3 s (the fling from 2000 pt/s was heading ~1000 pt on).
        #expect(sv.sampledOffset.y > moving && sv.sampledOffset.y < moving + 200)
    }
}
