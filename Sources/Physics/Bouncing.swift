/// A released scroll position: friction inside the content bounds, and a spring once an edge
/// is reached or if the release was already past one.
///
/// The hand-off is planned once, at construction, from the friction's closed form and its
/// inverse: no per-frame integration, so the trajectory is the same at any frame rate.
package struct BouncingScrollSimulation: Simulation, Hashable {
    package enum Stage: Hashable, Sendable { case decelerating, bouncing }

    package let leadingExtent: Double
    package let trailingExtent: Double
    let friction: FrictionSimulation?
    /// When the spring takes over (seconds since start), and the spring itself.
    let springStart: Double
    let spring: SpringSimulation?

    /// - Parameters:
    ///   - position, velocity: at release (points, points per second).
    ///   - leadingExtent...trailingExtent: the resting range of the offset.
    ///   - rate: deceleration per millisecond (0.998 normal, 0.99 fast).
    ///   - bounceSpring: the edge spring (critically damped, so it never oscillates).
    ///   - maximumBounceVelocity: the speed handed to the spring at an edge is capped here, so
    ///     the overshoot stays bounded.
    package init(
        position: Double, velocity: Double, leadingExtent: Double, trailingExtent: Double,
        rate: Double, bounceSpring: SpringDescription = .scrollBounce,
        maximumBounceVelocity: Double = 3000, tolerance: Tolerance = .standard
    ) {
        let v = velocity.isFinite ? velocity : 0
        let lo = min(leadingExtent, trailingExtent), hi = max(leadingExtent, trailingExtent)
        self.leadingExtent = lo
        self.trailingExtent = hi
        if position < lo || position > hi {
            // Released past an edge: straight back without crossing it.
            let edge = position < lo ? lo : hi
            let safe = SpringSimulation.noCrossingVelocity(v, displacement: position - edge, spring: bounceSpring)
            friction = nil
            springStart = 0
            spring = SpringSimulation(
                spring: bounceSpring, position: position, velocity: safe,
                target: edge, tolerance: tolerance)
            return
        }
        let f = FrictionSimulation(position: position, velocity: v, rate: rate, tolerance: tolerance)
        friction = f
        let end = f.finalPosition
        if end < lo || end > hi {
            let edge = end < lo ? lo : hi
            let tEdge = f.time(atPosition: edge) ?? 0
            let vEdge = f.velocity(at: tEdge)
            let capped = max(-maximumBounceVelocity, min(maximumBounceVelocity, vEdge))
            springStart = tEdge
            spring = SpringSimulation(
                spring: bounceSpring, position: edge, velocity: capped,
                target: edge, tolerance: tolerance)
        } else {
            springStart = .infinity
            spring = nil
        }
    }

    package func stage(at t: Double) -> Stage {
        t >= springStart ? .bouncing : .decelerating
    }

    package func position(at t: Double) -> Double {
        if t >= springStart, let spring { return spring.position(at: t - springStart) }
        return friction?.position(at: t) ?? leadingExtent
    }
    package func velocity(at t: Double) -> Double {
        if t >= springStart, let spring { return spring.velocity(at: t - springStart) }
        return friction?.velocity(at: t) ?? 0
    }
    package func isDone(at t: Double) -> Bool {
        if t >= springStart, let spring { return spring.isDone(at: t - springStart) }
        return friction?.isDone(at: t) ?? true
    }
    /// The resting position: the edge after a bounce, else where friction stops.
    package var finalPosition: Double {
        if let spring { return spring.target }
        return friction?.finalPosition ?? leadingExtent
    }
}

/// UIScrollView's rubber band: dragging `overshoot` points past an edge shows
/// (1 − 1/(x·c/d + 1))·d, which approaches d (the viewport length) but never reaches it.
@inlinable
package func rubberBand(overshoot x: Double, dimension d: Double, constant c: Double = 0.55) -> Double {
    guard d > 0, x > 0 else { return 0 }
    return (1 - 1 / (x * c / d + 1)) * d
}

/// The finger overshoot that shows as `shown` points past the edge: the inverse of `rubberBand`,
/// so a drag that starts while overscrolled continues without a jump.
@inlinable
package func rubberBandInverse(shown s: Double, dimension d: Double, constant c: Double = 0.55) -> Double {
    guard d > 0, s > 0 else { return 0 }
    let clamped = min(s, d * 0.999_999)
    return d / c * clamped / (d - clamped)
}
