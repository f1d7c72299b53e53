import Geometry

/// Coverage of one shape on one pixel row: zero outside [x0, x1); inside, a run [s0, s1) of
/// constant coverage `alpha` (the solid middle, stored as a span), and per-pixel bytes
/// `bytes[x - x0]` for the pixels outside that run. Invariant: x0 ≤ s0 ≤ s1 ≤ x1.
@usableFromInline @frozen
struct CoverageRow {
    @usableFromInline var x0: Int
    @usableFromInline var x1: Int
    @usableFromInline var s0: Int
    @usableFromInline var s1: Int
    @usableFromInline var alpha: UInt32
    @usableFromInline var bytes: UnsafePointer<UInt8>

    @inlinable init(x0: Int, x1: Int, s0: Int, s1: Int, alpha: UInt32, bytes: UnsafePointer<UInt8>) {
        self.x0 = x0; self.x1 = x1; self.s0 = s0; self.s1 = s1; self.alpha = alpha; self.bytes = bytes
    }
    @inlinable static func empty(_ bytes: UnsafePointer<UInt8>) -> CoverageRow {
        CoverageRow(x0: 0, x1: 0, s0: 0, s1: 0, alpha: 0, bytes: bytes)
    }
    @inlinable var isEmpty: Bool { x0 >= x1 }
    @inlinable @inline(__always) func coverage(at x: Int) -> UInt32 {
        if x < x0 || x >= x1 { return 0 }
        if x >= s0 && x < s1 { return alpha }
        return UInt32(bytes[x - x0])
    }

    /// Pointwise product (intersection), written into `out`.
    @inlinable func multiplied(by other: CoverageRow, into out: UnsafeMutablePointer<UInt8>) -> CoverageRow {
        let a = max(x0, other.x0), b = min(x1, other.x1)
        if a >= b { return .empty(out) }
        // The other row is fully covering here: nothing changes.
        if other.s0 <= a && other.s1 >= b && other.alpha == 255 && x0 == a && x1 == b { return self }
        var t0 = max(s0, other.s0, a), t1 = min(s1, other.s1, b)
        if t0 >= t1 { t0 = a; t1 = a }
        let solid = div255(alpha * other.alpha)
        for x in a..<t0 { out[x - a] = UInt8(div255(coverage(at: x) * other.coverage(at: x))) }
        for x in t1..<b { out[x - a] = UInt8(div255(coverage(at: x) * other.coverage(at: x))) }
        return CoverageRow(x0: a, x1: b, s0: t0, s1: t1, alpha: solid, bytes: out)
    }

    /// `self − inner` where `inner` lies inside `self` (a ring), written into `out`.
    @inlinable func subtracting(_ inner: CoverageRow, into out: UnsafeMutablePointer<UInt8>) -> CoverageRow {
        if inner.isEmpty || inner.x1 <= x0 || inner.x0 >= x1 { return self }
        var t0 = max(s0, inner.s0), t1 = min(s1, inner.s1)
        if t0 >= t1 { t0 = x0; t1 = x0 }
        let solid = alpha >= inner.alpha ? alpha - inner.alpha : 0
        for x in x0..<t0 {
            let a = coverage(at: x), b = inner.coverage(at: x)
            out[x - x0] = UInt8(a > b ? a - b : 0)
        }
        for x in t1..<x1 {
            let a = coverage(at: x), b = inner.coverage(at: x)
            out[x - x0] = UInt8(a > b ? a - b : 0)
        }
        return CoverageRow(x0: x0, x1: x1, s0: t0, s1: t1, alpha: solid, bytes: out)
    }
}

/// Something that can say its coverage row by row (dispatch per row, never per pixel).
@usableFromInline
protocol CoverageShape {
    /// Pixels outside this box have zero coverage.
    var pixelBounds: IntRect { get }
    /// Coverage of row `y`, limited to columns [cx0, cx1); may write into `scratch` rows.
    func row(_ y: Int, _ cx0: Int, _ cx1: Int, _ scratch: ScratchRows) -> CoverageRow
}

/// Coverage 0...1 → 0...255, rounded to nearest (½ → 128).
@inlinable @inline(__always)
func coverageByte(_ f: Double) -> UInt8 {
    UInt8((min(max(f, 0), 1) * 255).rounded())
}

/// Largest magnitude a device coordinate may have; beyond this shapes are clamped.
@usableFromInline let coordinateLimit = 1.0e7

