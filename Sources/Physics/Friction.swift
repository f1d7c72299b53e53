/// UIScrollView's deceleration, in closed form.
///
/// The velocity decays by `rate` every millisecond: v(t) = v0·r^(1000t), so
/// x(t) = x0 + v0·(r^(1000t) − 1)/(1000·ln r), and the motion ends at x0 − v0/(1000·ln r)
/// (x0 + 0.4995·v0 for the normal rate 0.998, x0 + 0.0995·v0 for the fast rate 0.99).
package struct FrictionSimulation: Simulation, Hashable {
    package let initialPosition: Double
    package let initialVelocity: Double
    /// Velocity retained per millisecond, in (0, 1).
    package let rate: Double
    package let tolerance: Tolerance
    /// 1000·ln(rate), the decay constant per second (negative).
    @usableFromInline let k: Double

    package init(position: Double, velocity: Double, rate: Double, tolerance: Tolerance = .standard) {
        precondition(rate > 0 && rate < 1, "deceleration rate must lie in (0, 1)")
        initialPosition = position
        initialVelocity = velocity.isFinite ? velocity : 0
        self.rate = rate
        self.tolerance = tolerance
        k = 1000 * _log(rate)
    }

    package func position(at t: Double) -> Double {
        initialPosition + initialVelocity * (_exp(k * t) - 1) / k
    }
    package func velocity(at t: Double) -> Double { initialVelocity * _exp(k * t) }

    /// Where the motion comes to rest.
    package var finalPosition: Double { initialPosition - initialVelocity / k }

    /// The time at which the motion passes `x`, or nil if it never gets there.
    package func time(atPosition x: Double) -> Double? {
        guard initialVelocity != 0 else { return x == initialPosition ? 0 : nil }
        // x − x0 = v0 (e^{kt} − 1)/k  ⇒  e^{kt} = 1 + k (x − x0)/v0
        let e = 1 + k * (x - initialPosition) / initialVelocity
        guard e > 0, e <= 1 else { return nil }
        return _log(e) / k
    }

    /// The time at which the speed falls to `speed` (points per second, ≥ 0).
    package func time(atSpeed speed: Double) -> Double {
        let v0 = abs(initialVelocity)
        guard speed < v0, speed > 0 else { return speed >= v0 ? 0 : .infinity }
        return _log(speed / v0) / k
    }

    /// Done when what is left to travel is below the distance tolerance (the remaining travel
    /// is v(t)/|k|), so stopping there is invisible.
    package func isDone(at t: Double) -> Bool {
        abs(velocity(at: t) / k) < tolerance.distance
    }

    /// The time `isDone` first becomes true.
    package var duration: Double { time(atSpeed: tolerance.distance * abs(k)) }
}
