import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// How overlapping parts of a path count as inside.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is not zero.
    case nonZero
    /// Inside where the winding number is odd (a self-intersecting star has a hole).
    case evenOdd
}

/// A 2-D outline made of straight lines and quadratic and cubic Bézier curves, in canvas
/// coordinates (pixels before the canvas translation). Subpaths are closed implicitly when
/// filled. A value type: building one only appends to an array.
public struct Path: Hashable, Sendable {
    /// One step of a path's outline, in canvas coordinates.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at `to`.
        case move(to: Point)
        /// A straight line from the current point to `to`.
        case line(to: Point)
        /// A quadratic Bézier curve from the current point to `to`, pulled towards `control`.
        case quad(to: Point, control: Point)
        /// A cubic Bézier curve from the current point to `to`; `control1` shapes its start and
        /// `control2` its end.
        case cubic(to: Point, control1: Point, control2: Point)
        /// Ends the subpath with a straight line back to its start; the next step starts from
        /// there.
        case close
    }

    /// The path's steps, in the order they were added.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}
    /// A path made of `elements`, in order.
    public init(_ elements: [Element]) { self.elements = elements }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `p`.
    public mutating func move(to p: Point) { elements.append(.move(to: p)) }
    /// Adds a straight line from the current point to `p`.
    public mutating func line(to p: Point) { elements.append(.line(to: p)) }
    /// Adds a quadratic Bézier curve from the current point to `p`, pulled towards the control
    /// point `c`.
    ///
    /// - Parameters:
    ///   - p: Where the curve ends: the new current point.
    ///   - c: The control point; the curve leaves the current point towards it and arrives at
    ///     `p` from its direction.
    public mutating func quad(to p: Point, control c: Point) { elements.append(.quad(to: p, control: c)) }
    /// Adds a cubic Bézier curve from the current point to `p`; `c1` shapes its start and `c2`
    /// its end.
    ///
    /// - Parameters:
    ///   - p: Where the curve ends: the new current point.
    ///   - c1: The first control point: the curve leaves the current point towards it.
    ///   - c2: The second control point: the curve arrives at `p` from its direction.
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.append(.cubic(to: p, control1: c1, control2: c2))
    }
    /// Closes the current subpath with a straight line back to its start.
    public mutating func close() { elements.append(.close) }

    /// A closed rectangle (clockwise on screen).
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY))
        line(to: Point(r.maxX, r.minY))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.minX, r.maxY))
        close()
    }

    /// A closed rounded rectangle; the radius is clamped to half the shorter side. Each
    /// quarter circle is two 45° cubics (radial error below 5e-6 of the radius).
    ///
    /// - Parameters:
    ///   - r: The rectangle the corners are rounded in.
    ///   - radius: The corners' radius, clamped to half the shorter side (0: square corners).
    public mutating func addRoundedRect(_ r: Rect, radius: Double) {
        let rr = max(0, min(radius.isNaN ? 0 : radius, r.width / 2, r.height / 2))
        guard rr > 0 else { addRect(r); return }
        move(to: Point(r.minX + rr, r.minY))
        line(to: Point(r.maxX - rr, r.minY))
        addArc(center: Point(r.maxX - rr, r.minY + rr), radius: rr, from: 6, eighths: 2)
        line(to: Point(r.maxX, r.maxY - rr))
        addArc(center: Point(r.maxX - rr, r.maxY - rr), radius: rr, from: 0, eighths: 2)
        line(to: Point(r.minX + rr, r.maxY))
        addArc(center: Point(r.minX + rr, r.maxY - rr), radius: rr, from: 2, eighths: 2)
        line(to: Point(r.minX, r.minY + rr))
        addArc(center: Point(r.minX + rr, r.minY + rr), radius: rr, from: 4, eighths: 2)
        close()
    }

    /// A closed circle (eight 45° cubics).
    public mutating func addCircle(center: Point, radius: Double) {
        addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// A closed ellipse inscribed in `r`.
    public mutating func addEllipse(in r: Rect) {
        let c = Point(r.midX, r.midY), rx = r.width / 2, ry = r.height / 2
        move(to: Point(c.x + rx, c.y))
        for k in 0..<8 { appendEighth(center: c, rx: rx, ry: ry, from: k) }
        close()
    }

    /// Appends `eighths` consecutive 45° arcs starting at compass direction `from` (0 = +x,
    /// 2 = +y, 4 = -x, 6 = -y; increasing is clockwise on screen). The current point must be
    /// the arc's start.
    mutating func addArc(center: Point, radius: Double, from: Int, eighths: Int) {
        for k in 0..<eighths { appendEighth(center: center, rx: radius, ry: radius, from: from + k) }
    }

    private static let diagonal = 0.7071067811865476  // √½
    /// 4/3·tan(π/16): control-point distance of a 45° cubic arc of a unit circle.
    private static let kappa45 = 0.265216489839544
    private static func direction(_ k: Int) -> (Double, Double) {
        let d = diagonal
        switch k & 7 {
        case 0: return (1, 0)
        case 1: return (d, d)
        case 2: return (0, 1)
        case 3: return (-d, d)
        case 4: return (-1, 0)
        case 5: return (-d, -d)
        case 6: return (0, -1)
        default: return (d, -d)
        }
    }

    private mutating func appendEighth(center c: Point, rx: Double, ry: Double, from k: Int) {
        let (ux, uy) = Path.direction(k), (vx, vy) = Path.direction(k + 1)
        let kk = Path.kappa45
        let p0 = Point(c.x + ux * rx, c.y + uy * ry)
        let p1 = Point(c.x + vx * rx, c.y + vy * ry)
        // Tangents: the direction rotated by +90° (clockwise on screen).
        let c1 = Point(p0.x - uy * kk * rx, p0.y + ux * kk * ry)
        let c2 = Point(p1.x + vy * kk * rx, p1.y - vx * kk * ry)
        cubic(to: p1, control1: c1, control2: c2)
    }

    /// The bounding box of all end and control points (contains the curves).
    public var controlBounds: Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quad(let p, let c): add(p); add(c)
            case .cubic(let p, let c1, let c2): add(p); add(c1); add(c2)
            case .close: break
            }
        }
        guard minX <= maxX, minY <= maxY else { return .zero }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A circular arc from `startAngle` to `endAngle` (radians, 0 along +x, growing clockwise
    /// on screen, where y grows downwards), as cubics of at most 45° each. It starts a new
    /// subpath unless `connected` (then a line joins the current point to the arc's start).
    /// Angles more than a turn apart draw a whole circle.
    ///
    /// - Parameters:
    ///   - c: The circle's centre.
    ///   - r: Its radius; an arc whose radius is not positive, or whose numbers are not all
    ///     finite, adds nothing.
    ///   - a0: Where the arc starts, in radians.
    ///   - a1: Where it ends, in radians: greater than `a0` goes clockwise on screen, less goes
    ///     anticlockwise.
    ///   - connected: Whether a line joins the current point to the arc's start (otherwise the
    ///     arc starts a new subpath).
    public mutating func addArc(
        center c: Point, radius r: Double, startAngle a0: Double, endAngle a1: Double,
        connected: Bool = false
    ) {
        guard c.isFinite, r.isFinite, r > 0, a0.isFinite, a1.isFinite else { return }
        let sweep = max(-2 * .pi, min(2 * .pi, a1 - a0))
        let start = Point(c.x + r * cos(a0), c.y + r * sin(a0))
        if connected && !elements.isEmpty { line(to: start) } else { move(to: start) }
        let pieces = max(1, Int((abs(sweep) / (.pi / 4)).rounded(.up)))
        let step = sweep / Double(pieces)
        // Control points at 4/3·tan(θ/4) of the radius along the tangents.
        let k = 4.0 / 3.0 * tan(step / 4)
        var a = a0
        for _ in 0..<pieces {
            let b = a + step
            let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
            cubic(
                to: Point(c.x + r * cb, c.y + r * sb),
                control1: Point(c.x + r * (ca - k * sa), c.y + r * (sa + k * ca)),
                control2: Point(c.x + r * (cb + k * sb), c.y + r * (sb - k * cb)))
            a = b
        }
    }

    /// This path scaled by `s` about the origin (points to pixels).
    ///
    /// - Parameter s: The factor every coordinate is multiplied by: the scale factor, to draw a
    ///   path made in points.
    /// - Returns: A new path; this one is unchanged.
    public func scaledBy(_ s: Double) -> Path {
        Path(
            elements.map { e in
                switch e {
                case .move(let p): return .move(to: p * s)
                case .line(let p): return .line(to: p * s)
                case .quad(let p, let c): return .quad(to: p * s, control: c * s)
                case .cubic(let p, let c1, let c2): return .cubic(to: p * s, control1: c1 * s, control2: c2 * s)
                case .close: return .close
                }
            })
    }

    /// This path moved by (`dx`, `dy`).
    ///
    /// - Parameters:
    ///   - dx: How far to the right (negative: to the left).
    ///   - dy: How far down (negative: up).
    /// - Returns: A new path; this one is unchanged.
    public func translatedBy(dx: Double, dy: Double) -> Path {
        let t = Point(dx, dy)
        return Path(
            elements.map { e in
                switch e {
                case .move(let p): return .move(to: p + t)
                case .line(let p): return .line(to: p + t)
                case .quad(let p, let c): return .quad(to: p + t, control: c + t)
                case .cubic(let p, let c1, let c2): return .cubic(to: p + t, control1: c1 + t, control2: c2 + t)
                case .close: return .close
                }
            })
    }

    /// The path as polylines, one per subpath with at least two points, curves replaced by
    /// chords that stay within `tolerance` pixels of the curve (uniform subdivision with the
    /// segment count from the second-derivative bound). Uses only + − × ÷ and √, so the points
    /// are the same on every CPU.
    ///
    /// - Parameter tolerance: The largest distance, in pixels, a chord may stray from its curve.
    /// - Returns: One list of points per subpath that has at least two, in the order they were
    ///   added.
    public func flattened(tolerance: Double = 0.05) -> [[Point]] {
        flattenedSubpaths(tolerance: tolerance).map(\.points)
    }

    /// Polylines with whether each subpath ended with `close`.
    func flattenedSubpaths(tolerance: Double) -> [(points: [Point], closed: Bool)] {
        let tol = tolerance.isFinite ? max(tolerance, 0.001) : 0.1
        var result: [(points: [Point], closed: Bool)] = []
        var current: [Point] = []
        var start = Point.zero, last = Point.zero
        func flush(closed: Bool = false) {
            if current.count > 1 { result.append((current, closed)) }
            current = []
        }
        func segmentCount(_ deviation: Double) -> Int {
            guard deviation.isFinite, deviation > 0 else { return 1 }
            let n = (deviation / tol).squareRoot().rounded(.up)
            return n >= 4096 ? 4096 : max(1, Int(n))
        }
        for e in elements {
            switch e {
            case .move(let p):
                flush(); current = [p]; start = p; last = p
            case .line(let p):
                if current.isEmpty { current = [last]; start = last }
                current.append(p); last = p
            case .quad(let p, let c):
                if current.isEmpty { current = [last]; start = last }
                let p0 = last
                // Chord error of a parameter step h is |p0 − 2c + p| h² / 4.
                let n = segmentCount((p0 - c * 2 + p).length / 4)
                for i in 1..<n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(p0 * (u * u) + c * (2 * u * t) + p * (t * t))
                }
                current.append(p); last = p
            case .cubic(let p, let c1, let c2):
                if current.isEmpty { current = [last]; start = last }
                let p0 = last
                // |B''| ≤ 6·max(|p0 − 2c1 + c2|, |c1 − 2c2 + p|); chord error ≤ |B''| h² / 8.
                let dd = max((p0 - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = segmentCount(dd * 0.75)
                for i in 1..<n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    current.append(p0 * a + c1 * b + c2 * cc + p * d)
                }
                current.append(p); last = p
            case .close:
                flush(closed: true); last = start
            }
        }
        flush()
        return result
    }
}
