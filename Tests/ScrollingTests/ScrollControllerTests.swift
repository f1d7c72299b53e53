import Testing
import Geometry
import Physics
@testable import Scrolling

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

func feed(
    viewport: Size = Size(800, 800), content: Size = Size(800, 5000),
    offset: Point = .zero, configure: (inout ScrollConfiguration) -> Void = { _ in }
) -> ScrollController {
    var c = ScrollConfiguration()
    configure(&c)
    return ScrollController(viewportSize: viewport, contentSize: content, configuration: c, offset: offset)
}

/// A vertical flick: down at `y`, moves upwards by `step` every `dt` seconds, `count` moves, up.
func flick(
    _ e: inout ScrollController, from y: Double = 600, step: Double = -40, count: Int = 6,
    dt: Double = 0.016, start: Double = 0, x: Double = 400
) -> Double {
    var t = start
    e.handle(TouchEvent(.began, location: Point(x, y), time: t))
    for i in 1...count {
        t += dt
        e.handle(TouchEvent(.moved, location: Point(x, y + step * Double(i)), time: t))
    }
    t += 0.004
    e.handle(TouchEvent(.ended, location: Point(x, y + step * Double(count)), time: t))
    return t
}

@Suite struct DragTests {
    @Test func followsTheFingerOneToOneAfterTheSlopWithoutAJump() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 500), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 495), time: 0.01))
        #expect(e.state(at: 0.01).offset.y == 0)
        #expect(e.state(at: 0.01).phase == .touching)
        e.handle(TouchEvent(.moved, location: Point(400, 490), time: 0.02))
        // 10 pt moved, 8 pt slop: content moved 2 pt, not 10.
        #expect(close(e.state(at: 0.02).offset.y, 2))
        #expect(e.state(at: 0.02).phase == .dragging)
        e.handle(TouchEvent(.moved, location: Point(400, 400), time: 0.03))
        #expect(close(e.state(at: 0.03).offset.y, 92))
        e.handle(TouchEvent(.moved, location: Point(400, 450), time: 0.04))
        #expect(close(e.state(at: 0.04).offset.y, 42))
    }

    @Test func aFlingIsCappedAtTheMaximumVelocity() {
        // 200 pt every 16 ms is 12,500 pt/s; the engine flings at 8000 pt/s, the maximum.
        var e = feed(content: Size(800, 100_000))
        let up = flick(&e, step: -200, count: 4)
        #expect(close(e.state(at: up).velocity.y, 8000, 1e-6))
        var slower = feed(content: Size(800, 100_000)) { $0.maximumFlingVelocity = 3000 }
        _ = flick(&slower, step: -200, count: 4)
        #expect(close(slower.state(at: up).velocity.y, 3000, 1e-6))
    }

    @Test func rubberBandsPastTheLeadingEdge() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 100), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 208), time: 0.05))
        // 100 pt of overshoot past the top shows as the rubber band of 100 over 800.
        #expect(close(e.state(at: 0.05).offset.y, -rubberBand(overshoot: 100, dimension: 800)))
    }

    @Test func elasticityOffClampsHard() {
        var e = feed { $0.bouncesVertically = false }
        e.handle(TouchEvent(.began, location: Point(400, 100), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 300), time: 0.05))
        #expect(e.state(at: 0.05).offset.y == 0)
    }

    @Test func directionalLockKeepsAMostlyHorizontalDragHorizontal() {
        var e = feed(content: Size(3000, 3000)) { $0.axes = .both }
        e.handle(TouchEvent(.began, location: Point(400, 400), time: 0))
        e.handle(TouchEvent(.moved, location: Point(370, 395), time: 0.02))
        e.handle(TouchEvent(.moved, location: Point(300, 380), time: 0.04))
        let s = e.state(at: 0.04)
        #expect(s.offset.y == 0)
        #expect(s.offset.x > 90)
    }

    @Test func freePanningWhenTheLockIsOff() {
        var e = feed(content: Size(3000, 3000)) {
            $0.axes = .both; $0.isDirectionalLockEnabled = false
        }
        e.handle(TouchEvent(.began, location: Point(400, 400), time: 0))
        e.handle(TouchEvent(.moved, location: Point(370, 395), time: 0.02))
        e.handle(TouchEvent(.moved, location: Point(300, 380), time: 0.04))
        let s = e.state(at: 0.04)
        #expect(s.offset.y > 0 && s.offset.x > 0)
    }

    @Test func absurdAndNaNCoordinatesAreIgnored() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(.nan, 3), time: 0))
        e.handle(TouchEvent(.began, location: Point(1e12, 3), time: 0))
        #expect(e.isAtRest(at: 0))
        e.handle(TouchEvent(.began, location: Point(400, 500), time: .infinity))
        #expect(e.isAtRest(at: 1))
    }
}

