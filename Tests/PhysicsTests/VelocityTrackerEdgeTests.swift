import Testing
@testable import Physics

/// The 100 ms window at its edge, with millisecond timestamps as a recording has them.
@Suite struct VelocityWindowEdgeTests {
    @Test func aSampleExactlyOneHundredMillisecondsOldIsInside() {
        // 11 samples 10 ms apart, 2.326 s to 2.426 s; the oldest lags the line the others lie on.
        let times = (0...10).map { Double(2326 + 10 * $0) / 1000 }
        let positions = (0...10).map { $0 == 0 ? -50.0 : 10.0 * Double($0) }
        #expect(times[10] - times[0] > 0.1)  // what a Double comparison saw: 0.10000000000000009
        var tracker = VelocityTracker()
        for (t, x) in zip(times, positions) { tracker.add(time: t, position: x) }
        let all = VelocityTracker.quadraticSlope(ts: (0...10).map { Double($0 - 10) / 100 }, xs: positions)!
        let withoutOldest = VelocityTracker.quadraticSlope(ts: (1...10).map { Double($0 - 10) / 100 }, xs: Array(positions[1...]))!
        #expect(abs(all - withoutOldest) > 100)  // the oldest sample decides the answer
        #expect(abs(tracker.velocity(releaseTime: 2.426) - all) < 1e-6)
    }

    @Test func aSampleOneMillisecondBeyondIsOutside() {
        let times = [2.325] + (1...10).map { Double(2326 + 10 * $0) / 1000 }
        var tracker = VelocityTracker()
        for (i, t) in times.enumerated() { tracker.add(time: t, position: i == 0 ? -50 : 10 * Double(i)) }
        #expect(abs(tracker.velocity() - 1000) < 1e-6)  // the ten samples on the line: 10 pt per 10 ms
    }

    @Test func aReleaseExactlyFortyMillisecondsAfterTheLastSampleKeepsTheSpeed() {
        var tracker = VelocityTracker()
        for i in 0...5 { tracker.add(time: Double(1000 + 10 * i) / 1000, position: 10 * Double(i)) }
        #expect(abs(tracker.velocity(releaseTime: 1.090) - 1000) < 1e-6)
        #expect(tracker.velocity(releaseTime: 1.091) == 0)
    }
}
