import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Positions by identity, scrolls to an id or an offset, on a list of 50 pt rows "row-0" … in a 400×400 window.
@Suite struct PositionTests {
    func setup(rows: Int = 60, configure: (ScrollView) -> Void = { _ in }) throws -> (Window, ScrollView) {
        let sv = list(rows)
        configure(sv)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0)
        return (w, sv)
    }

    func jump(_ w: Window, _ sv: ScrollView, to y: Double, at t: Double) {
        sv.scroll(to: Point(x: 0, y: y), animated: false)
        w.frames(from: t, to: t)
    }

    @Test func reportsTheTopMostVisibleIDAsItScrolls() throws {
        final class Log { var ids: [String?] = [] }
        let log = Log()
        let (w, sv) = try setup { $0.onPositionChange = { log.ids.append($0) } }
        #expect(sv.reportedID == "row-0")
        jump(w, sv, to: 100, at: 0.1)
        #expect(sv.reportedID == "row-2")  // row-1 ends exactly at the top edge
        jump(w, sv, to: 125, at: 0.2)
        #expect(sv.reportedID == "row-2")
        jump(w, sv, to: 149.5, at: 0.3)
        #expect(sv.reportedID == "row-2")
        jump(w, sv, to: 150, at: 0.4)
        #expect(sv.reportedID == "row-3")
        #expect(log.ids == ["row-0", "row-2", "row-3"])

        // During a flick the reported ids move on in order.
        log.ids = []
        let end = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 100), at: 1, duration: 0.1)
        w.frames(from: end, to: end + 3)
        let numbers = log.ids.compactMap { $0.map { Int($0.dropFirst(4))! } }
        #expect(numbers.count >= 4)
        #expect(numbers == numbers.sorted())
        #expect(sv.reportedID == "row-\(Int(sv.sampledOffset.y / 50))")
        // The state JSON carries it.
        #expect(w.state(at: end + 3, frameNumber: 0).scrollViews.first?.topId == sv.reportedID)

        // With an anchor the item under that point of the viewport is reported.
        sv.positionAnchor = .center
        jump(w, sv, to: 10, at: end + 4)
        #expect(sv.reportedID == "row-4")
    }

    @Test func scrollToIDIsMinimalOrAnchored() throws {
        let (w, sv) = try setup()
        // Fully visible: no move.
        sv.scrollTo(id: "row-3", animated: false)
        w.frames(from: 0.1, to: 0.1)
        #expect(sv.sampledOffset.y == 0)
        // Partly visible (350 … 400 is on screen, 400 … 450 is not): just enough.
        sv.scrollTo(id: "row-8", animated: false)
        w.frames(from: 0.2, to: 0.2)
        #expect(sv.sampledOffset.y == 50)
        // Below: its bottom edge at the viewport's bottom.
        sv.scrollTo(id: "row-20", animated: false)
        w.frames(from: 0.3, to: 0.3)
        #expect(sv.sampledOffset.y == 1050 - 400)
        // Above: its top edge at the top.
        sv.scrollTo(id: "row-5", animated: false)
        w.frames(from: 0.4, to: 0.4)
        #expect(sv.sampledOffset.y == 250)
        // Anchors.
        sv.scrollTo(id: "row-20", anchor: .top, animated: false)
        w.frames(from: 0.5, to: 0.5)
        #expect(sv.sampledOffset.y == 1000)
        sv.scrollTo(id: "row-20", anchor: .center, animated: false)
        w.frames(from: 0.6, to: 0.6)
        #expect(sv.sampledOffset.y == 1025 - 200)
        sv.scrollTo(id: "row-20", anchor: .bottom, animated: false)
        w.frames(from: 0.7, to: 0.7)
        #expect(sv.sampledOffset.y == 650)
        // Anchored near the end: clamped to the content.
        sv.scrollTo(id: "row-59", anchor: .top, animated: false)
        w.frames(from: 0.8, to: 0.8)
        #expect(sv.sampledOffset.y == 3000 - 400)
        // An unknown id does nothing.
        sv.scrollTo(id: "nope", animated: false)
        w.frames(from: 0.9, to: 0.9)
        #expect(sv.sampledOffset.y == 2600)
    }

    @Test func insertingAboveReorderingAndResizingKeepTheHeldItemInPlace() throws {
        let (w, sv) = try setup()
        jump(w, sv, to: 125, at: 0.1)
        #expect(sv.reportedID == "row-2")
        let row2 = w.root.view(withID: "row-2")!
        #expect(row2.frameInWindow.minY == -25)

        for i in 0..<3 { sv.content.insert(row(i, id: "new-\(i)"), at: 0) }
        w.frames(from: 0.2, to: 0.2)
        #expect(sv.sampledOffset.y == 275)
        #expect(row2.frameInWindow.minY == -25)
        #expect(sv.reportedID == "row-2")

        // Re-ordered: row-2 moves further down the list and stays on screen where it was.
        var kids = sv.content.children
        kids.removeAll { $0 === row2 }
        kids.insert(row2, at: 10)
        sv.content.setChildren(kids)
        w.frames(from: 0.3, to: 0.3)
        #expect(sv.sampledOffset.y == 525)
        #expect(row2.frameInWindow.minY == -25)
        #expect(sv.reportedID == "row-2")

        // Put back, then resize the viewport.
        kids.remove(at: 10); kids.insert(row2, at: 5)
        sv.content.setChildren(kids)
        w.frames(from: 0.4, to: 0.4)
        #expect(row2.frameInWindow.minY == -25)
        w.resize(width: 300, height: 250)
        w.frames(from: 0.5, to: 0.5, into: PixelBuffer(width: 300, height: 250))
        #expect(sv.frame.size == Size(width: 300, height: 250))
        #expect(row2.frameInWindow.minY == -25)
        #expect(sv.reportedID == "row-2")
    }

    @Test func startsAtAnIDOrAtTheBottom() throws {
        let (_, atID) = try setup { $0.initialPosition = .id("row-30", anchor: .top) }
        #expect(atID.sampledOffset.y == 1500)
        #expect(atID.reportedID == "row-30")
        let (_, minimal) = try setup { $0.initialPosition = .id("row-30", anchor: nil) }
        #expect(minimal.sampledOffset.y == 1550 - 400)
        let (_, bottom) = try setup { $0.initialPosition = .anchor(.bottom) }
        #expect(bottom.sampledOffset.y == 3000 - 400)
        #expect(bottom.reportedID == "row-52")
        let (_, top) = try setup()
        #expect(top.sampledOffset.y == 0)
    }

    @Test func focusKeepsTheFocusedItemVisible() throws {
        let (w, sv) = try setup { sv in for r in sv.content.children { r.isFocusable = true } }
        var t = 0.1
        for i in 0..<15 {
            w.key(.tab, at: t)
            w.frames(from: t, to: t + 0.6)
            t += 0.7
            #expect(w.focusedView?.id == "row-\(i)")
            let f = w.focusedView!.frameInWindow
            #expect(f.minY >= -0.01 && f.maxY <= 400.01, "row-\(i) at \(f)")
        }
        // Minimal: the last focused row sits at the bottom edge.
        #expect(approx(sv.sampledOffset.y, 750 - 400, 0.5))
        // Shift+Tab back to row-2: it comes in at the top.
        w.handle(InputEvent(.key(.leftShift, pressed: true), time: t))
        for _ in 0..<12 { w.key(.tab, at: t); t += 0.01 }
        w.handle(InputEvent(.key(.leftShift, pressed: false), time: t))
        w.frames(from: t, to: t + 1)
        #expect(w.focusedView?.id == "row-2")
        #expect(approx(sv.sampledOffset.y, 100, 0.5))
        #expect(w.state(at: t + 1, frameNumber: 0).focus == "row-2")
    }

    /// Autoscroll through input: a finger drags a draggable row (a selection) past the bottom edge;
    /// the list scrolls down while it is held there, faster further out, and stops on release.
    @Test func draggingASelectionPastTheEdgeAutoscrolls() throws {
        var phases: [DragPhase] = []
        var tapped = false
        let (w, sv) = try setup { sv in
            let handle = sv.content.children[5]
            handle.onDrag = { phase, _ in phases.append(phase) }
            handle.onTap = { tapped = true }
        }
        w.touch(.down, 200, 275, at: 0.1)  // row 5 (250 … 300)
        w.touch(.move, 200, 330, at: 0.2)  // inside: nothing scrolls
        w.frames(from: 0.1, to: 0.5)
        #expect(sv.sampledOffset.y == 0)
        w.touch(.move, 200, 390, at: 0.5)  // 14 pt into the 24 pt margin: 140 pt/s
        w.frames(from: 0.5, to: 1.5)
        let near = sv.sampledOffset.y
        #expect(approx(near, 140, 3), "\(near)")
        w.touch(.move, 200, 450, at: 1.5)  // 74 pt past: 740 pt/s, held still
        w.frames(from: 1.5, to: 2.5)
        #expect(approx(sv.sampledOffset.y - near, 740, 3), "\(sv.sampledOffset.y)")
        w.touch(.up, 200, 450, at: 2.5)
        let released = sv.sampledOffset.y
        w.frames(from: 2.5, to: 3.5)
        #expect(sv.sampledOffset.y == released)  // stops where it was on release
        #expect(sv.controller.isAtRest(at: 2.5))
        #expect(phases.first == .began && phases.last == .ended && phases.filter { $0 == .moved }.count == 3)
        #expect(!tapped)
    }

    @Test func autoscrollGoesFasterFurtherPastTheEdge() throws {
        let (w, sv) = try setup()
        #expect(sv.autoscrollVelocity(for: Point(x: 200, y: 200)) == .zero)
        let near = sv.autoscrollVelocity(for: Point(x: 200, y: 390)).y
        let far = sv.autoscrollVelocity(for: Point(x: 200, y: 450)).y
        #expect(near > 0 && far > near)
        #expect(sv.autoscrollVelocity(for: Point(x: 200, y: 5)).y < 0)
        #expect(sv.autoscrollVelocity(for: Point(x: 200, y: 100_000)).y == 2000)
        #expect(sv.autoscrollVelocity(for: Point(x: 200, y: 380)).x == 0)

        sv.autoscroll(towards: Point(x: 200, y: 450))
        w.frames(from: 0, to: 1)
        #expect(approx(sv.sampledOffset.y, far, 2))
        sv.autoscroll(towards: nil)
        let stopped = sv.sampledOffset.y
        w.frames(from: 1, to: 2)
        #expect(sv.sampledOffset.y == stopped)
    }

    @Test func programScrollsAnimateOrJump() throws {
        let (w, sv) = try setup()
        sv.scroll(to: Point(x: 0, y: 1000))
        w.frames(from: 0, to: 0.1)
        let midway = sv.sampledOffset.y
        #expect(midway > 0 && midway < 1000)
        #expect(sv.sampledPhase == .animating)
        w.frames(from: 0.1, to: 3)
        #expect(sv.sampledOffset.y == 1000)
        #expect(w.isAtRest(at: 3))
        sv.animatesProgramScrolls = false
        sv.scroll(to: Point(x: 0, y: 200))
        w.frames(from: 3.01, to: 3.02)
        #expect(sv.sampledOffset.y == 200)
        sv.scrollTo(id: "row-30", anchor: .top)
        w.frames(from: 3.03, to: 3.04)
        #expect(sv.sampledOffset.y == 1500)
    }
}
