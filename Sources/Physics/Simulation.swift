/// One-dimensional motions as closed-form functions of time.
///
/// Time `t` is always seconds since the simulation started, passed in by the caller: there is no
/// clock here, so the same question gives the same answer at any frame rate. Positions and
/// velocities are in points and points per second.
package protocol Simulation: Sendable {
    /// Position at `t` seconds after the start.
    func position(at t: Double) -> Double
    /// Velocity (points per second) at `t`.
    func velocity(at t: Double) -> Double
    /// True once the motion is within tolerance of its end; callers stop asking then.
    func isDone(at t: Double) -> Bool
}

/// When a motion counts as finished: close enough in position and slow enough.
package struct Tolerance: Hashable, Sendable {
    /// Points.
    package var distance: Double
    /// Points per second.
    package var velocity: Double
    package init(distance: Double, velocity: Double) {
        self.distance = distance; self.velocity = velocity
    }
    /// A quarter point and 2 pt/s: below half a device pixel at scale 2, invisible when it stops.
    package static let standard = Tolerance(distance: 0.25, velocity: 2)
}

@inlinable func nearZero(_ value: Double, _ tolerance: Double) -> Bool { abs(value) <= tolerance }
