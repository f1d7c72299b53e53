/// A damped spring's constants: `mass` (kg-like units), `stiffness` (N/m-like), `damping`.
package struct SpringDescription: Hashable, Sendable {
    package var mass: Double
    package var stiffness: Double
    package var damping: Double
    package init(mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
    }
    /// A spring with the given damping ratio (1 = critically damped).
    package init(mass: Double = 1, stiffness: Double, dampingRatio: Double) {
        self.init(
            mass: mass, stiffness: stiffness,
            damping: dampingRatio * 2 * (mass * stiffness).squareRoot())
    }
    /// Natural angular frequency, radians per second.
    package var angularFrequency: Double { (stiffness / mass).squareRoot() }
    package var dampingRatio: Double { damping / (2 * (mass * stiffness).squareRoot()) }

    /// Critically damped, ω = √150 ≈ 12.2 rad/s: an edge bounce peaks ~82 ms after contact and
    /// settles in about half a second, close to UIScrollView's feel.
    package static let scrollBounce = SpringDescription(mass: 1, stiffness: 150, dampingRatio: 1)
}

/// A spring pulling `position` towards `target`, in closed form (critical, under- or over-damped).
package struct SpringSimulation: Simulation, Hashable {
    package let target: Double
    package let spring: SpringDescription
    package let tolerance: Tolerance
    @usableFromInline enum Solution: Hashable, Sendable {
        /// x = (c1 + c2 t) e^{r t}
        case critical(r: Double, c1: Double, c2: Double)
        /// x = c1 e^{r1 t} + c2 e^{r2 t}
        case overdamped(r1: Double, r2: Double, c1: Double, c2: Double)
        /// x = e^{r t} (c1 cos wt + c2 sin wt)
        case underdamped(w: Double, r: Double, c1: Double, c2: Double)
    }
    @usableFromInline let solution: Solution

    /// Starts at `position` moving at `velocity` (points per second).
    package init(
        spring: SpringDescription, position: Double, velocity: Double, target: Double,
        tolerance: Tolerance = .standard
    ) {
        self.target = target
        self.spring = spring
        self.tolerance = tolerance
        let x0 = position - target
        let v0 = velocity.isFinite ? velocity : 0
        let m = spring.mass, c = spring.damping, k = spring.stiffness
        let disc = c * c - 4 * m * k
        if abs(disc) <= 1e-9 * c * c {
            let r = -c / (2 * m)
            solution = .critical(r: r, c1: x0, c2: v0 - r * x0)
        } else if disc > 0 {
            let s = disc.squareRoot()
            let r1 = (-c - s) / (2 * m), r2 = (-c + s) / (2 * m)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            solution = .overdamped(r1: r1, r2: r2, c1: x0 - c2, c2: c2)
        } else {
            let w = (-disc).squareRoot() / (2 * m)
            let r = -c / (2 * m)
            solution = .underdamped(w: w, r: r, c1: x0, c2: (v0 - r * x0) / w)
        }
    }

    package func position(at t: Double) -> Double { target + offset(at: t) }

    func offset(at t: Double) -> Double {
        switch solution {
        case let .critical(r, c1, c2): return (c1 + c2 * t) * _exp(r * t)
        case let .overdamped(r1, r2, c1, c2): return c1 * _exp(r1 * t) + c2 * _exp(r2 * t)
        case let .underdamped(w, r, c1, c2): return _exp(r * t) * (c1 * _cos(w * t) + c2 * _sin(w * t))
        }
    }

    package func velocity(at t: Double) -> Double {
        switch solution {
        case let .critical(r, c1, c2):
            return (r * (c1 + c2 * t) + c2) * _exp(r * t)
        case let .overdamped(r1, r2, c1, c2):
            return c1 * r1 * _exp(r1 * t) + c2 * r2 * _exp(r2 * t)
        case let .underdamped(w, r, c1, c2):
            let p = _exp(r * t), cs = _cos(w * t), sn = _sin(w * t)
            return p * (c2 * w * cs - c1 * w * sn + r * (c1 * cs + c2 * sn))
        }
    }

    package func isDone(at t: Double) -> Bool {
        nearZero(offset(at: t), tolerance.distance) && nearZero(velocity(at: t), tolerance.velocity)
    }

    /// The first frame-free time at which `isDone` holds, found by stepping at 1 ms then
    /// bisecting; used only to report settle times (the engine asks `isDone` per query).
    package func settleTime(limit: Double = 10) -> Double {
        var t = 0.0
        while t < limit && !isDone(at: t) { t += 0.001 }
        return t
    }

    /// The largest velocity towards the target, for a start displaced by `displacement`, that
    /// still reaches the target without crossing it. For a critically damped spring the start
    /// must satisfy |v0| ≤ ω·|x0| when moving towards the target.
    package static func noCrossingVelocity(
        _ velocity: Double, displacement x0: Double,
        spring: SpringDescription
    ) -> Double {
        guard velocity.isFinite else { return 0 }
        let limit = spring.angularFrequency * abs(x0)
        // Moving towards the target means the velocity has the opposite sign of x0.
        if x0 > 0 && velocity < -limit { return -limit }
        if x0 < 0 && velocity > limit { return limit }
        return velocity
    }
}
