import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Physics

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite struct FrictionTests {
    @Test func normalRateProjectsHalfASecondOfVelocity() {
        let f = FrictionSimulation(position: 1000, velocity: 2000, rate: 0.998)
        // −1/(1000·ln 0.998) = 0.49949983…
        #expect(close(f.finalPosition, 1000 + 0.4995 * 2000, 0.001))
        #expect(close(f.finalPosition, 1000 - 2000 / (1000 * log(0.998)), 1e-9))
    }

    @Test func fastRateProjectsATenthOfASecond() {
        let f = FrictionSimulation(position: 0, velocity: 1000, rate: 0.99)
        #expect(close(f.finalPosition, 0.0995 * 1000, 0.01))
    }

    @Test func velocityDecaysByTheRatePerMillisecond() {
        let f = FrictionSimulation(position: 0, velocity: 2000, rate: 0.998)
        #expect(close(f.velocity(at: 0.5), 2000 * pow(0.998, 500), 1e-9))
        #expect(close(f.velocity(at: 0.001), 2000 * 0.998, 1e-9))
        #expect(close(f.position(at: 0), 0))
    }

    @Test func timeAtPositionInvertsPosition() throws {
        let f = FrictionSimulation(position: 10, velocity: -900, rate: 0.998)
        for t in [0.0, 0.1, 0.37, 1.2] {
            let x = f.position(at: t)
            let back = try #require(f.time(atPosition: x))
            #expect(close(back, t, 1e-9))
        }
        #expect(f.time(atPosition: f.finalPosition - 1) == nil)
    }

    @Test func doneWhenLessThanTheToleranceIsLeftToTravel() {
        let f = FrictionSimulation(position: 0, velocity: 2000, rate: 0.998)
        let d = f.duration
        #expect(!f.isDone(at: d - 0.01))
        #expect(f.isDone(at: d + 0.001))
        #expect(abs(f.finalPosition - f.position(at: d)) <= Tolerance.standard.distance + 1e-9)
    }

    @Test func nonFiniteVelocityIsTreatedAsRest() {
        let f = FrictionSimulation(position: 5, velocity: .nan, rate: 0.998)
        #expect(f.finalPosition == 5)
        #expect(f.isDone(at: 0))
    }
}

@Suite struct SpringTests {
    let spring = SpringDescription.scrollBounce

    @Test func criticallyDampedClosedForm() {
        let s = SpringSimulation(spring: spring, position: 10, velocity: 0, target: 0)
        let w = spring.angularFrequency
        for t in [0.0, 0.05, 0.3, 1.0] {
            #expect(close(s.position(at: t), 10 * (1 + w * t) * exp(-w * t), 1e-9))
        }
        #expect(close(spring.dampingRatio, 1))
    }

    @Test func velocityIsTheDerivative() {
        for desc in [
            spring, SpringDescription(mass: 1, stiffness: 100, dampingRatio: 0.5),
            SpringDescription(mass: 1, stiffness: 100, dampingRatio: 2),
        ] {
            let s = SpringSimulation(spring: desc, position: 30, velocity: -200, target: 5)
            #expect(close(s.position(at: 0), 30, 1e-9))
            #expect(close(s.velocity(at: 0), -200, 1e-6))
            for t in [0.02, 0.1, 0.4] {
                let h = 1e-6
                let numeric = (s.position(at: t + h) - s.position(at: t - h)) / (2 * h)
                #expect(close(s.velocity(at: t), numeric, 1e-3))
            }
        }
    }

    @Test func noCrossingVelocityKeepsTheSpringOnOneSide() {
        let x0 = -40.0
        let v = SpringSimulation.noCrossingVelocity(5000, displacement: x0, spring: spring)
        #expect(close(v, spring.angularFrequency * 40))
        let s = SpringSimulation(spring: spring, position: x0, velocity: v, target: 0)
        for i in 0...2000 { #expect(s.position(at: Double(i) / 1000) <= 1e-9) }
        // Moving away from the target is left alone.
        #expect(SpringSimulation.noCrossingVelocity(-300, displacement: x0, spring: spring) == -300)
    }
}

@Suite struct BouncingTests {
    @Test func flingInsideTheBoundsIsPureFriction() {
        let b = BouncingScrollSimulation(position: 1000, velocity: 2000, leadingExtent: 0, trailingExtent: 4200, rate: 0.998)
        #expect(close(b.finalPosition, 1000 + 2000 * 0.4995, 0.01))
        #expect(b.stage(at: 10) == .decelerating)
    }