@Suite struct FlingTests {
    @Test func aFlickDeceleratesToTheProjection() {
        var e = feed(content: Size(800, 50000))
        let up = flick(&e)
        let s = e.state(at: up)
        #expect(s.phase == .decelerating)
        // 40 pt every 16 ms is 2500 pt/s.
        #expect(close(s.velocity.y, 2500, 1))
        let rest = e.state(at: up + 10)
        #expect(rest.phase == .idle)
        #expect(close(rest.offset.y, s.offset.y + 2500 * 0.4995, 2))
    }

    /// A frame loop delivers each touch at the first frame after it happened (late, by up to a
    /// frame) and reads the engine at its frame times. Touches carry their own times, so the
    /// positions at shared times must not depend on the frame rate or on jitter: an engine that
    /// stepped per frame, or used the delivery time, would drift.
    @Test func frameRateDoesNotChangeTheTrajectory() {
        // A flick, a touch that stops it mid-flight, and a hard flick into the end (a bounce).
        var events: [TouchEvent] = []
        func flickEvents(from t0: Double, step: Double, count: Int) {
            events.append(TouchEvent(.began, location: Point(400, 700), time: t0))
            for i in 1...count {
                events.append(TouchEvent(.moved, location: Point(400, 700 + step * Double(i)), time: t0 + 0.012 * Double(i)))
            }
            events.append(TouchEvent(.ended, location: .zero, time: t0 + 0.012 * Double(count) + 0.003))
        }
        flickEvents(from: 0.013, step: -35, count: 6)
        events.append(TouchEvent(.began, location: Point(300, 300), time: 0.437))
        events.append(TouchEvent(.ended, location: .zero, time: 0.501))
        flickEvents(from: 0.777, step: -90, count: 6)

        /// Offsets at the given frame times (shared times are compared).
        func run(frameTimes: [Double]) -> [Double: Double] {
            var e = feed(content: Size(800, 4000))
            var pending = events[...]
            var offsets: [Double: Double] = [:]
            for f in frameTimes {
                while let next = pending.first, next.time <= f { e.handle(next); pending.removeFirst() }
                offsets[f] = e.state(at: f).offset.y
            }
            return offsets
        }
        let grid = { (hz: Double) in (0...Int(4 * hz)).map { Double($0) / hz } }
        let reference = run(frameTimes: grid(30))
        for hz in [60.0, 120.0] {
            let other = run(frameTimes: grid(hz))
            for (t, y) in reference { #expect(other[t] == y, "at t = \(t) s, \(hz) Hz") }
        }
        // Jittered frames (8 to 25 ms apart) that also land on the 30 Hz times.
        var jittered: [Double] = []
        var rng: UInt64 = 12345
        for k in 0..<120 {
            let a = Double(k) / 30, b = Double(k + 1) / 30
            jittered.append(a)
            var t = a
            while true {
                rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                t += 0.008 + Double(rng >> 40) / Double(1 << 24) * 0.017
                if t >= b { break }
                jittered.append(t)
            }
        }
        let jitter = run(frameTimes: jittered)
        for (t, y) in reference where t < 4 { #expect(jitter[t] == y, "at t = \(t) s, jittered") }
        // The script really moved, stopped and bounced: the comparison is not of a still engine.
        #expect(reference.values.contains { $0 > 200 })
        #expect(reference.values.contains { $0 > 3200 })
    }

    @Test func belowTheMinimumFlingVelocityItJustStops() {
        var e = feed()
        let up = flick(&e, step: -0.5, count: 30, dt: 0.016)
        _ = up
        // 0.5 pt per 16 ms ≈ 31 pt/s < 50 pt/s.
        #expect(e.isAtRest(at: up))
    }

    @Test func aFingerThatRestedBeforeLiftingDoesNotFling() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 600), time: 0))
        for i in 1...5 { e.handle(TouchEvent(.moved, location: Point(400, 600 - 40 * Double(i)), time: Double(i) * 0.016)) }
        e.handle(TouchEvent(.ended, location: Point(400, 400), time: 0.08 + 0.05))
        #expect(e.isAtRest(at: 0.13))
        #expect(close(e.state(at: 0.13).offset.y, 192))
    }

    @Test func flingIntoTheEndOvershootsOnceThenRestsAtTheEdge() {
        var e = feed(offset: Point(0, 4000))
        let up = flick(&e)
        let maxOffset = 4200.0
        var peak = 0.0, dipped = false
        for i in 0...3000 {
            let y = e.state(at: up + Double(i) / 1000).offset.y
            peak = max(peak, y)
            if peak > maxOffset && y < maxOffset - 1e-9 { dipped = true }
        }
        #expect(peak > maxOffset + 5)
        #expect(!dipped)
        #expect(e.state(at: up + 3).offset.y == maxOffset)
        #expect(e.isAtRest(at: up + 3))
    }

    @Test func releasingWhileOverscrolledSpringsBackWithoutCrossing() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 100), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 300), time: 0.1))
        e.handle(TouchEvent(.moved, location: Point(400, 200), time: 0.116))
        e.handle(TouchEvent(.ended, location: Point(400, 150), time: 0.12))
        #expect(e.state(at: 0.12).offset.y < 0)
        #expect(e.state(at: 0.13).phase == .bouncing)
        for i in 0...2000 { #expect(e.state(at: 0.12 + Double(i) / 1000).offset.y <= 1e-9) }
        #expect(e.isAtRest(at: 2.2))
    }

    @Test func touchToStopStopsAtOnceAndIsNotATap() {
        var e = feed(content: Size(800, 50000))
        let up = flick(&e)
        let t = up + 0.2
        let before = e.state(at: t).offset.y
        #expect(e.handle(TouchEvent(.began, location: Point(400, 400), time: t)) == nil)
        #expect(e.state(at: t + 0.5).offset.y == before)
        let gesture = e.handle(TouchEvent(.ended, location: Point(400, 400), time: t + 0.08))
        #expect(gesture == nil)
        #expect(e.isAtRest(at: t + 0.08))
        #expect(e.state(at: t + 1).offset.y == before)
        // A later tap on content at rest is a tap.
        e.handle(TouchEvent(.began, location: Point(300, 300), time: t + 2))
        #expect(e.handle(TouchEvent(.ended, location: Point(300, 300), time: t + 2.05)) == .tap(Point(300, 300)))
    }

    @Test func cancelDoesNotFling() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 600), time: 0))
        for i in 1...5 { e.handle(TouchEvent(.moved, location: Point(400, 600 - 40 * Double(i)), time: Double(i) * 0.016)) }
        e.handle(TouchEvent(.cancelled, location: .zero, time: 0.085))
        #expect(e.isAtRest(at: 0.085))
    }
}

