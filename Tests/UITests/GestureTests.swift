import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Taps inside scroll views and arbitration between nested scroll views.
@Suite struct GestureTests {
    final class Taps { var rows: [Int] = [] }

    func tappableList(_ taps: Taps, count: Int = 60) -> ScrollView {
        let sv = list(count)
        for (i, r) in sv.content.children.enumerated() { r.onTap = { taps.rows.append(i) } }
        return sv
    }

    @Test func aTapOnARowInAScrollViewFiresItsHandler() throws {
        let taps = Taps()
        let sv = tappableList(taps)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.1)
        w.tap(200, 75, at: 0.2)
        #expect(taps.rows == [1])
        // Within the slop (8 pt) it is still a tap.
        w.touch(.down, 200, 175, at: 0.5)
        w.touch(.move, 205, 180, at: 0.52)
        w.touch(.up, 205, 180, at: 0.54)
        #expect(taps.rows == [1, 3])
        // At scale 2 the same rows sit at twice the pixels.
        let taps2 = Taps()
        let w2 = try makeWindow(tappableList(taps2), width: 800, height: 800, scale: 2)
        w2.tap(400, 260, at: 0.1)
        #expect(taps2.rows == [2])
    }

    @Test func aDragPastTheSlopIsNotATap() throws {
        let taps = Taps()
        let sv = tappableList(taps)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.1)
        w.touch(.down, 200, 175, at: 0.2)
        w.touch(.move, 200, 160, at: 0.25)
        w.touch(.move, 200, 150, at: 0.3)
        w.touch(.up, 200, 150, at: 0.5)
        w.frames(from: 0.5, to: 1.5)
        #expect(taps.rows.isEmpty)
        #expect(sv.sampledOffset.y > 0)
        // A cancelled touch is not a tap either.
        w.touch(.down, 200, 175, at: 2)
        w.touch(.cancel, 200, 175, at: 2.05)
        #expect(taps.rows.isEmpty)
    }

    @Test func aTouchThatStopsAFlingIsNotATap() throws {
        let taps = Taps()
        let sv = tappableList(taps, count: 200)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.1)
        let end = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.2, duration: 0.08)
        w.frames(from: end, to: end + 0.2)
        #expect(sv.sampledPhase == .decelerating)
        let t = end + 0.21
        w.touch(.down, 200, 200, at: t)
        w.touch(.up, 200, 200, at: t + 0.05)
        w.frames(from: t, to: t + 0.5)
        #expect(taps.rows.isEmpty)
        // The fling stopped where the finger caught it.
        let stopped = sv.sampledOffset.y
        w.frames(from: t + 0.5, to: t + 1.5)
        #expect(sv.sampledOffset.y == stopped)
        #expect(sv.sampledPhase == .idle)
        // The next tap is a tap again.
        w.tap(200, 200, at: t + 2)
        #expect(taps.rows.count == 1)
    }

    /// A horizontal carousel inside a vertical list: each gets the drags along its own axis.
    func nested() -> (ScrollView, ScrollView, Taps) {
        let taps = Taps()
        let strip = Stack(.horizontal, id: "strip", spacing: 10)
        for i in 0..<8 {
            let b = row(i, height: 150, id: "photo-\(i)").frame(width: 250)
            b.onTap = { taps.rows.append(100 + i) }
            strip.add(b)
        }
        let carousel = ScrollView(id: "carousel", axes: .horizontal, content: strip)
        carousel.height = 150
        let column = Stack(.vertical, id: "column", spacing: 10)
        column.add(row(0, height: 100))
        column.add(carousel)
        for i in 1..<20 { column.add(row(i, height: 100)) }
        let outer = ScrollView(id: "feed", axes: .vertical, content: column)
        return (outer, carousel, taps)
    }

    @Test func horizontalDragsMoveOnlyTheCarouselAndVerticalOnlyTheList() throws {
        let (outer, carousel, taps) = nested()
        let w = try makeWindow(outer, width: 400, height: 600)
        w.frames(from: 0, to: 0.1)
        // The carousel occupies y 110 … 260.
        var end = w.drag(from: Point(x: 300, y: 180), to: Point(x: 100, y: 190), at: 0.2, duration: 0.2)
        w.touch(.down, 200, 185, at: end + 0.3)  // catch any fling, then lift
        w.touch(.up, 200, 185, at: end + 0.32)
        w.frames(from: end + 0.32, to: end + 1)
        #expect(carousel.sampledOffset.x > 150)
        #expect(outer.sampledOffset.y == 0)

        let x = carousel.sampledOffset.x
        end = w.drag(from: Point(x: 200, y: 240), to: Point(x: 210, y: 40), at: end + 2, duration: 0.2)
        w.touch(.down, 200, 185, at: end + 0.3)
        w.touch(.up, 200, 185, at: end + 0.32)
        w.frames(from: end + 0.32, to: end + 1)
        #expect(outer.sampledOffset.y > 150)
        #expect(carousel.sampledOffset.x == x)
        #expect(taps.rows.isEmpty)

        // A tap on a photo inside both still reaches the photo.
        let (outer2, _, taps2) = nested()
        let w2 = try makeWindow(outer2, width: 400, height: 600)
        w2.frames(from: 0, to: 0.1)
        w2.tap(100, 180, at: 0.2)
        #expect(taps2.rows == [100])
    }

    @Test func aVerticalDragStartingOnTheCarouselScrollsTheList() throws {
        let (outer, carousel, _) = nested()
        let w = try makeWindow(outer, width: 400, height: 600)
        w.frames(from: 0, to: 0.1)
        w.drag(from: Point(x: 200, y: 250), to: Point(x: 200, y: 120), at: 0.2, duration: 0.3, lift: false)
        w.frames(from: 0.2, to: 0.5)
        #expect(outer.sampledOffset.y >= 115 && outer.sampledOffset.y <= 131, "outer moved \(outer.sampledOffset.y)")
        #expect(carousel.sampledOffset.x == 0)
        #expect(outer.sampledPhase == .dragging && carousel.sampledPhase == .idle)
    }

    /// A fast flick whose first sample is already past the slop, steeply diagonal, over the
    /// carousel: the list takes it (the carousel's axis is not the one the finger moved along).
    @Test func aSteepFirstMoveOverTheCarouselGoesToTheList() throws {
        let (outer, carousel, taps) = nested()
        let w = try makeWindow(outer, width: 400, height: 600)
        w.frames(from: 0, to: 0.1)
        w.touch(.down, 200, 240, at: 0.2)
        w.touch(.move, 212, 200, at: 0.216)  // dx 12 (past the slop), dy -40
        w.touch(.move, 216, 150, at: 0.232)
        w.touch(.move, 218, 100, at: 0.248)
        w.frames(from: 0.2, to: 0.25)
        #expect(outer.sampledPhase == .dragging && carousel.sampledPhase == .idle)
        #expect(carousel.sampledOffset.x == 0)
        #expect(outer.sampledOffset.y > 100)
        w.touch(.up, 218, 100, at: 0.25)
        #expect(taps.rows.isEmpty)
    }

    /// A board reads input between frames, so a touch often arrives after a frame drawn later
    /// than it happened. The result must not depend on that: a flick delivered late ends where
    /// the same flick delivered on time does (and where a recording of it replays).
    @Test func lateDeliveryGivesTheSameFlick() throws {
        func flick(late: Bool) throws -> Double {
            let sv = list(200)
            let w = try makeWindow(sv)
            w.frames(from: 0, to: 0.5)
            var events: [(Double, InputEvent.TouchPhase, Double)] = [(0.503, .down, 350)]
            for i in 1...6 { events.append((0.503 + 0.011 * Double(i), .move, 350 - 30 * Double(i))) }
            events.append((0.503 + 0.011 * 6 + 0.002, .up, 170))
            for (time, phase, y) in events {
                // Late: handled only after the frame at the next 60 Hz boundary was drawn.
                if late {
                    let frame = (time * 60).rounded(.up) / 60
                    _ = w.frames(from: frame, to: frame)
                }
                w.touch(phase, 200, y, at: time)
            }
            w.frames(from: 0.6, to: 5)
            return sv.sampledOffset.y
        }
        let onTime = try flick(late: false), late = try flick(late: true)
        #expect(onTime > 500)
        #expect(late == onTime)
    }
}