    @Test func flingPastTheEdgeOvershootsOnceAndSettlesWithoutOscillating() {
        let b = BouncingScrollSimulation(position: 3800, velocity: 3000, leadingExtent: 0, trailingExtent: 4200, rate: 0.998)
        var peak = 0.0, crossedBack = false, reachedEdge = false
        var previous = 3800.0
        var turned = false
        for i in 0...3000 {
            let t = Double(i) / 1000
            let x = b.position(at: t)
            if x >= 4200 { reachedEdge = true }
            if reachedEdge && x < 4200 - 1e-9 { crossedBack = true }
            if x < previous - 1e-12 { turned = true }
            if turned && x > previous + 1e-9 { Issue.record("moved outwards again at t=\(t)"); break }
            peak = max(peak, x)
            previous = x
        }
        #expect(reachedEdge && !crossedBack)
        #expect(peak > 4200 + 10 && peak < 4200 + 200)
        #expect(b.isDone(at: 3))
        #expect(b.finalPosition == 4200)
    }

    @Test func handOffIsContinuousInPositionAndVelocity() throws {
        let f = FrictionSimulation(position: 3800, velocity: 2000, rate: 0.998)
        let tEdge = try #require(f.time(atPosition: 4200))
        let b = BouncingScrollSimulation(position: 3800, velocity: 2000, leadingExtent: 0, trailingExtent: 4200, rate: 0.998)
        #expect(close(b.position(at: tEdge - 1e-7), b.position(at: tEdge + 1e-7), 1e-3))
        #expect(close(b.velocity(at: tEdge - 1e-7), b.velocity(at: tEdge + 1e-7), 0.5))
        #expect(b.stage(at: tEdge + 0.01) == .bouncing)
    }

    @Test func bounceVelocityIsCapped() {
        let fast = BouncingScrollSimulation(
            position: 4190, velocity: 20000, leadingExtent: 0, trailingExtent: 4200,
            rate: 0.998, maximumBounceVelocity: 3000)
        let capped = BouncingScrollSimulation(
            position: 4199.999, velocity: 3000, leadingExtent: 0, trailingExtent: 4200,
            rate: 0.998, maximumBounceVelocity: 3000)
        let peakFast = (0...1000).map { fast.position(at: Double($0) / 1000) }.max()!
        let peakCapped = (0...1000).map { capped.position(at: Double($0) / 1000) }.max()!
        #expect(close(peakFast, peakCapped, 1.0))
        // Critically damped from the edge at v: peak v/(ωe).
        #expect(close(peakCapped - 4200, 3000 / (SpringDescription.scrollBounce.angularFrequency * exp(1)), 0.5))
    }

    @Test func releaseWhileOverscrolledReturnsWithoutCrossing() {
        let b = BouncingScrollSimulation(position: -120, velocity: 4000, leadingExtent: 0, trailingExtent: 1000, rate: 0.998)
        for i in 0...2000 { #expect(b.position(at: Double(i) / 1000) <= 1e-9) }
        #expect(b.isDone(at: 2))
        #expect(b.stage(at: 0) == .bouncing)
    }
}

@Suite struct RubberBandTests {
    @Test func formula() {
        // (1 − 1/(x·c/d + 1))·d with x = 100, d = 800, c = 0.55
        #expect(close(rubberBand(overshoot: 100, dimension: 800), (1 - 1 / (100 * 0.55 / 800 + 1)) * 800))
        #expect(close(rubberBand(overshoot: 100, dimension: 800), 51.46198830409356, 1e-9))
        #expect(rubberBand(overshoot: 0, dimension: 800) == 0)
        #expect(rubberBand(overshoot: 1e9, dimension: 800) < 800)
    }