@Suite struct PagingTests {
    func pager(overlap: Double = 0) -> ScrollController {
        feed(content: Size(800, 4000)) {
            $0.isPagingEnabled = true; $0.pageOverlap = overlap
        }
    }

    @Test func quickShortFlickMovesOnePage() {
        var e = pager()
        let up = flick(&e, step: -12, count: 3)  // 36 pt at 750 pt/s
        #expect(e.state(at: up + 0.01).phase == .snapping)
        #expect(e.state(at: up + 3).offset.y == 800)
        #expect(e.currentPage(.vertical, at: up + 3) == 1)
    }

    @Test func slowDragPastHalfMovesOnePageAndLessReturns() {
        for (distance, page) in [(450.0, 1), (350.0, 0)] {
            var e = pager()
            e.handle(TouchEvent(.began, location: Point(400, 700), time: 0))
            let steps = 40
            for i in 1...steps {
                e.handle(TouchEvent(.moved, location: Point(400, 700 - (distance + 8) * Double(i) / Double(steps)), time: Double(i) * 0.05))
            }
            e.handle(TouchEvent(.ended, location: Point(400, 0), time: Double(steps) * 0.05 + 0.1))
            #expect(e.state(at: 10).offset.y == Double(page) * 800)
        }
    }

    @Test func aHugeFlickNeverSkipsAPage() {
        var e = pager()
        let up = flick(&e, step: -120, count: 5, dt: 0.008)
        #expect(e.state(at: up + 3).offset.y == 800)
        for i in 0...3000 { #expect(e.state(at: up + Double(i) / 1000).offset.y <= 800 + 1e-9) }
    }

    /// The reproduction: on page 2 (offset 1600), the finger drags forward 160 pt over
    /// 400 ms, then flicks back 45 pt. UIKit, ViewPager and Flutter return to page 2; the old
    /// rule (a flick moves one page from the start page its way) went on to page 1.
    @Test func aDragForwardFlickedBackReturnsToTheStartPage() {
        var e = feed(content: Size(800, 8000), offset: Point(0, 1600)) { $0.isPagingEnabled = true }
        var t = 0.0
        e.handle(TouchEvent(.began, location: Point(400, 500), time: t))
        for i in 1...25 {
            t += 0.016
            e.handle(TouchEvent(.moved, location: Point(400, 500 - 160 * Double(i) / 25), time: t))
        }
        for y in [355.0, 370, 385] {
            t += 0.008
            e.handle(TouchEvent(.moved, location: Point(400, y), time: t))
        }
        #expect(e.state(at: t).offset.y == 1707)  // 1600 + (492 - 385): still ahead of page 2
        t += 0.008
        e.handle(TouchEvent(.ended, location: Point(400, 385), time: t))
        #expect(e.state(at: t).velocity.y < -300)  // a flick back
        #expect(e.state(at: t + 3).offset.y == 1600)
        for i in 0...3000 { #expect(e.state(at: t + Double(i) / 1000).offset.y >= 1600 - 1e-9) }
        #expect(e.currentPage(.vertical, at: t + 3) == 2)
    }

    @Test func overlapShortensThePage() {
        var e = pager(overlap: 40)
        let up = flick(&e, step: -12, count: 3)
        #expect(e.state(at: up + 3).offset.y == 760)
        e.perform(.pageDown, at: up + 4)
        #expect(e.state(at: up + 8).offset.y == 1520)
    }
}

@Suite struct ZoomTests {
    func photo() -> ScrollController {
        feed(content: Size(800, 800)) {
            $0.axes = .both; $0.minimumScale = 1; $0.maximumScale = 4; $0.doubleTapScale = 2.5
        }
    }

    @Test func pinchScalesAroundTheMidpointAndPansWithIt() {
        var e = photo()
        e.handle(TouchEvent(.began, id: 0, location: Point(350, 400), time: 0))
        e.handle(TouchEvent(.began, id: 1, location: Point(450, 400), time: 0.01))
        // Content point under the start midpoint (400, 400) at scale 1 is (400, 400).
        e.handle(TouchEvent(.moved, id: 0, location: Point(310, 420), time: 0.02))
        e.handle(TouchEvent(.moved, id: 1, location: Point(510, 420), time: 0.02))
        let s = e.state(at: 0.02)
        #expect(s.phase == .zooming)
        #expect(close(s.scale, 2))
        // The midpoint moved to (410, 420); the same content point must sit under it.
        #expect(close((410 + s.offset.x) / s.scale, 400))
        #expect(close((420 + s.offset.y) / s.scale, 400))
    }

    @Test func pinchPastTheMaximumIsRubberBandedAndSpringsBack() {
        var e = photo()
        e.handle(TouchEvent(.began, id: 0, location: Point(390, 400), time: 0))
        e.handle(TouchEvent(.began, id: 1, location: Point(410, 400), time: 0))
        e.handle(TouchEvent(.moved, id: 0, location: Point(290, 400), time: 0.05))
        e.handle(TouchEvent(.moved, id: 1, location: Point(510, 400), time: 0.05))
        let s = e.state(at: 0.05)
        // Raw scale 11 shows as 4 + rubber band of 7 over 4.
        #expect(close(s.scale, 4 + rubberBand(overshoot: 7, dimension: 4)))
        #expect(s.scale < 11)
        e.handle(TouchEvent(.ended, id: 0, location: .zero, time: 0.06))
        e.handle(TouchEvent(.ended, id: 1, location: .zero, time: 0.06))
        #expect(e.state(at: 0.07).phase == .zooming)
        let rest = e.state(at: 3)
        #expect(rest.phase == .idle)
        #expect(rest.scale == 4)
        #expect(rest.offset.x >= 0 && rest.offset.x <= 2400 && rest.offset.y >= 0 && rest.offset.y <= 2400)
    }

    @Test func pinchBelowTheMinimumSpringsBackToIt() {
        var e = photo()
        e.handle(TouchEvent(.began, id: 0, location: Point(200, 400), time: 0))
        e.handle(TouchEvent(.began, id: 1, location: Point(600, 400), time: 0))
        e.handle(TouchEvent(.moved, id: 0, location: Point(350, 400), time: 0.05))
        e.handle(TouchEvent(.moved, id: 1, location: Point(450, 400), time: 0.05))
        #expect(e.state(at: 0.05).scale < 1 && e.state(at: 0.05).scale > 0.5)
        e.handle(TouchEvent(.ended, id: 1, location: .zero, time: 0.06))
        e.handle(TouchEvent(.ended, id: 0, location: .zero, time: 0.07))
        let rest = e.state(at: 3)
        #expect(rest.scale == 1 && rest.offset == .zero)
    }

    @Test func doubleTapZoomsInAroundThePointAndBackOut() {
        var e = photo()
        let p = Point(200, 300)
        #expect(e.handle(TouchEvent(.began, location: p, time: 0)) == nil)
        #expect(e.handle(TouchEvent(.ended, location: p, time: 0.05)) == .tap(p))
        e.handle(TouchEvent(.began, location: p, time: 0.15))
        #expect(e.handle(TouchEvent(.ended, location: p, time: 0.2)) == .doubleTap(p))
        let zoomed = e.state(at: 3)
        #expect(zoomed.scale == 2.5)
        #expect(close((p.x + zoomed.offset.x) / 2.5, 200) && close((p.y + zoomed.offset.y) / 2.5, 300))
        e.handle(TouchEvent(.began, location: p, time: 4))
        e.handle(TouchEvent(.ended, location: p, time: 4.05))
        e.handle(TouchEvent(.began, location: p, time: 4.1))
        e.handle(TouchEvent(.ended, location: p, time: 4.15))
        #expect(e.state(at: 8).scale == 1)
        #expect(e.state(at: 8).offset == .zero)
    }

    @Test func twoTapsFarApartOrSlowAreTwoTaps() {
        var e = photo()
        e.handle(TouchEvent(.began, location: Point(100, 100), time: 0))
        e.handle(TouchEvent(.ended, location: Point(100, 100), time: 0.05))
        e.handle(TouchEvent(.began, location: Point(100, 100), time: 0.6))
        #expect(e.handle(TouchEvent(.ended, location: Point(100, 100), time: 0.65)) == .tap(Point(100, 100)))
    }
}

@Suite struct ProgramScrollTests {
    @Test func keysScrollByLinePageMinusOverlapAndToTheEnds() {
        var e = feed {
            $0.pageOverlap = 24; $0.lineScroll = 40
        }
        e.perform(.lineDown, at: 0)
        #expect(e.state(at: 0.01).phase == .animating)
        #expect(e.state(at: 3).offset.y == 40)
        e.perform(.pageDown, at: 3)
        #expect(e.state(at: 6).offset.y == 40 + 776)
        e.perform(.end, at: 6)
        #expect(e.state(at: 9).offset.y == 4200)
        e.perform(.pageDown, at: 9)
        #expect(e.state(at: 12).offset.y == 4200)
        e.perform(.home, at: 12)
        #expect(e.state(at: 15).offset.y == 0)
    }

    @Test func repeatedPageDownsAccumulate() {
        var e = feed()
        e.perform(.pageDown, at: 0)
        e.perform(.pageDown, at: 0.05)
        e.perform(.pageDown, at: 0.1)
        #expect(e.state(at: 4).offset.y == 2400)
    }

    @Test func programScrollsAnimateWithoutOvershootOrJumpInstantly() {
        var e = feed()
        e.scroll(to: Point(0, 1000), at: 0)
        for i in 0...2000 { #expect(e.state(at: Double(i) / 1000).offset.y <= 1000 + 1e-9) }
        #expect(e.state(at: 3).offset.y == 1000)
        e.scroll(to: Point(0, 99999), animated: false, at: 3)
        #expect(e.state(at: 3).offset.y == 4200)
        #expect(e.isAtRest(at: 3))
    }

    @Test func revealScrollsTheMinimumOrAlignsTheAnchor() {
        let e = feed(offset: Point(0, 1000))
        // Fully visible: no move.
        #expect(e.offset(revealing: Rect(x: 0, y: 1200, width: 100, height: 100), anchor: nil, from: Point(0, 1000)).y == 1000)
        // Below: align its bottom with the viewport's bottom.
        #expect(e.offset(revealing: Rect(x: 0, y: 1900, width: 100, height: 150), anchor: nil, from: Point(0, 1000)).y == 1250)
        // Above: align its top.
        #expect(e.offset(revealing: Rect(x: 0, y: 500, width: 100, height: 150), anchor: nil, from: Point(0, 1000)).y == 500)
        // Partly visible at the bottom: only as much as needed.
        #expect(e.offset(revealing: Rect(x: 0, y: 1750, width: 100, height: 100), anchor: nil, from: Point(0, 1000)).y == 1050)
        // Anchors.
        #expect(e.offset(revealing: Rect(x: 0, y: 2000, width: 100, height: 100), anchor: .top, from: Point(0, 1000)).y == 2000)
        #expect(e.offset(revealing: Rect(x: 0, y: 2000, width: 100, height: 100), anchor: .center, from: Point(0, 1000)).y == 1650)
        #expect(e.offset(revealing: Rect(x: 0, y: 2000, width: 100, height: 100), anchor: .bottom, from: Point(0, 1000)).y == 1300)
        // Clamped to the content.
        #expect(e.offset(revealing: Rect(x: 0, y: 4900, width: 100, height: 100), anchor: .top, from: .zero).y == 4200)
    }

    @Test func atRestOnlyWhenNothingMoves() {
        var e = feed()
        #expect(e.isAtRest(at: 0))
        e.scroll(to: Point(0, 300), at: 0)
        #expect(!e.isAtRest(at: 0.1))
        #expect(e.isAtRest(at: 5))
        e.handle(TouchEvent(.began, location: Point(1, 1), time: 6))
        #expect(!e.isAtRest(at: 6))
    }

    @Test func resizeKeepsTheOffsetInsideTheNewBounds() {
        var e = feed(offset: Point(0, 4200))
        e.resize(viewport: Size(800, 1200), content: Size(800, 5000), at: 0)
        #expect(e.state(at: 0).offset.y == 3800)
        e.resize(viewport: Size(.nan, 10), content: Size(-5, .infinity), at: 1)
        #expect(e.state(at: 1).offset.isFinite)
    }
}

/// Content measured while it moves (lazy lists): the motion carries on, shifted.
@Suite struct ContentChangeTests {
    @Test func aFlingCarriesOnShiftedWhenContentAboveIsMeasured() {
        var moving = feed(content: Size(800, 50_000), offset: Point(0, 10_000))
        let up = flick(&moving)
        let reference = moving
        moving.changeContent(size: Size(800, 50_120), shiftedBy: Point(0, 120), at: up + 0.2)
        for dt in [0.2, 0.35, 0.8, 1.5] {
            let a = moving.state(at: up + dt), b = reference.state(at: up + dt)
            #expect(close(a.offset.y, b.offset.y + 120, 1e-6), "at +\(dt): \(a.offset.y) vs \(b.offset.y) + 120")
            #expect(close(a.velocity.y, b.velocity.y, 1e-6))
            #expect(a.phase == b.phase)
        }
    }

    @Test func aDragKeepsTheFingerOnTheSameContent() {
        var e = feed(content: Size(800, 50_000), offset: Point(0, 10_000))
        e.handle(TouchEvent(.began, location: Point(400, 500), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 450), time: 0.02))
        let before = e.state(at: 0.02).offset.y
        e.changeContent(size: Size(800, 49_970), shiftedBy: Point(0, -30), at: 0.03)
        #expect(close(e.state(at: 0.03).offset.y, before - 30))
        e.handle(TouchEvent(.moved, location: Point(400, 440), time: 0.04))
        #expect(close(e.state(at: 0.04).offset.y, before - 30 + 10))
        #expect(e.state(at: 0.04).phase == .dragging)
    }

    @Test func aProgramScrollKeepsAimingAtTheSameContent() {
        var e = feed(content: Size(800, 50_000))
        e.scroll(to: Point(0, 20_000), animated: true, at: 0)
        e.changeContent(size: Size(800, 50_500), shiftedBy: Point(0, 500), at: 0.1)
        #expect(e.destination(at: 0.1)?.y == 20_500)
        #expect(close(e.state(at: 5).offset.y, 20_500))
    }

    @Test func contentThatShrinksPastTheOffsetClampsAtRest() {
        var e = feed(content: Size(800, 5000), offset: Point(0, 4000))
        e.changeContent(size: Size(800, 3000), shiftedBy: .zero, at: 0)
        #expect(e.state(at: 0).offset.y == 2200)
    }
}

/// Inputs the fuzzer (Tests/Fuzz) found, as exact cases.
@Suite struct FuzzFoundTests {
    /// Two fingers down 200 pt apart at (300, 400) and (500, 400), the second moved to `x`.
    func pinch(_ e: inout ScrollController, secondFingerTo x: Double) {
        e.handle(TouchEvent(.began, id: 0, location: Point(300, 400), time: 0))
        e.handle(TouchEvent(.began, id: 1, location: Point(500, 400), time: 0))
        e.handle(TouchEvent(.moved, id: 1, location: Point(x, 400), time: 0.1))
    }
    /// `autoscroll(velocity: .zero)` is how a view stops autoscrolling when the finger lifts.
    /// It used to freeze every motion, so content bouncing back from past an edge stayed there.
    @Test func stoppingAutoscrollLetsABounceBackFinish() {
        var e = feed(offset: Point(0, 0))
        e.handle(TouchEvent(.began, location: Point(400, 300), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 400), time: 0.05))
        e.handle(TouchEvent(.moved, location: Point(400, 500), time: 0.1))
        e.handle(TouchEvent(.ended, location: Point(400, 500), time: 0.5))
        let pulled = e.state(at: 0.5).offset.y
        #expect(pulled < -50)
        e.autoscroll(velocity: .zero, at: 0.52)
        #expect(e.state(at: 0.6).offset.y > e.state(at: 0.52).offset.y)
        #expect(e.isAtRest(at: 5) && e.state(at: 5).offset.y == 0)
    }

    @Test func stoppingAutoscrollStopsItWhereItIs() {
        var e = feed()
        e.autoscroll(velocity: Point(0, 1000), at: 0)
        #expect(close(e.state(at: 0.5).offset.y, 500))
        e.autoscroll(velocity: .zero, at: 0.5)
        #expect(e.isAtRest(at: 0.5) && close(e.state(at: 3).offset.y, 500))
    }

    /// A lift reported at an absurd place (or time) used to be dropped with the other bad
    /// samples, so the finger stayed down and the list never moved again.
    @Test(arguments: [Point(400, -1e300), Point(.nan, 300), Point(400, 2e7)])
    func aLiftAtAnAbsurdPlaceStillEndsTheTouch(at place: Point) {
        var e = feed(offset: Point(0, 1000))
        e.handle(TouchEvent(.began, location: Point(400, 300), time: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 200), time: 0.05))
        e.handle(TouchEvent(.ended, location: place, time: 0.06))
        #expect(e.state(at: 0.06).phase != .dragging)
        #expect(e.isAtRest(at: 10))
        #expect(e.state(at: 10).offset.y > 1000)  // the drag moved it; no fling into nowhere
        e.handle(TouchEvent(.began, location: Point(400, 300), time: 11))
        e.handle(TouchEvent(.moved, location: Point(400, 250), time: 11.05))
        #expect(e.state(at: 11.05).phase == .dragging)
    }

