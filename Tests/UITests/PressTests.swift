import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Pressed states and long presses (UIScrollView's delaysContentTouches): inside a scroll view
/// a row shows pressed after a touch rests 100 ms on it, briefly on a quick tap, never once the
/// touch scrolls; 500 ms held is a long press, not a tap.
@Suite struct PressTests {
    final class Log { var taps: [Int] = []; var longPresses: [Int] = [] }

    func rows(_ log: Log, longPress: Bool = false) -> ScrollView {
        let sv = list(60, rowHeight: 100)
        for (i, r) in sv.content.children.enumerated() {
            r.onTap = { log.taps.append(i) }
            if longPress { r.onLongPress = { log.longPresses.append(i) } }
        }
        return sv
    }

    /// A window of tappable rows, drawn and at rest.
    func settledWindow(_ log: Log, longPress: Bool = false) throws -> Window {
        let w = try makeWindow(rows(log, longPress: longPress))
        w.frames(from: 0, to: 0.5)
        return w
    }

    func element(_ w: Window, _ id: String, at t: Double) -> WindowState.ElementState? {
        w.state(at: t, frameNumber: 0).elements.first { $0.id == id }
    }

    @Test func aRestingTouchPressesTheRowAfter100Milliseconds() throws {
        let log = Log()
        let w = try settledWindow(log)
        let row1 = try #require(w.root.view(withID: "row-1"))
        w.touch(.down, 200, 150, at: 1)
        w.frames(from: 1, to: 1.09)
        #expect(!row1.isPressed)
        w.frames(from: 1.09, to: 1.11)
        #expect(row1.isPressed)
        #expect(element(w, "row-1", at: 1.11)?.pressed == true)
        #expect(element(w, "row-2", at: 1.11)?.pressed == false)
        w.touch(.up, 200, 150, at: 1.3)
        #expect(log.taps == [1])
        #expect(!row1.isPressed)
    }

    @Test func aQuickTapShowsThePressBriefly() throws {
        let log = Log()
        let w = try settledWindow(log)
        let row2 = try #require(w.root.view(withID: "row-2"))
        w.touch(.down, 200, 250, at: 1)
        w.touch(.up, 200, 250, at: 1.03)
        #expect(log.taps == [2])
        #expect(row2.isPressed)
        w.frames(from: 1.03, to: 1.12)
        #expect(row2.isPressed)
        w.frames(from: 1.12, to: 1.14)
        #expect(!row2.isPressed)
    }

    @Test func aPressThatTurnsIntoAScrollIsCancelledAtOnce() throws {
        let log = Log()
        let sv = rows(log)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.5)
        let row1 = try #require(w.root.view(withID: "row-1"))
        w.touch(.down, 200, 150, at: 1)
        w.frames(from: 1, to: 1.2)
        #expect(row1.isPressed)
        w.touch(.move, 200, 145, at: 1.21)  // within the slop: still pressed
        #expect(row1.isPressed)
        w.touch(.move, 200, 130, at: 1.22)  // past it: a scroll
        #expect(!row1.isPressed)
        #expect(sv.controller.state(at: 1.22).phase == .dragging)
        w.touch(.move, 200, 100, at: 1.24)
        w.frames(from: 1.24, to: 1.4)
        #expect(!row1.isPressed)
        w.touch(.up, 200, 100, at: 1.4)
        #expect(log.taps.isEmpty)
        // A touch that scrolls before 100 ms never shows pressed, on any frame.
        w.frames(from: 1.4, to: 3)
        w.touch(.down, 200, 250, at: 3)
        w.touch(.move, 200, 230, at: 3.03)
        var t = 3.03
        while t < 3.6 {
            t += 0.01
            w.touch(.move, 200, 230 - (t - 3.03) * 100, at: t)
            w.frames(from: t, to: t)
            #expect(!w.root.view(withID: "row-2")!.isPressed && !w.root.view(withID: "row-1")!.isPressed)
        }
        w.touch(.up, 200, 170, at: t)
        #expect(log.taps.isEmpty)
    }

    @Test func aTouchHeldHalfASecondIsALongPressAndNoTap() throws {
        let log = Log()
        let w = try settledWindow(log, longPress: true)
        let row1 = try #require(w.root.view(withID: "row-1"))
        w.touch(.down, 200, 150, at: 1)
        w.frames(from: 1, to: 1.49)
        #expect(log.longPresses.isEmpty && row1.isPressed)
        w.frames(from: 1.49, to: 1.51)
        #expect(log.longPresses == [1])
        w.frames(from: 1.51, to: 2)
        #expect(log.longPresses == [1])  // once
        w.touch(.up, 200, 150, at: 2)
        #expect(log.taps.isEmpty && !row1.isPressed)
        #expect(element(w, "row-1", at: 2)?.longPressable == true)
        // Without frames in between (a loop asleep), the lift itself finds the long press due.
        w.touch(.down, 200, 250, at: 3)
        w.touch(.up, 200, 250, at: 3.6)
        #expect(log.longPresses == [1, 2] && log.taps.isEmpty)
        // Shorter is a tap.
        w.touch(.down, 200, 250, at: 4)
        w.touch(.up, 200, 250, at: 4.4)
        #expect(log.longPresses == [1, 2] && log.taps == [2])
        // A held touch that scrolls is neither.
        w.touch(.down, 200, 250, at: 5)
        w.touch(.move, 200, 230, at: 5.2)
        w.frames(from: 5.2, to: 5.8)
        w.touch(.up, 200, 230, at: 5.8)
        #expect(log.longPresses == [1, 2] && log.taps == [2])
    }

    /// A sleeping loop is woken for the press and the long press: the window's timers are due
    /// then, and running them presses without a frame.
    @Test func timersWakeTheLoopWhenAPressIsDue() throws {
        let log = Log()
        let w = try makeWindow(rows(log, longPress: true))
        let timers = try #require(w.scheduler)
        timers.runDue(upTo: 0.5)
        w.frames(from: 0.5, to: 0.6)
        w.touch(.down, 200, 150, at: 1)
        #expect(timers.nextDue.map { abs($0 - 1.1) < 1e-9 } == true)
        timers.runDue(upTo: 1.1)
        #expect(w.root.view(withID: "row-1")!.isPressed)
        #expect(timers.nextDue.map { abs($0 - 1.5) < 1e-9 } == true)
        timers.runDue(upTo: 1.5)
        #expect(log.longPresses == [1])
        w.touch(.up, 200, 150, at: 1.7)
        #expect(timers.nextDue == nil)
    }

    /// Outside a scroll view nothing waits to see whether the touch scrolls: pressed at once.
    @Test func outsideAScrollViewTheViewIsPressedAtOnceAndShaded() throws {
        let log = Log()
        let button = Box(id: "button", fill: .white, cornerRadius: 0, height: 100)
        button.onTap = { log.taps.append(0) }
        let root = Stack(.vertical, children: [button, Box(fill: .white).flexible()])
        let w = try makeWindow(root)
        let frame = w.frames(from: 0, to: 0.1)
        #expect(frame[50, 50] == 0xFFFF_FFFF)
        w.touch(.down, 50, 50, at: 1)
        #expect(button.isPressed)
        w.frames(from: 1, to: 1.05, into: frame)
        // White under black at 31/255: 255 · 224/255.
        #expect(frame[50, 50] == 0xFFE0_E0E0)
        #expect(frame[50, 150] == 0xFFFF_FFFF)
        w.touch(.up, 50, 50, at: 1.1)
        w.frames(from: 1.1, to: 1.3, into: frame)
        #expect(log.taps == [0] && !button.isPressed)
        #expect(frame[50, 50] == 0xFFFF_FFFF)
    }
}
