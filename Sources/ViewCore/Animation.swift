import Geometry
import Physics
import Raster

/// How a change moves from its old value to its new one over time: a curve (linear, eased or a
/// spring) that may wait, repeat and reverse. Given to `withAnimation(_:_:)`.
///
/// Every animation is a function of the loop's clock: headless runs draw the same frames on
/// every machine, and a frame mid-animation equals a full redraw at that time.
public struct Animation: Hashable, Sendable {
    enum Curve: Hashable, Sendable {
        case linear
        /// A CSS cubic Bézier from (0, 0) to (1, 1) with these two control points.
        case bezier(Double, Double, Double, Double)
        /// Moves from 0 towards 1 as a spring of Physics does, released at rest.
        case spring(SpringDescription)
    }
    let curve: Curve
    /// Seconds one pass takes (a spring's: until it settles).
    public let duration: Double
    /// Seconds it waits before it starts.
    public private(set) var delayTime = 0.0
    /// Passes in all (`Int.max`: for ever).
    private(set) var passes = 1
    /// Every other pass runs backwards.
    private(set) var autoreverses = false

    private init(_ curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration.isFinite && duration > 0 ? min(duration, 3600) : 0.35
    }

    /// At a constant rate.
    public static func linear(duration: Double = 0.35) -> Animation { Animation(.linear, duration: duration) }
    /// Slow at first, then faster (CSS `ease-in`, SwiftUI's `easeIn`).
    public static func easeIn(duration: Double = 0.35) -> Animation { Animation(.bezier(0.42, 0, 1, 1), duration: duration) }
    /// Fast at first, then slowing to a stop (CSS `ease-out`).
    public static func easeOut(duration: Double = 0.35) -> Animation { Animation(.bezier(0, 0, 0.58, 1), duration: duration) }
    /// Slow at both ends (CSS `ease-in-out`).
    public static func easeInOut(duration: Double = 0.35) -> Animation {
        Animation(.bezier(0.42, 0, 0.58, 1), duration: duration)
    }
    /// What `withAnimation` uses when given none: ease in and out over 0.35 s.
    public static let `default` = Animation.easeInOut(duration: 0.35)

    /// A spring that takes about `response` seconds for one swing and loses its bounce as
    /// `dampingFraction` goes to 1 (1: no overshoot; 0.5: a lively bounce). The same closed-form
    /// springs as the scroll views' edges.
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825) -> Animation {
        let period = response.isFinite && response > 0.01 ? min(response, 10) : 0.5
        let damping = dampingFraction.isFinite ? min(max(dampingFraction, 0.05), 2) : 0.825
        let omega = 2 * Double.pi / period
        let spring = SpringDescription(mass: 1, stiffness: omega * omega, dampingRatio: damping)
        return Animation(.spring(spring), duration: Self.settleTime(of: spring))
    }

    /// Seconds until a unit spring stays within a thousandth of its end, at rest.
    private static func settleTime(of spring: SpringDescription) -> Double {
        let simulation = Self.unitSpring(spring)
        var t = 0.0
        while t < 30 && !simulation.isDone(at: t) { t += 0.004 }
        return max(t, 0.004)
    }

    private static func unitSpring(_ spring: SpringDescription) -> SpringSimulation {
        SpringSimulation(
            spring: spring, position: 0, velocity: 0, target: 1, tolerance: Tolerance(distance: 0.001, velocity: 0.01))
    }

    /// This animation, starting `seconds` later.
    public func delay(_ seconds: Double) -> Animation {
        var a = self
        a.delayTime = seconds.isFinite ? max(0, min(seconds, 3600)) : 0
        return a
    }

    /// This animation for ever, every other pass backwards when `autoreverses` (a pulse). It
    /// stops drawing while its view is off screen; set the value again without an animation to
    /// stop it.
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var a = self
        a.passes = .max
        a.autoreverses = autoreverses
        return a
    }

    /// This animation `count` times (at least once), every other pass backwards when
    /// `autoreverses`.
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        var a = self
        a.passes = max(1, count)
        a.autoreverses = autoreverses
        return a
    }

    /// How far from the old value to the new one it is, `elapsed` seconds after it began: 0
    /// before its delay, 1 once done (a spring passes 1 on its way).
    public func fraction(at elapsed: Double) -> Double {
        let t = elapsed - delayTime
        guard t > 0, t.isFinite else { return 0 }
        if isFinished(at: elapsed) { return passes != .max && autoreverses && passes % 2 == 0 ? 0 : 1 }
        let pass = (t / duration).rounded(.down)
        let local = t - pass * duration
        let value = curveValue(at: local)
        return autoreverses && Int(pass) % 2 == 1 ? 1 - value : value
    }

    /// True once the last pass ended (never for `repeatForever`).
    public func isFinished(at elapsed: Double) -> Bool {
        passes != .max && elapsed - delayTime >= duration * Double(passes)
    }

    private func curveValue(at t: Double) -> Double {
        switch curve {
        case .linear: return t / duration
        case let .bezier(x1, y1, x2, y2): return Self.bezier(x1, y1, x2, y2, at: t / duration)
        case let .spring(spring): return Self.unitSpring(spring).position(at: t)
        }
    }

    /// The y of a unit cubic Bézier at x (found by Newton's method, then bisection).
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        func slope(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        let x = min(max(x, 0), 1)
        var s = x
        for _ in 0..<8 {
            let error = coordinate(x1, x2, s) - x
            if abs(error) < 1e-12 { return coordinate(y1, y2, s) }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-9 { break }
            s = min(max(s - error / d, 0), 1)
        }
        var low = 0.0, high = 1.0
        s = x
        for _ in 0..<60 {
            if coordinate(x1, x2, s) < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return coordinate(y1, y2, s)
    }
}