    @Test func aLiftWithANaNTimeEndsTheTouchWhenLastSeen() {
        var e = feed()
        e.handle(TouchEvent(.began, location: Point(400, 300), time: 1))
        e.handle(TouchEvent(.cancelled, location: Point(400, 300), time: .nan))
        #expect(e.isAtRest(at: 1))
    }

    /// Autoscroll used to freeze a running zoom animation at a passing scale, leaving the
    /// content out of bounds at that scale.
    @Test func autoscrollWaitsForAZoomAnimation() {
        var e = feed(content: Size(800, 800)) {
            $0.minimumScale = 0.25; $0.maximumScale = 4
        }
        e.zoom(to: 3, around: Point(700, 700), at: 0)
        e.autoscroll(velocity: .zero, at: 0.05)
        e.autoscroll(velocity: Point(0, 500), at: 0.1)
        #expect(e.state(at: 0.1).phase == .zooming)
        #expect(e.isAtRest(at: 5) && close(e.state(at: 5).scale, 3))
        let rest = e.state(at: 5)
        #expect(rest.offset.y >= 0 && rest.offset.y <= e.maximumOffset(.vertical, scale: 3))
        e.autoscroll(velocity: Point(0, 500), at: 5)
        #expect(e.state(at: 5.1).phase == .animating)
    }