@inlinable @inline(__always)
func pixelFloor(_ v: Double) -> Int { Int(min(max(v, -coordinateLimit), coordinateLimit).rounded(.down)) }
@inlinable @inline(__always)
func pixelCeil(_ v: Double) -> Int { Int(min(max(v, -coordinateLimit), coordinateLimit).rounded(.up)) }

/// An axis-aligned rectangle at fractional device coordinates; a pixel's coverage is the
/// exact area of the pixel inside the rectangle (horizontal × vertical overlap), rounded.
@usableFromInline
struct RectShape: CoverageShape {
    @usableFromInline let x0, y0, x1, y1: Double
    @usableFromInline let pixelBounds: IntRect
    @usableFromInline let solidX0, solidX1: Int

    @usableFromInline init(_ rect: Rect) {
        // Non-finite geometry draws nothing.
        let finite = rect.minX.isFinite && rect.minY.isFinite && rect.maxX.isFinite && rect.maxY.isFinite
        let r = finite ? rect : .zero
        x0 = min(max(r.minX, -coordinateLimit), coordinateLimit)
        y0 = min(max(r.minY, -coordinateLimit), coordinateLimit)
        x1 = min(max(r.maxX, -coordinateLimit), coordinateLimit)
        y1 = min(max(r.maxY, -coordinateLimit), coordinateLimit)
        let bx0 = pixelFloor(x0), by0 = pixelFloor(y0)
        pixelBounds =
            x1 > x0 && y1 > y0
            ? IntRect(x: bx0, y: by0, width: pixelCeil(x1) - bx0, height: pixelCeil(y1) - by0) : .zero
        solidX0 = pixelCeil(x0); solidX1 = pixelFloor(x1)
    }

    @inlinable @inline(__always) func verticalCoverage(_ y: Int) -> Double {
        min(Double(y + 1), y1) - max(Double(y), y0)
    }
    @inlinable @inline(__always) func horizontalCoverage(_ x: Int) -> Double {
        min(Double(x + 1), x1) - max(Double(x), x0)
    }

    @usableFromInline func row(_ y: Int, _ cx0: Int, _ cx1: Int, _ scratch: ScratchRows) -> CoverageRow {
        let out = scratch.row(0)
        let vy = verticalCoverage(y)
        let a = max(pixelBounds.x, cx0), b = min(pixelBounds.maxX, cx1)
        if vy <= 0 || a >= b { return .empty(out) }
        let s0 = min(max(solidX0, a), b), s1 = max(min(solidX1, b), s0)
        for x in a..<s0 { out[x - a] = coverageByte(horizontalCoverage(x) * vy) }
        for x in s1..<b { out[x - a] = coverageByte(horizontalCoverage(x) * vy) }
        return CoverageRow(x0: a, x1: b, s0: s0, s1: s1, alpha: UInt32(coverageByte(vy)), bytes: out)
    }
}

/// A coverage mask placed at a whole-pixel origin (glyphs, cached circles, filled paths).
/// `runs`, when present, gives per row the columns with coverage and the run of 255s drawn as
/// a solid span (`CoverageMask.runs`).
@usableFromInline
struct MaskShape: CoverageShape {
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @usableFromInline let runs: UnsafePointer<Int32>?
    @usableFromInline let width: Int
    @usableFromInline let pixelBounds: IntRect

    @usableFromInline init(bytes: UnsafePointer<UInt8>, runs: UnsafePointer<Int32>?, width: Int, height: Int, x: Int, y: Int) {
        self.bytes = bytes; self.runs = runs; self.width = width
        pixelBounds = IntRect(x: x, y: y, width: width, height: height)
    }
    @usableFromInline init(_ mask: CoverageMask, x: Int, y: Int) {
        self.init(bytes: mask.bytes, runs: mask.runs, width: mask.width, height: mask.height, x: x, y: y)
    }

    @usableFromInline func row(_ y: Int, _ cx0: Int, _ cx1: Int, _ scratch: ScratchRows) -> CoverageRow {
        let my = y - pixelBounds.y
        var a = max(pixelBounds.x, cx0), b = min(pixelBounds.maxX, cx1)
        if my < 0 || my >= pixelBounds.height || a >= b { return .empty(bytes) }
        var s0 = a, s1 = a
        if let runs {
            let r = runs + 4 * my, x = pixelBounds.x
            a = max(a, x + Int(r[0])); b = min(b, x + Int(r[3]))
            if a >= b { return .empty(bytes) }
            s0 = min(max(x + Int(r[1]), a), b)
            s1 = max(min(x + Int(r[2]), b), s0)
        }
        return CoverageRow(x0: a, x1: b, s0: s0, s1: s1, alpha: 255, bytes: bytes + my * width + (a - pixelBounds.x))
    }
}

