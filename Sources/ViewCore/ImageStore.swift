import Dispatch
import Geometry
import Raster
import AppContract

/// Decoded pictures within a memory budget, shared by every `ImageView` that shows the same
/// source (a file path). When the decoded total passes the budget, pictures that no view shows
/// on screen are released, least recently drawn first; one that scrolls back into view is
/// decoded again. On a board the decoding runs on a background queue and the view shows
/// its placeholder until the pixels are there, so a frame never waits for a decoder; headless
/// it runs at once, so screenshots at a given time are the same on every run.
///
/// The decoder comes from the app's runtime (`Image.read` of ImageCodecs for files, which
/// decodes straight to the size a picture is drawn at), so the UI layer holds no codec.
package final class ImageStore {
    /// Makes a source's whole picture (pictures an app makes in code).
    package typealias Decoder = @Sendable (_ source: String) throws -> PixelBuffer
    /// Decodes a source halved as often as `halvings` asks once the picture's size is known,
    /// never holding the whole picture (ImageCodecs' `Image.read(path:halvings:)`).
    package typealias ReducingDecoder =
        @Sendable (_ source: String, _ halvings: (_ width: Int, _ height: Int) -> Int) throws -> ReducedPicture

    /// What `image(for:)` has for a source now.
    package enum Lookup {
        case ready(PixelBuffer)
        /// Being decoded (on a board): draw a placeholder, the view is redrawn when it is there.
        case pending
        /// The decoder failed: the message names the source and the reason.
        case failed(String)
    }

    /// Bytes of decoded pixels the store keeps beyond the pictures on screen (the window
    /// sets it from its `memoryBudget`).
    package package(set) var budgetBytes = 0 { didSet { futileTrim = nil } }
    /// Decode on a background queue (a board) or at once (headless: deterministic frames).
    package var decodesInBackground = false
    /// Sets `reducingDecoder` to one that halves the whole picture this makes.
    package var decoder: Decoder? {
        didSet {
            reducingDecoder = decoder.map { whole in
                { @Sendable source, halvings in try ReducedPicture(whole: whole(source), halvings: halvings) }
            }
        }
    }
    /// What the store decodes with: the last of this and `decoder` set.
    package var reducingDecoder: ReducingDecoder?
    /// The window's raster cache: the halvings made to draw a picture are the ones it keeps.
    private let cache: RasterCache

    package private(set) var residentBytes = 0
    package var residentCount: Int { entries.values.reduce(0) { $0 + ($1.image == nil ? 0 : 1) } }
    /// Decodes so far (a picture decoded again after its release counts again).
    package private(set) var decodeCount = 0

    private struct Entry {
        var image: PixelBuffer?
        /// Known once decoded, kept after a release so layouts need not wait for the pixels.
        var size: (width: Int, height: Int)?
        var failure: String?
        /// A view showed the placeholder and `onFailure` was told.
        var failureReported = false
        var decoding = false
        var lastDrawn = -1
        /// Halvings of the decoded picture that `image` holds: a picture drawn reduced is kept
        /// at the level the window's raster cache would draw it from, not whole.
        var level = 0
        /// The finest level its decoder gives (below 0: a vector picture, rendered larger for a zoom).
        var finest = 0
        /// Views that asked for it, with the level each drew it at: it stays while one is on
        /// screen, is kept at the most detailed level one of them needs, and they are redrawn
        /// when a background decode arrives.
        var viewers: [Viewer] = []
    }
    private struct Viewer { weak var view: View?; var level: Int }

    private var entries: [String: Entry] = [:]
    private var frame = 0
    private let queue = DispatchQueue(label: "glide.images")
    private var arrivals: LoopChannel<Arrival>?
    private struct Arrival: Sendable {
        var source: String
        var result: Result<ReducedPicture, DecodeFailure>
    }
    /// Sources drawn this frame, whose kept level is checked when it ends.
    private var drawnThisFrame: Set<String> = []
    /// The bytes and frame of the last release that could not get under the budget (every
    /// picture left was on screen): with the same bytes it is tried again only now and then,
    /// when pictures may have left the screen, not every frame.
    private var futileTrim: (bytes: Int, frame: Int)?
    private struct DecodeFailure: Error, Sendable { var message: String }

    package init(cache: RasterCache) { self.cache = cache }

    /// The pixels of `source` for a view drawing it in the current frame: ready, pending (a
    /// decode was started) or failed. `drawnSize` gives the pixels the view draws a picture of
    /// a given size at (nil: whole); ready pixels may be a halving of the picture, as detailed
    /// as the views showing it need.
    package func image(for source: String, drawnBy view: View? = nil, drawnSize: (@Sendable (Size) -> Size)? = nil) -> Lookup {
        var entry = entries[source] ?? Entry()
        entry.lastDrawn = frame
        drawnThisFrame.insert(source)
        defer { entries[source] = entry }
        let level: @Sendable (_ width: Int, _ height: Int) -> Int = { width, height in
            guard let drawnSize else { return 0 }
            let drawn = drawnSize(Size(width: Double(width), height: Double(height)))
            return RasterCache.detailLevel(drawnAt: drawn, width: width, height: height)
        }
        let wanted = max(entry.finest, entry.size.map { level($0.width, $0.height) } ?? 0)
        if let view {
            entry.viewers.removeAll { $0.view == nil || $0.view === view }
            entry.viewers.append(Viewer(view: view, level: wanted))
        }
        if entry.failure != nil { return failed(source, &entry) }
        if let image = entry.image, wanted >= entry.level { return .ready(image) }
        // Not there, or kept too reduced for this view (a pinch zooms in): decode again. A
        // board shows what it has meanwhile.
        if entry.decoding { return entry.image.map { .ready($0) } ?? .pending }
        if decodesInBackground, let decoder = reducingDecoder, let channel = channel(for: view) {
            entry.decoding = true
            queue.async {
                let result = Result { () throws(DecodeFailure) in
                    do { return try decoder(source, level) } catch { throw DecodeFailure(message: "\(error)") }
                }
                _ = channel.send(Arrival(source: source, result: result))
            }
            return entry.image.map { .ready($0) } ?? .pending
        }
        decodeNow(source, into: &entry, level: level)
        if let view, let i = entry.viewers.lastIndex(where: { $0.view === view }) { entry.viewers[i].level = entry.level }
        if let image = entry.image { return .ready(image) }
        return failed(source, &entry)
    }

    /// Decodes `source` now (while an app builds its views, not while it draws) and keeps the
    /// pixels if the budget allows: its size is known from then on, and a bad file is found at
    /// once. Returns the size or the decoder's error.
    @discardableResult
    package func preload(_ source: String) -> Result<Size, ImageStoreError> {
        var entry = entries[source] ?? Entry()
        if entry.size == nil && entry.failure == nil {
            decodeNow(source, into: &entry) { _, _ in 0 }
            entries[source] = entry
            releaseOverBudget()
        }
        if let size = entry.size { return .success(Size(width: Double(size.width), height: Double(size.height))) }
        return .failure(ImageStoreError(message: entry.failure ?? source))
    }

    /// `preload` for each of `sources` not decoded yet, `threads` at a time: decoding is pure, so
    /// an app's pictures decode on all cores while it builds its views (the catalog's 13 took
    /// half the CPU before its first frame, one after another). The store itself is updated on
    /// this thread after each round, within the budget.
    package func preload(all sources: [String], threads: Int) {
        guard let decoder = reducingDecoder else { return }
        var seen = Set<String>()
        let todo = sources.filter { entries[$0]?.size == nil && entries[$0]?.failure == nil && seen.insert($0).inserted }
        var start = 0
        while start < todo.count {
            // Past half the budget, one at a time: pixels freed on other threads' malloc arenas
            // stay resident (400 photos peaked at 299 MB instead of within 256).
            let width = budgetBytes > 0 && residentBytes >= budgetBytes / 2 ? 1 : max(1, threads)
            let round = Array(todo[start..<min(todo.count, start + width)])
            start += round.count
            let results = ResultSlots(count: round.count)
            DispatchQueue.concurrentPerform(iterations: round.count) { i in
                results.set(i, Result { try decoder(round[i]) { _, _ in 0 } })
            }
            for (source, result) in zip(round, results.values) {
                var entry = entries[source] ?? Entry()
                decodeCount += 1
                switch result {
                case let .success(picture)?: store(picture, in: &entry)
                case let .failure(error)?: entry.failure = "\(error)"
                case nil: continue
                }
                entries[source] = entry
            }
            releaseOverBudget()
        }
    }

    /// Decodes on this thread into `entry`, kept at the halving `level` gives for the picture's
    /// size; a failure is kept in the entry.
    private func decodeNow(_ source: String, into entry: inout Entry, level: (_ width: Int, _ height: Int) -> Int) {
        guard let decoder = reducingDecoder else { entry.failure = "\(source): no image decoder in this window"; return }
        decodeCount += 1
        do { store(try decoder(source, level), in: &entry) } catch { entry.failure = "\(error)" }
    }

    /// The pixel size of `source` once it has been decoded (even if released since).
    package func size(of source: String) -> Size? {
        entries[source]?.size.map { Size(width: Double($0.width), height: Double($0.height)) }
    }

    /// After each frame: pictures are kept at the detail their views need, and past the
    /// budget those no view shows are released.
    package func frameEnded() {
        for source in drawnThisFrame { reduceToNeeds(source) }
        drawnThisFrame.removeAll(keepingCapacity: true)
        releaseOverBudget()
        frame += 1
        // Now and then, forget sources no view shows any more (a list flung through a
        // million rows would otherwise keep an entry for each row it drew).
        if frame % 600 == 0 {
            entries = entries.filter { $0.value.image != nil || $0.value.decoding || $0.value.viewers.contains { $0.view != nil } }
        }
    }

    /// Keeps a picture only as detailed as the most detailed view of it needs: a preloaded
    /// photo shown as a thumbnail keeps the thumbnail's halving.
    private func reduceToNeeds(_ source: String) {
        guard var entry = entries[source], let image = entry.image, !entry.decoding else { return }
        let needed = entry.viewers.filter { $0.view?.host != nil }.map(\.level).min() ?? entry.level
        guard needed > entry.level else { return }
        // The halvings drawn this frame are taken, not made again.
        let reduced = cache.halving(of: image, times: needed - entry.level)
        cache.forgetHalvings(of: image)
        residentBytes += Self.bytes(of: reduced) - Self.bytes(of: image)
        entry.image = reduced
        entry.level = needed
        entries[source] = entry
    }

    private func releaseOverBudget() {
        guard residentBytes > budgetBytes else { return }
        if let futileTrim, futileTrim.bytes == residentBytes, frame - futileTrim.frame < 30 { return }
        let candidates = entries.filter { $0.value.image != nil && $0.value.lastDrawn < frame && !isOnScreen($0.value) }
            .sorted { $0.value.lastDrawn < $1.value.lastDrawn }
        for (source, _) in candidates {
            if residentBytes <= budgetBytes { break }
            release(source)
        }
        futileTrim = residentBytes > budgetBytes ? (residentBytes, frame) : nil
    }

    /// A view shows it: one that a partial redraw did not draw this frame is still on screen.
    private func isOnScreen(_ entry: Entry) -> Bool {
        entry.viewers.contains { w in
            guard let view = w.view, let window = view.host else { return false }
            return !window.visibleRect(of: view).isEmpty
        }
    }

    private func release(_ source: String) {
        guard let image = entries[source]?.image else { return }
        residentBytes -= Self.bytes(of: image)
        entries[source]?.image = nil
        cache.forgetHalvings(of: image)
    }

    /// Told once per source that a view draws as its placeholder because it cannot be shown,
    /// with the reason (the window logs a warning): a grey box should never be a mystery. A
    /// failure `preload` returned is its caller's to report.
    package var onFailure: ((_ source: String, _ reason: String) -> Void)?

    /// A view is about to show `source`'s placeholder for good.
    private func failed(_ source: String, _ entry: inout Entry) -> Lookup {
        let reason = entry.failure ?? source
        if !entry.failureReported { entry.failureReported = true; onFailure?(source, reason) }
        return .failed(reason)
    }

    private func store(_ decoded: ReducedPicture, in entry: inout Entry) {
        if let old = entry.image {
            residentBytes -= Self.bytes(of: old)
            cache.forgetHalvings(of: old)
        }
        entry.image = decoded.pixels
        entry.level = decoded.halvings
        entry.finest = decoded.finest
        entry.size = (decoded.width, decoded.height)
        entry.failure = nil
        residentBytes += Self.bytes(of: decoded.pixels)
    }

    static func bytes(of image: PixelBuffer) -> Int { image.stride * image.height * 4 }

    /// The channel that brings decoded pictures back to the loop's thread, made on first use
    /// from the window of the view that asked (nil without one: decode at once instead).
    private func channel(for view: View?) -> LoopChannel<Arrival>? {
        if let arrivals { return arrivals }
        guard let window = view?.host else { return nil }
        let made = window.timers.channel { [weak self] (arrival: Arrival) in self?.receive(arrival) }
        arrivals = made
        return made
    }

    private func receive(_ arrival: Arrival) {
        guard var entry = entries[arrival.source] else { return }
        entry.decoding = false
        decodeCount += 1
        switch arrival.result {
        case let .success(decoded): store(decoded, in: &entry)
        case let .failure(failure): entry.failure = failure.message
        }
        entries[arrival.source] = entry
        for w in entry.viewers { (w.view as? ImageViewer)?.imageArrived() }
    }
}