    /// A program scroll during the zoom's spring back from a pinch past the maximum used to
    /// freeze the scale above the maximum for good.
    @Test func aProgramScrollDuringTheZoomSpringBackEndsWithinTheLimits() {
        var e = feed(content: Size(800, 800)) {
            $0.minimumScale = 0.5; $0.maximumScale = 2
        }
        pinch(&e, secondFingerTo: 800)
        e.handle(TouchEvent(.ended, id: 1, location: Point(800, 400), time: 0.2))
        e.handle(TouchEvent(.ended, id: 0, location: Point(300, 400), time: 0.2))
        #expect(e.state(at: 0.21).scale > 2)
        e.scroll(to: Point(100, 100), at: 0.22)
        #expect(e.isAtRest(at: 5))
        #expect(e.state(at: 5).scale == 2)
    }

    /// After a zoom animation, even a finished one, a content change was ignored, so content
    /// that shrank left the offset out of bounds.
    @Test func contentThatShrinksAfterAZoomMovesTheOffsetIn() {
        var e = feed(content: Size(800, 5000)) {
            $0.minimumScale = 1; $0.maximumScale = 2
        }
        e.zoom(to: 2, around: Point(400, 400), at: 0)
        #expect(e.isAtRest(at: 3))
        e.scroll(to: Point(0, 9000), animated: false, at: 3)
        e.changeContent(size: Size(800, 1000), shiftedBy: .zero, at: 4)
        let rest = e.state(at: 10)
        #expect(rest.scale == 2 && rest.offset.y == e.maximumOffset(.vertical) && rest.offset.y == 1200)
    }

