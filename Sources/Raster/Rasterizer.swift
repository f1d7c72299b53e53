import Geometry

/// An owned 8-bit coverage mask with, per row, the columns that have coverage and the run of
/// fully covered (255) pixels among them, so that drawing it skips the empty ends of each row
/// (most of a circle's top and bottom rows) and stores the middle as a solid span. Used for
/// cached corner and circle coverage and for filled paths.
@usableFromInline
final class CoverageMask {
    @usableFromInline let width: Int
    @usableFromInline let height: Int
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// Four entries per row, in mask columns: [inkStart, inkEnd) holds every non-zero byte
    /// (empty when inkStart == inkEnd), and [start, end), inside it, is the longest run of 255s.
    /// Stored in the order inkStart, start, end, inkEnd.
    @usableFromInline let runs: UnsafeMutablePointer<Int32>

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        bytes = .allocate(capacity: max(1, width * height))
        bytes.initialize(repeating: 0, count: max(1, width * height))
        runs = .allocate(capacity: max(4, 4 * height))
        runs.initialize(repeating: 0, count: max(4, 4 * height))
    }
    deinit {
        bytes.deallocate()
        runs.deallocate()
    }

    /// Finds each row's covered columns and longest run of 255s (called once, after the mask
    /// is rendered).
    func computeRuns() {
        for y in 0..<height {
            let row = bytes + y * width
            var best = 0, bestStart = 0, x = 0
            var first = width, last = -1
            while x < width {
                if row[x] == 255 {
                    let s = x
                    while x < width && row[x] == 255 { x += 1 }
                    if x - s > best { best = x - s; bestStart = s }
                    first = min(first, s); last = x - 1
                } else {
                    if row[x] != 0 { first = min(first, x); last = x }
                    x += 1
                }
            }
            let ink = last < first ? (0, 0) : (first, last + 1)
            let run = best > 0 ? (bestStart, bestStart + best) : (ink.0, ink.0)
            runs[4 * y] = Int32(ink.0)
            runs[4 * y + 1] = Int32(run.0)
            runs[4 * y + 2] = Int32(run.1)
            runs[4 * y + 3] = Int32(ink.1)
        }
    }
}

/// Coverage scan conversion by signed-area accumulation (the approach of font rasterisers:
/// font-rs, FreeType's "gray" renderer). Each edge deposits, per pixel row, the change of
/// coverage it causes in each cell it crosses; a running sum along the row then gives the exact
/// area coverage of polygons (winding-weighted), which the fill rule folds into 0...1
/// (non-zero: clamp |w|; even-odd: triangle wave of period 2, as FreeType does).
/// Geometry in `Double`, accumulation in `Float`; only + − × ÷, so it is bit-exact across CPUs.
struct ScanConverter {
    /// Rows rasterised per band, to bound the accumulation buffer for large paths.
    static let bandHeight = 64

    /// Renders `polylines` (each implicitly closed), in device pixels, into coverage rows for the
    /// pixel box `box`, handing each finished row to `emit(y, coverage)` (`box.width` bytes).
    static func rasterize(
        _ polylines: [[Point]], box: IntRect, rule: FillRule, cache: RasterCache,
        emit: (Int, UnsafeMutablePointer<UInt8>) -> Void
    ) {
        guard !box.isEmpty else { return }
        let w = box.width
        let stride = w + 2
        let bandRows = min(bandHeight, box.height)
        let acc = cache.accumulator(count: stride * bandRows)
        let out = cache.maskRow(count: w)
        // Edges in box-local coordinates, dropping polylines with non-finite points.
        var edges: [(Double, Double, Double, Double)] = []
        for line in polylines {
            guard line.count > 1, line.allSatisfy({ $0.isFinite }) else { continue }
            var prev = line[line.count - 1]
            for p in line {
                if prev.y != p.y {
                    edges.append(
                        (
                            clampCoordinate(prev.x - Double(box.x)), clampCoordinate(prev.y - Double(box.y)),
                            clampCoordinate(p.x - Double(box.x)), clampCoordinate(p.y - Double(box.y))
                        ))
                }
                prev = p
            }
        }
        var bandTop = 0
        while bandTop < box.height {
            let rows = min(bandRows, box.height - bandTop)
            let top = Double(bandTop), bottom = Double(bandTop + rows)
            for e in edges {
                if max(e.1, e.3) <= top || min(e.1, e.3) >= bottom { continue }
                addEdge(
                    acc, stride: stride, width: w, height: rows,
                    e.0, e.1 - top, e.2, e.3 - top)
            }
            for r in 0..<rows {
                let a = acc + r * stride
                var sum: Float = 0
                switch rule {
                case .nonZero:
                    for x in 0..<w {
                        sum += a[x]; a[x] = 0
                        out[x] = UInt8(min(abs(sum), 1) * 255 + 0.5)
                    }
                case .evenOdd:
                    for x in 0..<w {
                        sum += a[x]; a[x] = 0
                        var t = abs(sum)
                        t -= 2 * (t * 0.5).rounded(.down)
                        if t > 1 { t = 2 - t }
                        out[x] = UInt8(min(t, 1) * 255 + 0.5)
                    }
                }
                a[w] = 0; a[w + 1] = 0
                emit(box.y + bandTop + r, out)
            }
            bandTop += rows
        }
    }