/// The animation changes made now take: `withAnimation`'s, while its body runs. A task-local
/// value: windows on other threads (tests run many at once) never see another's.
package enum Transaction {
    @TaskLocal package static var current: Animation?

    /// Runs `body` with `animation` in force, or with the one around it when that is nil.
    package static func with<Result>(_ animation: Animation?, _ body: () throws -> Result) rethrows -> Result {
        guard let animation else { return try body() }
        return try $current.withValue(animation, operation: body)
    }

    /// Runs `body` with changes made at once, whatever animation is in force around it.
    package static func immediately<Result>(_ body: () throws -> Result) rethrows -> Result {
        try $current.withValue(nil, operation: body)
    }
}

/// Runs `body`, animating every change it makes to a view's opacity, offset, scale, fill,
/// corner radius and shadow, the frames the next layout gives views, and the views it adds or
/// removes (by their `transition`), from the old values to the new ones with `animation`.
/// Changes to views outside a window, or made outside the body, happen at once.
///
/// ```swift
/// withAnimation(.spring()) { card.scaleEffect = 1.05; badge.opacity = 1 }
/// withAnimation(.easeInOut(duration: 1).repeatForever()) { hint.opacity = 0.4 }
/// ```
@discardableResult
public func withAnimation<Result>(_ animation: Animation = .default, _ body: () throws -> Result) rethrows -> Result {
    try Transaction.$current.withValue(animation, operation: body)
}

/// How a view comes into a window and leaves it when it is added or removed inside
/// `withAnimation`: it fades, slides from an edge or grows from its centre, and goes back
/// the same way when removed. Outside `withAnimation` views come and go at once.
public struct Transition: Hashable, Sendable {
    /// What the view looks like while it is out: its opacity, the edge it is moved to by its own
    /// size, and its scale.
    struct Out: Hashable, Sendable {
        var opacity = 1.0
        var edge: Edge?
        var scale = 1.0
        var isIdentity: Bool { opacity == 1 && edge == nil && scale == 1 }
    }
    let insertion: Out
    let removal: Out

    init(_ out: Out) { insertion = out; removal = out }
    init(insertion: Out, removal: Out) { self.insertion = insertion; self.removal = removal }

    /// The edges a view may slide in from.
    public enum Edge: Hashable, Sendable {
        /// The leading edge: the left, or the right in a right-to-left layout.
        case leading
        /// The trailing edge.
        case trailing
        /// The top edge.
        case top
        /// The bottom edge.
        case bottom
    }

    /// Fades in and out.
    public static let opacity = Transition(Out(opacity: 0))
    /// Slides in from `edge` by its own size, and out the same way.
    public static func move(edge: Edge) -> Transition { Transition(Out(edge: edge)) }
    /// Slides in from the leading edge.
    public static let slide = Transition.move(edge: .leading)
    /// Grows from `scale` of its size (and fades), shrinks back when it goes.
    public static func scale(_ scale: Double = 0.5) -> Transition {
        Transition(Out(opacity: 0, scale: scale.isFinite ? max(0, min(scale, 4)) : 0.5))
    }
    /// Comes and goes at once, as without `withAnimation`.
    public static let identity = Transition(Out())
    /// Comes in by `insertion` and goes by `removal` (a screen that fades in over the one
    /// before, which goes at once).
    public static func asymmetric(insertion: Transition, removal: Transition) -> Transition {
        Transition(insertion: insertion.insertion, removal: removal.removal)
    }
    /// Both: faded and moved, or faded and scaled.
    public func combined(with other: Transition) -> Transition {
        func both(_ a: Out, _ b: Out) -> Out { Out(opacity: min(a.opacity, b.opacity), edge: a.edge ?? b.edge, scale: a.scale * b.scale) }
        return Transition(insertion: both(insertion, other.insertion), removal: both(removal, other.removal))
    }
}

extension Transition.Out {
    /// The offset the view has while it is out, for a view of `size` laid out in `direction`.
    func offset(for size: Size, rightToLeft: Bool) -> Point {
        switch edge {
        case nil: return .zero
        case .leading?: return Point(x: rightToLeft ? size.width : -size.width, y: 0)
        case .trailing?: return Point(x: rightToLeft ? -size.width : size.width, y: 0)
        case .top?: return Point(x: 0, y: -size.height)
        case .bottom?: return Point(x: 0, y: size.height)
        }
    }
}

/// A view property an animation moves.
package enum AnimatedProperty: Hashable, Sendable {
    case opacity, offset, scale, rotation, fill, cornerRadius, layout
}

/// One property moving from one value to another: its values as numbers (a point's x and y, a
/// colour's four channels), so that one interpolation serves all.
package struct PropertyAnimation: Sendable {
    package var animation: Animation
    package var start: Double
    package var from: [Double]
    package var to: [Double]

    /// The values at `t` on the loop's clock.
    package func values(at t: Double) -> [Double] {
        let f = animation.fraction(at: t - start)
        return zip(from, to).map { a, b in a + (b - a) * f }
    }

    package func isFinished(at t: Double) -> Bool { animation.isFinished(at: t - start) }
}

extension Color {
    /// The four channels as numbers, for an animation.
    package var animatableValues: [Double] { [Double(red), Double(green), Double(blue), Double(alpha)] }

    /// A colour from four animated channels, clamped and rounded to 8 bits.
    package init(animatableValues v: [Double]) {
        func channel(_ i: Int) -> UInt8 { UInt8(min(max(v[i].rounded(), 0), 255)) }
        self.init(red: channel(0), green: channel(1), blue: channel(2), alpha: channel(3))
    }
}
