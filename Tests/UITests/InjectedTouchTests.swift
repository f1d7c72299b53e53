import AppContract
import Geometry
import Testing
@testable import UI

/// Fingers a program injects (the remote API, live viewers) share the touches a window follows
/// with the touchscreen, and the touchscreen always wins.
@Suite struct InjectedTouchTests {
    final class Taps { var count = 0 }

    /// A column of two rows: "held" (where injected fingers rest) and "button" (counts taps).
    func window(_ taps: Taps) throws -> Window {
        let column = Stack(.vertical, id: "column")
        column.add(row(0, height: 200, id: "held"))
        let button = row(1, height: 200, id: "button")
        button.onTap = { taps.count += 1 }
        column.add(button)
        return try makeWindow(column, width: 400, height: 400)
    }

    @Test func injectedFingersNeverLockOutTheTouchscreen() throws {
        let taps = Taps()
        let w = try window(taps)
        let first = InputEvent.injectedSlots.lowerBound
        // A client puts ten fingers down and holds them: only five are followed.
        for i in 0..<10 { w.touch(.down, 20 + Double(i) * 30, 100, at: 0, slot: first + i) }
        // An injected tap on the button is ignored while five injected fingers are held...
        w.tap(200, 300, at: 0.1, slot: first + 20)
        #expect(taps.count == 0)
        // ...but the person at the screen taps it, with four fingers of their own resting too.
        for i in 0..<4 { w.touch(.down, 20 + Double(i) * 30, 150, at: 0.2, slot: i) }
        w.tap(200, 300, at: 0.3, slot: 4)
        #expect(taps.count == 1)
        // Ten touches are followed now (five injected, five real): another real finger still
        // gets in, ending the oldest injected one.
        w.touch(.down, 300, 150, at: 0.4, slot: 5)
        w.tap(200, 300, at: 0.5, slot: 6)
        #expect(taps.count == 2)
        // Once the injected fingers lift, an injected tap works again.
        for i in 0..<10 { w.touch(.up, 20 + Double(i) * 30, 100, at: 0.6, slot: first + i) }
        for i in 0..<6 { w.touch(.up, 20, 150, at: 0.6, slot: i) }
        w.tap(200, 300, at: 0.7, slot: first + 30)
        #expect(taps.count == 3)
    }
}