    @Test func inverseRoundTrips() {
        for x in [0.5, 10, 100, 1000, 5000] {
            let s = rubberBand(overshoot: x, dimension: 600)
            #expect(close(rubberBandInverse(shown: s, dimension: 600), x, 1e-6 * x))
        }
    }
}

@Suite struct VelocityTrackerTests {
    @Test func handComputedQuadratic() {
        // Samples (0 ms, 0), (10 ms, 10), (20 ms, 30): the parabola through them has slope
        // 2500 pt/s at 20 ms (x = 30 + 2500·t + 50000·t², t relative to the newest sample).
        var v = VelocityTracker()
        v.add(time: 0, position: 0)
        v.add(time: 0.010, position: 10)
        v.add(time: 0.020, position: 30)
        #expect(close(v.velocity(), 2500, 1e-6))
    }

    @Test func linearMotionGivesItsSlope() {
        var v = VelocityTracker()
        for i in 0...6 { v.add(time: Double(i) * 0.016, position: 100 + 1000 * Double(i) * 0.016) }
        #expect(close(v.velocity(), 1000, 1e-6))
    }

    @Test func onlyTheLast100msAndAtMost20SamplesCount() {
        var v = VelocityTracker()
        // Old motion at −5000 pt/s, then 150 ms later steady +800 pt/s sampled every 4 ms.
        for i in 0..<10 { v.add(time: Double(i) * 0.004, position: -5000 * Double(i) * 0.004) }
        for i in 0..<40 { let t = 0.2 + Double(i) * 0.004; v.add(time: t, position: 800 * t) }
        #expect(close(v.velocity(), 800, 1e-6))
    }

    /// Steady −2000 pt/s, then steady +800 pt/s after `kink`, sampled every `dt` up to 0.3 s
    /// without gaps: the estimate is exactly 800 only if the samples before the kink are left out.
    func kinked(kink: Double, dt: Double) -> VelocityTracker {
        var v = VelocityTracker()
        for i in 0...Int((0.3 / dt).rounded()) {
            let t = Double(i) * dt
            v.add(time: t, position: t <= kink ? -2000 * t : -2000 * kink + 800 * (t - kink))
        }
        return v
    }

    @Test func samplesOlderThan100msDoNotCount() {
        // Every 10 ms: 11 samples in the last 100 ms (0.2 … 0.3 s), all after the kink at 0.15 s;
        // the 20 newest would reach back to 0.11 s, across the kink.
        #expect(close(kinked(kink: 0.15, dt: 0.010).velocity(), 800, 1e-6))
        #expect(!close(kinked(kink: 0.25, dt: 0.010).velocity(), 800, 1))
    }

    @Test func atMost20SamplesCount() {
        // Every 2 ms: 51 samples in the last 100 ms, across the kink at 0.25 s; the 20 newest
        // (0.262 … 0.3 s) all come after it.
        #expect(close(kinked(kink: 0.25, dt: 0.002).velocity(), 800, 1e-6))
        #expect(!close(kinked(kink: 0.275, dt: 0.002).velocity(), 800, 1))
    }

    @Test func aRestBeforeLiftingGivesZero() {
        var v = VelocityTracker()
        for i in 0...5 { v.add(time: Double(i) * 0.01, position: Double(i) * 20) }
        #expect(v.velocity(releaseTime: 0.05 + 0.039) != 0)
        #expect(v.velocity(releaseTime: 0.05 + 0.041) == 0)
    }

    @Test func aGapEndsTheHistory() {
        var v = VelocityTracker()
        v.add(time: 0, position: 0); v.add(time: 0.01, position: 50); v.add(time: 0.02, position: 100)
        // 50 ms gap: the finger rested; only two samples after it, which is too few.
        v.add(time: 0.07, position: 100); v.add(time: 0.08, position: 101)
        #expect(v.velocity() == 0)
    }