    /// An autoscroll at the end of content that then shrank kept the old offset, and stopping
    /// it left the content there.
    @Test func anAutoscrollWhoseContentShrinksEndsInsideTheNewBounds() {
        var e = feed(content: Size(800, 5000))
        e.autoscroll(velocity: Point(0, 2000), at: 0)
        #expect(e.state(at: 3).offset.y == 4200)
        e.changeContent(size: Size(800, 1000), shiftedBy: .zero, at: 3)
        e.autoscroll(velocity: .zero, at: 3.1)
        #expect(e.isAtRest(at: 10) && e.state(at: 10).offset.y == 200)
    }

    /// A program zoom during a pinch started an animation under the fingers; when they lifted
    /// the scale went negative.
    @Test func aProgramZoomDuringAPinchWaitsForTheFingers() {
        var e = feed(content: Size(800, 1600)) {
            $0.minimumScale = 0.25; $0.maximumScale = 1
        }
        pinch(&e, secondFingerTo: 700)
        e.zoom(to: 0.5, around: Point(400, 400), at: 0.15)
        #expect(e.state(at: 0.2).phase == .zooming)
        e.handle(TouchEvent(.ended, id: 1, location: Point(700, 400), time: 0.3))
        e.handle(TouchEvent(.ended, id: 0, location: Point(300, 400), time: 0.4))
        #expect(e.isAtRest(at: 5) && e.state(at: 5).scale == 1)
    }

