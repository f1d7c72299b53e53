import Dispatch
import Geometry
import Glibc
import Raster

/// Draws rows of a frame in horizontal bands at once, one per thread, each band with its own
/// raster cache (its scratch rows and masks are not shared). The threads are Dispatch's own
/// workers, kept between frames: a frame starts no thread. Rows are drawn the same whichever
/// band they fall in, so the result equals one thread's, bit for bit.
package final class BandRenderer {
    /// The most bands a frame is split into.
    package let threads: Int
    private let caches: [RasterCache]

    package init(threads: Int) {
        self.threads = max(1, threads)
        caches = (0..<self.threads).map { _ in RasterCache() }
    }

    /// The default for `render_threads` and the benchmarks' `--threads`: the cores Dispatch
    /// sees, at most four (more bands than that gain little on a frame and cost a kiosk's
    /// other work its cores).
    package static var defaultThreads: Int { min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The thread counts `render_threads`, `--render-threads` and `--threads` accept.
    package static let threadLimit = 1...64

    /// The fewest pixels a band is worth drawing on a thread of its own: below this, handing
    /// the band to another thread costs more than it saves. On a 2-core Xeon, split always, the
    /// feed's scrolled frames at 1080p (a strip of a few rows) took 0.40 to 0.51 ms on two
    /// threads against 0.37 on one; split by this, 0.38 on both, while a full 1080p redraw still
    /// takes 0.30 ms on two against 0.46, and a photo carousel's frames (some 400,000 pixels of
    /// resampling) are drawn in two bands.
    package static let minimumBandPixels = 1 << 16

    /// How many bands a frame that draws `pixels` pixels is split into: one for a small damage
    /// (a scroll's exposed strip, a ticking label), up to `threads` for a full redraw.
    package func bandCount(forPixels pixels: Int) -> Int {
        min(threads, max(1, pixels / BandRenderer.minimumBandPixels))
    }

    /// The bands `rows` is split into: equal, at least one row each, at most `threads`.
    package func bands(of rows: Range<Int>) -> [Range<Int>] {
        let n = min(threads, max(1, rows.count))
        return (0..<n).map { i in BandRenderer.band(i, of: n, in: rows) }
    }

    private static func band(_ i: Int, of n: Int, in rows: Range<Int>) -> Range<Int> {
        (rows.lowerBound + rows.count * i / n)..<(rows.lowerBound + rows.count * (i + 1) / n)
    }

    /// Calls `body` once per band of `rows` (numbered from 0, top down), at once on as many
    /// threads; returns when all are done. `body` must only write the rows it is given, and
    /// may keep per-band state by the band's number.
    /// `pixels`, when given, is what the frame draws: a small damage is drawn in fewer bands
    /// (`bandCount(forPixels:)`), one on this thread.
    package func draw(rows: Range<Int>, pixels: Int? = nil, _ body: (_ band: Int, _ rows: Range<Int>, _ cache: RasterCache) -> Void) {
        guard !rows.isEmpty else { return }
        let n = min(pixels.map(bandCount(forPixels:)) ?? threads, rows.count)
        if n == 1 { return body(0, rows, caches[0]) }
        withoutActuallyEscaping(body) { body in
            // Two boxes, not one holding a tuple: Swift 6.2's SILGen asserts on calling a
            // closure taken from a tuple inside a box (Debian's compiler has assertions on).
            let work = UncheckedBox(value: body), bandCaches = UncheckedBox(value: caches)
            DispatchQueue.concurrentPerform(iterations: n) { i in
                let draw = work.value
                draw(i, BandRenderer.band(i, of: n, in: rows), bandCaches.value[i])
            }
        }
    }
}

extension BandRenderer {
    /// Calls `body` with each of `pieces` (disjoint rectangles) cut to the bands of the rows
    /// they span, the bands at once as in `draw(rows:_:)`: a frame's damage copied to the
    /// screen split the way it was drawn. `body` must only touch the rectangle it is given.
    package func draw(pieces: some Collection<IntRect>, _ body: (IntRect) -> Void) {
        let bounds = pieces.reduce(IntRect.zero) { $0.union($1) }
        draw(rows: bounds.y..<bounds.maxY, pixels: pieces.reduce(0) { $0 + $1.area }) { _, rows, _ in
            let band = IntRect(x: bounds.x, y: rows.lowerBound, width: bounds.width, height: rows.count)
            for piece in pieces {
                let part = piece.intersection(band)
                if !part.isEmpty { body(part) }
            }
        }
    }
}

/// Hands a closure to Dispatch's workers: the bands it is called with never overlap.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
}
