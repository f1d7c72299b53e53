/// Estimates a finger's velocity from timestamped samples by a least-squares fit: the
/// velocity a flick keeps on release.
///
/// Over the samples of the last 100 ms (at most 20, at least 3) it fits x(t) = a + b·t + c·t²
/// with t relative to the newest sample, and answers b, the slope at the newest sample. A gap of
/// more than 40 ms between samples ends the history: the finger rested, so older motion does not
/// count. Two samples alone are not trusted (zero).
package struct VelocityTracker: Sendable {
    package struct Sample: Hashable, Sendable {
        package var time: Double
        package var position: Double
        package init(time: Double, position: Double) { self.time = time; self.position = position }
    }
    package static let horizon = 0.100
    package static let maximumGap = 0.040
    package static let maximumSamples = 20
    package static let minimumSamples = 3

    /// Ring of the newest samples, oldest first.
    private var samples: [Sample] = []

    package init() {}

    package mutating func reset() { samples.removeAll(keepingCapacity: true) }

    /// Adds a sample; non-finite values and times earlier than the newest sample are ignored
    /// (the caller reports those; here they must not poison the fit).
    package mutating func add(time: Double, position: Double) {
        guard time.isFinite, position.isFinite else { return }
        if let last = samples.last, time < last.time { return }
        if samples.count == Self.maximumSamples { samples.removeFirst() }
        samples.append(Sample(time: time, position: position))
    }

    package var newestTime: Double? { samples.last?.time }

    /// The velocity (points per second) at the newest sample; at `releaseTime`, if given, the
    /// answer is zero when the finger rested more than 40 ms before it.
    package func velocity(releaseTime: Double? = nil) -> Double {
        guard let newest = samples.last else { return 0 }
        if let releaseTime, wholeMicroseconds(releaseTime - newest.time) > wholeMicroseconds(Self.maximumGap) { return 0 }
        var ts: [Double] = [], xs: [Double] = []
        var previous = newest.time
        // Compared in whole microseconds: with times in seconds, a sample exactly 100 ms older
        // (2.426 - 2.326 = 0.10000000000000009) would fall out of the window. It is inside,
        // as in Android and Flutter.
        let horizon = wholeMicroseconds(Self.horizon), gap = wholeMicroseconds(Self.maximumGap)
        for s in samples.reversed() {
            if wholeMicroseconds(newest.time - s.time) > horizon || wholeMicroseconds(previous - s.time) > gap { break }
            ts.append(s.time - newest.time)
            xs.append(s.position)
            previous = s.time
        }
        guard ts.count >= Self.minimumSamples else { return 0 }
        return Self.quadraticSlope(ts: ts, xs: xs) ?? Self.linearSlope(ts: ts, xs: xs) ?? 0
    }

    /// b of the least-squares fit x = a + b t + c t², from the normal equations by Cramer's rule.
    static func quadraticSlope(ts: [Double], xs: [Double]) -> Double? {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, y0 = 0.0, y1 = 0.0, y2 = 0.0
        for (t, x) in zip(ts, xs) {
            let t2 = t * t
            s0 += 1; s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
            y0 += x; y1 += x * t; y2 += x * t2
        }
        // | s0 s1 s2 | |a|   |y0|
        // | s1 s2 s3 | |b| = |y1|
        // | s2 s3 s4 | |c|   |y2|
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        let scale = s0 * s2 * s4
        guard abs(det) > 1e-12 * max(scale, 1e-300) else { return nil }
        let detB = s0 * (y1 * s4 - s3 * y2) - y0 * (s1 * s4 - s3 * s2) + s2 * (s1 * y2 - y1 * s2)
        let b = detB / det
        return b.isFinite ? b : nil
    }

    static func linearSlope(ts: [Double], xs: [Double]) -> Double? {
        let n = Double(ts.count)
        let mt = ts.reduce(0, +) / n, mx = xs.reduce(0, +) / n
        var num = 0.0, den = 0.0
        for (t, x) in zip(ts, xs) { num += (t - mt) * (x - mx); den += (t - mt) * (t - mt) }
        guard den > 0 else { return nil }
        return num / den
    }
}