    /// A program zoom under a resting finger ran unseen until the finger dragged, and the
    /// drag then rested past the content's end.
    @Test func aProgramZoomUnderARestingFingerIsIgnored() {
        var e = feed(content: Size(800, 1600)) {
            $0.minimumScale = 0.5; $0.maximumScale = 4
        }
        e.handle(TouchEvent(.began, location: Point(400, 400), time: 0))
        e.zoom(to: 3, around: Point(400, 400), at: 0.05)
        e.handle(TouchEvent(.moved, location: Point(400, 300), time: 0.1))
        e.handle(TouchEvent(.ended, location: Point(400, 300), time: 0.5))
        let rest = e.state(at: 5)
        #expect(e.isAtRest(at: 5) && rest.scale == 1 && rest.offset.y == 92)
    }
}

extension FuzzFoundTests {
    /// A content change that said everything moved by 1e300 points started a spring from
    /// there, whose velocity overflowed to infinity.
    @Test func anAbsurdContentShiftKeepsTheMotionFinite() {
        var e = feed(content: Size(800, 5000))
        e.scroll(to: Point(0, 1000), at: 0)
        e.changeContent(size: Size(800, 5000), shiftedBy: Point(0, 1e300), at: 0.05)
        for t in stride(from: 0.05, through: 5, by: 0.05) {
            let s = e.state(at: t)
            #expect(s.offset.isFinite && s.velocity.isFinite)
        }
        #expect(e.isAtRest(at: 10) && e.state(at: 10).offset.y == 4200)
    }
}

