import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// A window follows at most ten fingers: more are ignored until some lift, so thousands of
/// fingers from a script or a remote client cost what ten cost.
@Suite struct FingerCapTests {
    /// Thousands of fingers on a list, lifted: the list rests and a tap and a flick work again.
    @Test func thousandsOfFingersLeaveTheListWorking() throws {
        var taps: [Int] = []
        let rows = Stack(.vertical, id: "rows")
        for i in 0..<20 { rows.add(row(i, height: 40).onTap { taps.append(i) }) }
        let w = try makeWindow(ScrollView(id: "list", content: rows), width: 400, height: 400)
        // Two thousand fingers, one on each row in turn (rows 0 to 9 are on screen); the lifts
        // all end up where none of the ignored ones began a route.
        for slot in 0..<2000 { w.touch(.down, 200, 20 + Double(slot % 10) * 40, at: 0.1, slot: slot) }
        w.frames(from: 0.1, to: 0.3)
        for slot in 0..<2000 { w.touch(.up, 200, 20, at: 0.35, slot: slot) }
        w.frames(from: 0.35, to: 2)
        #expect(w.isAtRest(at: 2))
        #expect(rows.children.allSatisfy { !$0.isPressed })
        // One finger again: a tap taps, a flick scrolls.
        taps = []
        w.tap(200, 100, at: 2.5)
        #expect(taps == [2])
        let released = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 50), at: 3, duration: 0.1)
        w.frames(from: released, to: released + 0.1)
        #expect(w.scrollView("list").sampledOffset.y > 0)
    }

    @Test func fingersPastTheTenthPressNothing() throws {
        let rows = Stack(.vertical, id: "rows")
        for i in 0..<20 { rows.add(row(i, height: 20).onTap {}) }
        let w = try makeWindow(rows, width: 400, height: 400)
        // Outside a scroll view a finger presses at once: rows 0...9 press, 10...19 do not.
        for slot in 0..<20 { w.touch(.down, 200, 10 + Double(slot) * 20, at: 0.1, slot: slot) }
        w.frames(from: 0.1, to: 0.2)
        #expect(rows.children.map(\.isPressed) == (0..<20).map { $0 < 10 })
    }
}