    @Test func fewerThanThreeSamplesAndBadSamplesGiveZero() {
        var v = VelocityTracker()
        v.add(time: 0, position: 0); v.add(time: 0.01, position: 30)
        #expect(v.velocity() == 0)
        v.add(time: .nan, position: 3); v.add(time: 0.02, position: .infinity); v.add(time: 0.005, position: 1)
        #expect(v.velocity() == 0)
    }

    @Test func identicalTimestampsDoNotProduceNaN() {
        var v = VelocityTracker()
        for _ in 0..<5 { v.add(time: 1, position: 10) }
        #expect(v.velocity() == 0)
    }
}

@Suite struct PageSnappingTests {
    let pages = PageSnapping(pageSize: 800, maximumOffset: 4000, flickVelocity: 300)

    @Test func pageGeometry() {
        #expect(pages.pageCount == 6)
        #expect(pages.startOffset(ofPage: 5) == 4000)
        #expect(pages.startOffset(ofPage: 9) == 4000)
        #expect(pages.nearestPage(to: 1250) == 2)
        #expect(PageSnapping(pageSize: 760, maximumOffset: 3000).pageCount == 5)
    }

    /// Pages narrower than the viewport (the catalog's peeking carousel: 574 pt pages, the end at
    /// 2455): the last page starts at the end, 159 pt after the one before it, and the end is on
    /// it, not on the page before.
    @Test func theClampedLastPageIsReachedAndReported() {
        let peeking = PageSnapping(pageSize: 574, maximumOffset: 2455)
        #expect(peeking.pageCount == 6)
        #expect(peeking.startOffset(ofPage: 5) == 2455)
        #expect(peeking.nearestPage(to: 2455) == 5)
        #expect(peeking.nearestPage(to: 2376) == 5)  // 79 from the end, 80 from page 4
        #expect(peeking.nearestPage(to: 2375) == 4)
        #expect(peeking.nearestPage(to: 2296) == 4)
        #expect(peeking.nearestPage(to: 3000) == 5)
        #expect(peeking.nearestPage(to: -40) == 0)
        #expect(peeking.nearestPage(to: 1e300) == 5 && peeking.nearestPage(to: -1e300) == 0)
        #expect(peeking.nearestPage(to: 287) == 1)  // a tie goes to the later page
        #expect(peeking.targetPage(startPage: 4, offset: 2300, velocity: 400) == 5)
        #expect(peeking.targetPage(startPage: 5, offset: 2400, velocity: -400) == 4)
    }

    @Test(arguments: [
        // (start page, offset, velocity) → target
        (0, 100.0, 400.0, 1),  // quick flick, short drag: next page
        (0, 450.0, 0.0, 1),  // slow drag past half: next page
        (0, 350.0, 100.0, 0),  // slow, less than half: back
        (2, 1500.0, -50.0, 2),  // slow, back less than half: stays
        (2, 1150.0, 0.0, 1),  // slow, back past half: previous
        (2, 2900.0, 8000.0, 3),  // a huge flick still moves one page only
        (2, 2500.0, -8000.0, 3),  // flick back: the page start at or behind the content
        (2, 1700.0, -400.0, 2),  // forward 100 pt, flicked back: the start page, not page 1
        (2, 1500.0, 400.0, 2),  // back 100 pt, flicked forward: the start page, not page 3
        (2, 1600.0, 400.0, 2),  // on a page start, a flick stays: the boundary "at or ahead"
        (2, 1601.0, 400.0, 3),  // just past it, the next page
        (2, 1100.0, -400.0, 1),  // back past the start page, flicked back: the page before
        (2, 2300.0, 0.0, 3),  // slow: the nearest page
        (2, 500.0, 0.0, 1),  // slow, two pages back: at most one page from the start
        (1, 1700.0, -400.0, 2),  // flicked back but still ahead of page 2: at most one page
        (5, 4100.0, 2000.0, 5),  // last page stays last
        (0, -50.0, -900.0, 0),  // first page stays first
    ])
    func targets(start: Int, offset: Double, velocity: Double, expected: Int) {
        #expect(pages.targetPage(startPage: start, offset: offset, velocity: velocity) == expected)
    }
}