/// Why a picture could not be shown: the decoder's message, naming the source.
package struct ImageStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// Bytes held by a window's caches (`Window.memoryUse`), for `--stats` and `/state`.
package struct MemoryUse: Codable, Hashable, Sendable {
    /// The window's memory budget.
    package var budget: Int
    /// Decoded pictures kept by the image store, and how many.
    package var images: Int
    package var imageCount: Int
    /// Decodes so far (a picture decoded again after a release counts again).
    package var imageDecodes: Int
    /// Halved copies of pictures drawn reduced.
    package var halvings: Int
    /// Rasterised glyphs of every font and size.
    package var glyphs: Int
    /// Laid-out text of the labels in the view tree.
    package init(budget: Int, images: Int, imageCount: Int, imageDecodes: Int, halvings: Int, glyphs: Int, text: Int) {
        self.budget = budget; self.images = images; self.imageCount = imageCount; self.imageDecodes = imageDecodes
        self.halvings = halvings; self.glyphs = glyphs; self.text = text
    }

    package var text: Int

    package var report: String {
        func mb(_ bytes: Int) -> String { fixed(Double(bytes) / 1_048_576, 1) + " MB" }
        return "memory: images \(mb(images)) (\(imageCount) pictures, \(imageDecodes) decodes), halvings \(mb(halvings)), "
            + "glyphs \(mb(glyphs)), text \(mb(text)); budget \(mb(budget))"
    }
}

/// One slot per concurrent decode, each written by its own iteration only.
private final class ResultSlots: @unchecked Sendable {
    private(set) var values: [Result<ReducedPicture, any Error>?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: Result<ReducedPicture, any Error>) { values[i] = value }
}
