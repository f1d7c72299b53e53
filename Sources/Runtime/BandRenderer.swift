import Dispatch
import Raster

/// Draws a frame in horizontal bands at once, one per thread, each band with its own raster
/// cache (its scratch rows and masks are not shared). The threads are Dispatch's own workers,
/// kept between frames: a frame starts no thread. Rows are drawn the same whichever band they
/// fall in, so the result equals one thread's, bit for bit.
public final class BandRenderer {
    public let threads: Int
    private let bands: [Range<Int>]
    private let caches: [RasterCache]

    /// Bands of `height` rows for `threads` threads (at least one row each).
    public init(height: Int, threads: Int) {
        let n = max(1, min(threads, max(1, height)))
        self.threads = n
        bands = (0..<n).map { i in (height * i / n)..<(height * (i + 1) / n) }
        caches = (0..<n).map { _ in RasterCache() }
    }

    /// Calls `body` once per band, at once on as many threads; returns when all are done.
    /// `body` must only write the rows it is given.
    public func draw(_ body: (_ rows: Range<Int>, _ cache: RasterCache) -> Void) {
        if threads == 1 { return body(bands[0], caches[0]) }
        withoutActuallyEscaping(body) { body in
            let work = UncheckedBox((body, bands, caches))
            DispatchQueue.concurrentPerform(iterations: work.value.1.count) { i in work.value.0(work.value.1[i], work.value.2[i]) }
        }
    }
}

/// Hands a closure to Dispatch's workers: the bands it is called with never overlap.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
