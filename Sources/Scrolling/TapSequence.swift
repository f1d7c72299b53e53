import Geometry

/// Taps that follow each other, recognised once for every view: a tap within `interval`
/// seconds and `distance` points of the one before is a double tap, which starts the sequence
/// again. A pure value: the scroll engine (double tap to zoom) and the screen reader (double
/// tap to activate) each keep one, and each passes the window's one interval and distance.
package struct TapSequence: Hashable, Sendable {
    private var last: Point?
    private var lastTime = 0.0

    package init() {}

    /// Counts a tap at `p` and `t`: true when it is the second of a double tap.
    package mutating func tap(at p: Point, time t: Double, interval: Double, distance: Double) -> Bool {
        if let last, t - lastTime <= interval, (p - last).length <= distance {
            self.last = nil
            return true
        }
        last = p
        lastTime = t
        return false
    }

    /// Forgets the tap before: the next tap starts a sequence.
    package mutating func reset() { last = nil }
}