/// A rounded rectangle with coordinates and radius snapped to 1/64 pixel. Rows through the
/// straight middle are solid spans with at most one partial pixel per side; only the four
/// corner boxes use coverage, from masks cached per (radius, phase, corner). When the corner
/// boxes would share pixels (a capsule narrower than its corners), the whole shape is scan
/// converted into one mask instead.
@usableFromInline
struct RoundedRectShape: CoverageShape {
    @usableFromInline let edges: RectShape
    @usableFromInline let pixelBounds: IntRect
    /// Column and row where the corner boxes end/begin: [X0, xl) and [xr, X1); [Y0, yt), [yb, Y1).
    @usableFromInline let xl, xr, yt, yb: Int
    /// Keeps the corner masks alive; rows read them through `cornerBytes` (no ARC per row).
    /// Only the corners whose boxes meet the visible clip are fetched (a damage rectangle or a
    /// clip to one corner box needs one of four), the others are nil.
    @usableFromInline let corners: (CoverageMask?, CoverageMask?, CoverageMask?, CoverageMask?)
    /// Top-left, top-right, bottom-left, bottom-right mask bytes (nil: not fetched) and their
    /// row widths.
    @usableFromInline let cornerBytes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?)
    @usableFromInline let cornerWidths: (Int, Int, Int, Int)
    /// Whether the rows through the corner boxes come from corner masks.
    @usableFromInline let hasCorners: Bool
    @usableFromInline let whole: CoverageMask?
    /// No radius: drawn exactly like a rectangle.
    @usableFromInline let isPlainRect: Bool

    /// `clip` bounds the fallback mask; pass the span's bounds (not the current clip) so that
    /// partial redraws give the same bits as full ones. `visible` is the canvas's clip: a shape
    /// that misses it fetches no corner masks and scan converts nothing (its rows are empty).
    @usableFromInline init(_ rect: Rect, radius: Double, cache: RasterCache, clip: IntRect, visible: IntRect) {
        func snap(_ v: Double) -> Double { (min(max(v, -coordinateLimit), coordinateLimit) * 64).rounded() / 64 }
        let finite = rect.minX.isFinite && rect.minY.isFinite && rect.maxX.isFinite && rect.maxY.isFinite
        let rect = finite ? rect : .zero
        let x0 = snap(rect.minX), y0 = snap(rect.minY), x1 = snap(rect.maxX), y1 = snap(rect.maxY)
        let snapped = Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        edges = RectShape(snapped)
        pixelBounds = edges.pixelBounds
        let limit = min(snapped.width, snapped.height) / 2
        let r = ((radius.isFinite ? min(max(radius, 0), limit) : 0) * 64).rounded(.down) / 64
        let b = pixelBounds
        xl = pixelCeil(x0 + r); xr = pixelFloor(x1 - r)
        yt = pixelCeil(y0 + r); yb = pixelFloor(y1 - r)
        isPlainRect = r <= 0
        var masks: (CoverageMask?, CoverageMask?, CoverageMask?, CoverageMask?) = (nil, nil, nil, nil)
        var fallback: CoverageMask? = nil
        var origin = (0, 0)
        var cornered = false
        if b.intersection(visible).isEmpty || r <= 0 {
            // A plain rectangle, or nothing to draw.
        } else if xl <= xr && yt <= yb && r <= RasterCache.maximumCachedRadius {
            let r64 = Int(r * 64)
            func phase(_ v: Double) -> Int { Int(((v - v.rounded(.down)) * 64).rounded()) & 63 }
            func mask(_ corner: Int, _ box: IntRect, _ px: Double, _ py: Double) -> CoverageMask? {
                box.intersection(visible).isEmpty
                    ? nil
                    : cache.cornerMask(radius64: r64, phaseX: phase(px), phaseY: phase(py), corner: corner)
            }
            // Locals: the init may not capture `self` before all of it is set.
            let (left, right, top, bottom) = (xl, xr, yt, yb)
            func box(_ i: Int) -> IntRect { Self.cornerBox(i, bounds: b, xl: left, xr: right, yt: top, yb: bottom) }
            masks = (mask(0, box(0), x0, y0), mask(1, box(1), x1, y0), mask(2, box(2), x0, y1), mask(3, box(3), x1, y1))
            cornered = true
        } else {
            // Corners overlap in pixels, or are too large to cache (a corner mask is r² bytes):
            // scan convert the visible part as one mask.
            let box = b.intersection(clip)
            var path = Path()
            path.addRoundedRect(snapped, radius: r)
            if !box.isEmpty {
                fallback = ScanConverter.mask(path.flattened(tolerance: RasterCache.curveTolerance), box: box, rule: .nonZero, cache: cache)
            }
            origin = (box.x, box.y)
        }
        corners = masks
        hasCorners = cornered
        whole = fallback
        wholeOrigin = origin
        func bytes(_ m: CoverageMask?) -> UnsafePointer<UInt8>? { m.map { UnsafePointer($0.bytes) } }
        cornerBytes = (bytes(masks.0), bytes(masks.1), bytes(masks.2), bytes(masks.3))
        cornerWidths = (masks.0?.width ?? 0, masks.1?.width ?? 0, masks.2?.width ?? 0, masks.3?.width ?? 0)
    }
    @usableFromInline let wholeOrigin: (Int, Int)

    /// Corner box `i` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) in device
    /// pixels; its corner mask starts at the box's top-left pixel.
    @usableFromInline func cornerBox(_ i: Int) -> IntRect {
        Self.cornerBox(i, bounds: pixelBounds, xl: xl, xr: xr, yt: yt, yb: yb)
    }

    @usableFromInline static func cornerBox(_ i: Int, bounds b: IntRect, xl: Int, xr: Int, yt: Int, yb: Int) -> IntRect {
        let x = i & 1 == 0 ? b.x : xr, maxX = i & 1 == 0 ? xl : b.maxX
        let y = i & 2 == 0 ? b.y : yb, maxY = i & 2 == 0 ? yt : b.maxY
        return IntRect(x: x, y: y, width: maxX - x, height: maxY - y)
    }

    /// Corner box `i`'s mask bytes (nil: not fetched) and row width.
    @usableFromInline func cornerMask(_ i: Int) -> (bytes: UnsafePointer<UInt8>?, width: Int) {
        switch i {
        case 0: return (cornerBytes.0, cornerWidths.0)
        case 1: return (cornerBytes.1, cornerWidths.1)
        case 2: return (cornerBytes.2, cornerWidths.2)
        default: return (cornerBytes.3, cornerWidths.3)
        }
    }

    @usableFromInline func row(_ y: Int, _ cx0: Int, _ cx1: Int, _ scratch: ScratchRows) -> CoverageRow {
        if let whole {
            return MaskShape(whole, x: wholeOrigin.0, y: wholeOrigin.1).row(y, cx0, cx1, scratch)
        }
        if !hasCorners {
            // No radius: a plain rectangle. Otherwise empty, or the mask fallback was clipped away.
            return isPlainRect ? edges.row(y, cx0, cx1, scratch) : .empty(scratch.row(0))
        }
        let b = pixelBounds
        let a = max(b.x, cx0), e = min(b.maxX, cx1)
        let out = scratch.row(0)
        if y < b.y || y >= b.maxY || a >= e { return .empty(out) }
        if y >= yt && y < yb {
            return edges.row(y, cx0, cx1, scratch)
        }
        // A row through the top or bottom corner boxes.
        let top = y < yt
        let (left, leftWidth) = cornerMask(top ? 0 : 2), (right, rightWidth) = cornerMask(top ? 1 : 3)
        let my = top ? y - b.y : y - yb
        let s0 = min(max(xl, a), e), s1 = max(min(xr, e), s0)
        // A corner that was not fetched lies outside the visible clip, where no row is drawn.
        if a < s0 {
            guard let left else { return .empty(out) }
            out.update(from: left + my * leftWidth + (a - b.x), count: s0 - a)
        }
        if s1 < e {
            guard let right else { return .empty(out) }
            (out + (s1 - a)).update(from: right + my * rightWidth + (s1 - xr), count: e - s1)
        }
        return CoverageRow(x0: a, x1: e, s0: s0, s1: s1, alpha: UInt32(coverageByte(edges.verticalCoverage(y))), bytes: out)
    }
}

/// The area between two rounded rectangles, the inner inside the outer (a stroke).
@usableFromInline
struct RingShape: CoverageShape {
    @usableFromInline let outer: RoundedRectShape
    @usableFromInline let inner: RoundedRectShape?
    @usableFromInline var pixelBounds: IntRect { outer.pixelBounds }

    @usableFromInline func row(_ y: Int, _ cx0: Int, _ cx1: Int, _ scratch: ScratchRows) -> CoverageRow {
        let o = outer.row(y, cx0, cx1, scratch)
        guard let inner, !o.isEmpty else { return o }
        let i = inner.row(y, cx0, cx1, scratch.offset(by: 1))
        return o.subtracting(i, into: scratch.row(2))
    }
}