/// A finger that stops is still once resampling draws it where it is, whatever the latency:
/// the loop may then draw nothing until the next touch.
@Suite struct StillnessTests {
    @Test func aHeldDragIsStillOnceResamplingStopsPredicting() {
        for latency in [0.0, TouchResampling.defaultLatency, 0.05] {
            var e = feed { $0.touchResampling = TouchResampling(latency: latency) }
            e.handle(TouchEvent(.began, location: Point(400, 600), time: 0))
            for i in 1...5 { e.handle(TouchEvent(.moved, location: Point(400, 600 - 30 * Double(i)), time: 0.016 * Double(i))) }
            // (A nanosecond past the horizon: 0.08 + 0.008 - 0.08 is a hair under 0.008.)
            let last = 0.08, still = last + latency + TouchResampling.maximumPrediction + 1e-9
            #expect(!e.isStill(at: still - 0.001))
            #expect(e.isStill(at: still))
            // Still means the same state from then on, and it was moving just before.
            #expect(e.state(at: still) == e.state(at: still + 3600))
            #expect(e.state(at: still - 0.001) != e.state(at: still))
            #expect(!e.isAtRest(at: last + 1))
        }
        // A resting finger and no resampling: still at once.
        var e = feed { $0.touchResampling = nil }
        e.handle(TouchEvent(.began, location: Point(400, 600), time: 0))
        #expect(e.isStill(at: 0))
        e.handle(TouchEvent(.moved, location: Point(400, 500), time: 0.02))
        #expect(e.isStill(at: 0.02))
    }
}