    @inline(__always)
    static func clampCoordinate(_ v: Double) -> Double { min(max(v, -1e7), 1e7) }

    /// Adds one edge (local coordinates; y grows downwards) to the accumulation rows [0, height).
    /// Parts left of x = 0 act as a vertical edge at 0, parts right of `width` at `width` (they
    /// only influence pixels to their right), parts above or below are dropped.
    static func addEdge(
        _ acc: UnsafeMutablePointer<Float>, stride: Int, width: Int, height: Int,
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) {
        let dir: Double
        var x0 = ax, y0 = ay, x1 = bx, y1 = by
        if ay < by { dir = 1 } else { dir = -1; x0 = bx; y0 = by; x1 = ax; y1 = ay }
        let h = Double(height)
        guard y0 < y1, y1 > 0, y0 < h else { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        // Clip to the rows [0, h] first, computing both ends from the original edge.
        let cy0 = max(y0, 0), cy1 = min(y1, h)
        let cx0 = x0 + (cy0 - y0) * dxdy, cx1 = x0 + (cy1 - y0) * dxdy
        // Split where the edge crosses x = 0 and x = width (parameters strictly inside (0, 1)).
        let W = Double(width)
        var t1 = 1.0, t2 = 1.0
        if cx1 != cx0 {
            let ta = (0 - cx0) / (cx1 - cx0), tb = (W - cx0) / (cx1 - cx0)
            let lo = min(ta, tb), hi = max(ta, tb)
            if lo > 0 && lo < 1 { t1 = lo; t2 = hi > 0 && hi < 1 ? hi : 1 } else if hi > 0 && hi < 1 { t1 = hi }
        }
        var tPrevious = 0.0, xPrevious = cx0, yPrevious = cy0
        for t in [t1, t2, 1.0] where t > tPrevious {
            let x = t == 1 ? cx1 : cx0 + t * (cx1 - cx0)
            let y = t == 1 ? cy1 : min(max(cy0 + t * (cy1 - cy0), yPrevious), cy1)
            depositRows(acc, stride: stride, W: W, min(max(xPrevious, 0), W), yPrevious, min(max(x, 0), W), y, dir)
            tPrevious = t; xPrevious = x; yPrevious = y
        }
    }

    /// Deposits a downward edge piece lying within x ∈ [0, W] and inside the band.
    @inline(__always)
    static func depositRows(
        _ acc: UnsafeMutablePointer<Float>, stride: Int, W: Double,
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ dir: Double
    ) {
        guard y1 > y0 else { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        let firstRow = Int(y0.rounded(.down)), endRow = Int(y1.rounded(.up))
        for row in firstRow..<endRow {
            let ya = max(Double(row), y0), yb = min(Double(row + 1), y1)
            let dy = yb - ya
            if dy <= 0 { continue }
            let xa = min(max(x0 + (ya - y0) * dxdy, 0), W)
            let xb = min(max(x0 + (yb - y0) * dxdy, 0), W)
            depositCells(acc + row * stride, xa, xb, dy * dir)
        }
    }

    /// One row strip of an edge from `xa` to `xb` with signed height `d`. After the running
    /// sum, pixel c has gained d·A(c), where A(c) is the fraction of pixel c right of the edge
    /// (averaged over the strip): A is 0 left of the edge and 1 right of it.
    @inline(__always)
    static func depositCells(_ a: UnsafeMutablePointer<Float>, _ xa: Double, _ xb: Double, _ d: Double) {
        let lo = min(xa, xb), hi = max(xa, xb)
        let i0 = Int(lo.rounded(.down))
        let i1 = max(i0 + 1, Int(hi.rounded(.up)))
        if i1 == i0 + 1 {
            let mid = (lo + hi) * 0.5 - Double(i0)
            a[i0] += Float(d * (1 - mid))
            a[i0 + 1] += Float(d * mid)
            return
        }
        let inverse = 1 / (hi - lo)
        var previous = 0.0
        for c in i0..<i1 {
            let left = Double(c)
            // ∫ over the edge's x of clamp(c + 1 − x, 0, 1), divided by the x extent.
            let full = max(0, min(hi, left) - lo)
            let s = max(lo, left), e = min(hi, left + 1)
            let partial = e > s ? (e - s) * (left + 1 - (s + e) * 0.5) : 0
            let area = (full + partial) * inverse
            a[c] += Float(d * (area - previous))
            previous = area
        }
        a[i1] += Float(d * (1 - previous))
    }

    /// Renders polylines into a new mask covering exactly `box` (mask pixel (0,0) = box origin).
    static func mask(_ polylines: [[Point]], box: IntRect, rule: FillRule, cache: RasterCache) -> CoverageMask {
        let mask = CoverageMask(width: max(0, box.width), height: max(0, box.height))
        rasterize(polylines, box: box, rule: rule, cache: cache) { y, row in
            (mask.bytes + (y - box.y) * box.width).update(from: row, count: box.width)
        }
        mask.computeRuns()
        return mask
    }
}
