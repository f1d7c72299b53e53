/// Points, sizes and rectangles in logical points (Double) and whole device pixels (Int).
/// Value types only: no pixels, no time, no C.

@frozen
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate, growing to the right; in points unless an API says pixels.
    public var x: Double
    /// The vertical coordinate, growing downwards; in points unless an API says pixels.
    public var y: Double
    /// A point at (`x`, `y`).
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// A point at (`x`, `y`), without argument labels.
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// The sum of two points, coordinate by coordinate (vector addition).
    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The difference `a - b`, coordinate by coordinate: the vector from `b` to `a`.
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// The point with both coordinates multiplied by `s`.
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The point with both coordinates divided by `s`; dividing by zero gives infinite or NaN
    /// coordinates.
    @inlinable public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    /// The point with both coordinates negated.
    @inlinable public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }
    /// Euclidean length when the point is read as a vector.
    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    /// True when both coordinates are finite (not NaN, not infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
    public var description: String { "(\(x), \(y))" }
}

/// A width and a height, in points.
@frozen
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent, in points.
    public var width: Double
    /// The vertical extent, in points.
    public var height: Double
    /// A size of `width` by `height` points.
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A size of `width` by `height` points, without argument labels.
    @inlinable public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    /// A size with zero width and height.
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// An axis-aligned rectangle in points: an origin at its top-left corner and a size. Its left and
/// top edges belong to it; its right and bottom edges (`maxX`, `maxY`) do not.
@frozen
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner, in points.
    public var origin: Point
    /// The width and height, in points.
    public var size: Size
    /// A rectangle with its top-left corner at `origin` and the given size.
    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// A rectangle with its top-left corner at (`x`, `y`) and the given width and height, in
    /// points.
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    /// The area of the pixels of `r`.
    @inlinable package init(_ r: IntRect) {
        self.init(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }
    /// The empty rectangle at the origin, with zero width and height.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The x of the left edge, `origin.x`.
    @inlinable public var minX: Double { origin.x }
    /// The y of the top edge, `origin.y`.
    @inlinable public var minY: Double { origin.y }
    /// The x of the right edge, `origin.x + width`; points on it lie outside the rectangle.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// The y of the bottom edge, `origin.y + height`; points on it lie outside the rectangle.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// The x of the horizontal centre, halfway between `minX` and `maxX`.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// The y of the vertical centre, halfway between `minY` and `maxY`.
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    /// The width, in points (`size.width`).
    @inlinable public var width: Double { size.width }
    /// The height, in points (`size.height`).
    @inlinable public var height: Double { size.height }
    /// True unless both width and height are greater than zero (a zero, negative or NaN
    /// size is empty).
    @inlinable public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether `p` lies inside: on or right of the left edge and below the top edge, strictly
    /// left of `maxX` and above `maxY`. An empty rectangle contains no point.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
    /// The area the two rectangles share, or `.zero` when they do not overlap or only touch.
    @inlinable public func intersection(_ r: Rect) -> Rect {
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The smallest rectangle holding both.
    @inlinable package func union(_ r: Rect) -> Rect {
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    /// Whether the rectangles share an area larger than zero; touching edges do not count.
    @inlinable public func intersects(_ r: Rect) -> Bool { !intersection(r).isEmpty }
    /// This rectangle moved by `dx` and `dy` points, its size unchanged.
    @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }
    /// This rectangle shrunk by `dx` points on the left and right and `dy` points on the top and
    /// bottom; negative insets grow it, and insets over half the size leave it empty.
    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}

/// A rectangle of whole device pixels; `maxX`/`maxY` are exclusive.
@frozen
@usableFromInline package struct IntRect: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline package var x: Int
    @usableFromInline package var y: Int
    @usableFromInline package var width: Int
    @usableFromInline package var height: Int
    @inlinable package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    @usableFromInline package static let zero = IntRect(x: 0, y: 0, width: 0, height: 0)
    @inlinable package var maxX: Int { x + width }
    @inlinable package var maxY: Int { y + height }
    @inlinable package var isEmpty: Bool { width <= 0 || height <= 0 }
    @inlinable package var area: Int { isEmpty ? 0 : width * height }

    @inlinable package func intersection(_ r: IntRect) -> IntRect {
        let x0 = max(x, r.x), y0 = max(y, r.y)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        if x1 <= x0 || y1 <= y0 { return .zero }
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    @inlinable package func offsetBy(dx: Int, dy: Int) -> IntRect {
        IntRect(x: x + dx, y: y + dy, width: width, height: height)
    }
    /// The smallest rectangle containing both (an empty operand is ignored).
    @inlinable package func union(_ r: IntRect) -> IntRect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return IntRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    /// The whole pixels touched by `rect` (rounded outwards).
    @inlinable package init(enclosing rect: Rect) {
        let x0 = rect.minX.rounded(.down), y0 = rect.minY.rounded(.down)
        let x1 = rect.maxX.rounded(.up), y1 = rect.maxY.rounded(.up)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite,
            abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9
        else {
            self = .zero; return
        }
        self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
    @usableFromInline package var description: String { "[\(x),\(y) \(width)x\(height)]" }
}

/// A set of device-pixel rectangles that need redrawing. Kept as a short list; rectangles
/// that overlap are merged so the list stays small.
package struct Region: Hashable, Sendable {
    package private(set) var rects: [IntRect] = []
    package init() {}
    package init(_ rect: IntRect) { add(rect) }
    package var isEmpty: Bool { rects.isEmpty }
    package var bounds: IntRect { rects.reduce(IntRect.zero) { $0.union($1) } }

    package mutating func add(_ rect: IntRect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        var i = 0
        while i < rects.count {
            if !rects[i].intersection(merged).isEmpty {
                merged = merged.union(rects.remove(at: i))
                i = 0
            } else {
                i += 1
            }
        }
        rects.append(merged)
    }
    package mutating func formUnion(_ other: Region) { for r in other.rects { add(r) } }
    package func clipped(to clip: IntRect) -> Region {
        var out = Region()
        for r in rects { out.add(r.intersection(clip)) }
        return out
    }
}
