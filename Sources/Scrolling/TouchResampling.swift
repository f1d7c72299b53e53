import Geometry

/// A finger's position at a known time, in view points.
package struct TouchSample: Hashable, Sendable {
    package var time: Double
    package var location: Point
    package init(time: Double, location: Point) { self.time = time; self.location = location }
}

/// Touch resampling: where a dragging finger is drawn on a frame.
///
/// Digitizers report at 60–240 Hz, rarely in phase with the display. Drawing the newest sample
/// makes a steady drag judder: a 100 Hz panel under a 60 Hz display moves the content by one
/// sample on some frames and two on others (10 and 20 px at 1000 pt/s). Drawn instead is the
/// position at the frame time less a small fixed `latency`, interpolated between the samples
/// around it; when the newest sample is older than that, the motion of the last two samples
/// is extended, as Android's input resampling does, by at most 8 ms and half the digitizer's
/// sample interval, or until the next sample is due if that is further (a 90 Hz sample that
/// comes a millisecond after the frame it was due for is predicted, not lagged).
///
/// Only what is drawn changes: release velocities still come from the raw samples.
package struct TouchResampling: Hashable, Sendable {
    /// Seconds the drawn position trails the frame time (0 … 0.05).
    package var latency: Double
    package static let defaultLatency = 0.005
    /// The longest prediction past the newest sample.
    package static let maximumPrediction = 0.008
    static let intervalsAveraged = 4
    /// How late a sample may come and still count as due (digitizers jitter by about 1 ms).
    static let lateSample = 0.002

    package init(latency: Double = TouchResampling.defaultLatency) {
        self.latency = latency.isFinite ? max(0, min(0.05, latency)) : Self.defaultLatency
    }

    /// The finger's position drawn at `frameTime`, from `samples` (oldest first, times not
    /// decreasing); nil without samples.
    package func position(at frameTime: Double, in samples: [TouchSample]) -> Point? {
        guard let newest = samples.last else { return nil }
        guard frameTime.isFinite else { return newest.location }
        let target = frameTime - latency
        if target >= newest.time {
            guard samples.count >= 2 else { return newest.location }
            let previous = samples[samples.count - 2]
            let interval = newest.time - previous.time
            guard interval > 0 else { return newest.location }
            // The digitizer's interval, averaged over a few samples. Predicted is at most half
            // of it, or up to when the next sample is due (allowing it to be a little late),
            // whichever is further: a frame between samples is then always drawn where the
            // finger is, and a digitizer that stops reporting while a finger holds still is not
            // predicted beyond that.
            let first = samples[max(0, samples.count - 1 - Self.intervalsAveraged)]
            let typical = (newest.time - first.time) / Double(min(samples.count - 1, Self.intervalsAveraged))
            let untilDue = typical - latency + Self.lateSample
            let ahead = min(target - newest.time, Self.maximumPrediction, max(typical / 2, untilDue))
            return newest.location + (newest.location - previous.location) * (ahead / interval)
        }
        // The first sample after the target; the one before it is at or before the target.
        var after = samples.count - 1
        while after > 0 && samples[after - 1].time > target { after -= 1 }
        guard after > 0 else { return samples[0].location }
        let a = samples[after - 1], b = samples[after]
        let f = (target - a.time) / (b.time - a.time)
        return a.location + (b.location - a.location) * f
    }
}
