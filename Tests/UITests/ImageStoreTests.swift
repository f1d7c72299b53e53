import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Geometry
import ImageCodecs
import Logging
import Raster
import Runtime
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import UI

/// Pictures within a memory budget (issue 13): shared per source, released off screen past the
/// budget, decoded again when they come back, and decoded in the background on a board.
@Suite struct ImageStoreTests {
    /// A picture of `side` x `side` pixels whose colour says which source it is.
    static func picture(_ source: String, side: Int = 100) -> PixelBuffer {
        PixelBuffer(width: side, height: side, fill: PremultipliedColor(argb: colour(of: source)))
    }

    static func colour(of source: String) -> UInt32 {
        0xFF00_0000 | UInt32(truncatingIfNeeded: source.hashValue) & 0xFFFFFF
    }

    /// A lazy list of `count` rows, each a 100 pt picture of its own source.
    static func pictureList(count: Int) -> ScrollView {
        ScrollView(
            id: "list",
            content: LazyVStack(id: "rows", count: count) { i in
                ImageView(source: "row-\(i)", id: "row-\(i)", width: 100, height: 100)
            })
    }

    /// An app with a lazy list of a million picture rows, each a 400x300 picture of its own
    /// (480 kB: the 450 rows flung through hold 216 MB without a budget), stays within a
    /// 16 MB budget. (The process's resident memory is measured in Tests/Memory, with
    /// PhotoListExample alone in its process: here other tests run beside it.)
    @Test func aMillionPictureRowsStayWithinTheBudget() throws {
        let scroll = Self.pictureList(count: 1_000_000)
        let w = try makeWindow(scroll, width: 200, height: 400)
        w.memoryBudget = 16 << 20
        w.images.decoder = { source in
            PixelBuffer(width: 400, height: 300, fill: PremultipliedColor(argb: Self.colour(of: source)))
        }
        var t = 0.2
        _ = w.frames(from: 0, to: t)
        var peakStore = 0
        for _ in 0..<40 {
            t = w.drag(from: Point(x: 100, y: 380), to: Point(x: 100, y: 20), at: t, duration: 0.03) + 0.02
            _ = w.frames(from: t, to: t + 0.3)
            t += 0.3
            peakStore = max(peakStore, w.images.residentBytes + w.memoryUse.halvings)
        }
        let offset = scroll.controller.state(at: t).offset.y
        #expect(offset > 45_000)  // flung through hundreds of rows
        #expect(w.images.decodeCount > 450)
        #expect(peakStore <= w.memoryBudget + 6 * 480_000, "store peak \(peakStore)")
        print("a million picture rows: store peak \(peakStore >> 10) kB, \(w.images.decodeCount) decodes")
        // The rows on screen show their own pictures.
        let frame = w.frames(from: t, to: t + 5)
        let y = scroll.controller.state(at: t + 5).offset.y
        let top = Int((y / 100).rounded(.down))
        #expect(frame[50, 100 * (top + 1) - Int(y) + 50] == Self.colour(of: "row-\(top + 1)"))
    }

    @Test func aPictureThatScrollsBackIsDecodedAgain() throws {
        let scroll = Self.pictureList(count: 100)
        let w = try makeWindow(scroll, width: 200, height: 400)
        w.memoryBudget = 200_000  // pictures get 150 kB: 3 beyond the screen
        w.images.decoder = { Self.picture($0) }
        var t = 0.1
        _ = w.frames(from: 0, to: t)
        #expect(w.images.decodeCount == 4 || w.images.decodeCount == 5)
        scroll.scroll(to: Point(x: 0, y: 5000), animated: false)
        _ = w.frames(from: t, to: t + 0.1); t += 0.2
        scroll.scroll(to: .zero, animated: false)
        let before = w.images.decodeCount
        let frame = w.frames(from: t, to: t + 0.1)
        #expect(w.images.decodeCount > before)
        #expect(frame[50, 50] == Self.colour(of: "row-0"))
        #expect(w.images.residentBytes <= w.images.budgetBytes + 5 * 40_000)
    }

    @Test func oneSourceShownTwiceIsDecodedOnce() throws {
        let stack = Stack(
            .vertical,
            children: [
                ImageView(source: "same", width: 100, height: 100),
                ImageView(source: "same", width: 100, height: 100),
            ])
        let w = try makeWindow(stack)
        w.images.decoder = { Self.picture($0) }
        _ = w.frames(from: 0, to: 0.1)
        #expect(w.images.decodeCount == 1 && w.images.residentCount == 1)
        #expect(w.memoryUse.images == 40_000)
    }

    /// Pictures preloaded together decode on several threads and end as preloaded one by one:
    /// each once (a source named twice too), sizes known, a failure kept with its message.
    @Test func picturesPreloadedTogetherEndAsPreloadedOneByOne() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "bad.png: not a PNG" } }
        let w = try makeWindow(Stack(.vertical))
        w.images.decoder = { source in
            if source == "bad.png" { throw Broken() }
            return Self.picture(source, side: source.count * 10)
        }
        let sources = ["a", "bb", "ccc", "bad.png", "a", "dddd", "eeeee"]
        w.images.preload(all: sources, threads: 3)
        #expect(w.images.decodeCount == 6)
        guard case let .success(size) = w.images.preload("ccc") else { Issue.record("ccc failed"); return }
        #expect(size == Size(width: 30, height: 30))
        guard case let .failure(error) = w.images.preload("bad.png") else { Issue.record("bad.png decoded"); return }
        #expect(error.message == "bad.png: not a PNG")
        #expect(w.images.decodeCount == 6, "nothing decoded again")
        guard case let .ready(pixels) = w.images.image(for: "eeeee") else { Issue.record("eeeee not ready"); return }
        #expect(pixels.width == 50 && pixels[0, 0] == Self.colour(of: "eeeee"))
        // Already known: nothing decoded.
        w.images.preload(all: ["a", "bad.png"], threads: 2)
        #expect(w.images.decodeCount == 6)
        // Past half its budget the store decodes one at a time, and stays within the budget.
        let small = try makeWindow(Stack(.vertical))
        small.images.decoder = { Self.picture($0) }
        small.images.budgetBytes = 100_000
        small.images.preload(all: (0..<10).map { "p\($0)" }, threads: 4)
        #expect(small.images.decodeCount == 10 && small.images.residentBytes <= 100_000)
        #expect((0..<10).allSatisfy { small.images.size(of: "p\($0)") == Size(width: 100, height: 100) })
    }

    @Test func aPictureThatFailsShowsItsPlaceholderAndSaysWhy() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "broken.png: not a PNG" } }
        let view = ImageView(source: "broken.png", width: 100, height: 100, placeholder: Color(rgb: 0x123456))
        let w = try makeWindow(Stack(.vertical, children: [view]))
        w.images.decoder = { _ in throw Broken() }
        let frame = w.frames(from: 0, to: 0.1)
        #expect(frame[50, 50] == PremultipliedColor(rgb: 0x123456).argb)
        guard case let .failed(message) = w.images.image(for: "broken.png") else { Issue.record("not failed"); return }
        #expect(message == "broken.png: not a PNG")
    }

    /// A picture shown as its placeholder is reported once on the window's log, naming it; one
    /// whose failure `preload` returned is its caller's to report.
    @Test func aPlaceholderForGoodIsLoggedOnce() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        struct Broken: Error, CustomStringConvertible { var description: String { "not a PNG" } }
        let view = ImageView(source: "photos/broken.png", width: 100, height: 100)
        let w = try makeWindow(Stack(.vertical, children: [view]))
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.images.decoder = { _ in throw Broken() }
        guard case .failure = w.images.preload("photos/other.png") else { Issue.record("preloaded"); return }
        #expect(lines.lines.isEmpty)
        w.frames(from: 0, to: 1)
        view.setNeedsDisplay()
        w.frames(from: 1, to: 2)
        #expect(lines.lines == ["picture 'photos/broken.png' cannot be shown (its placeholder is): not a PNG"])
    }

    /// On a board a frame never waits: the placeholder shows until the decode, on another
    /// thread, comes back through the loop's mailbox; then the view is redrawn with it.
    @Test func aBackgroundDecodeShowsThePlaceholderFirst() throws {
        let view = ImageView(source: "slow", width: 100, height: 100, placeholder: Color(rgb: 0x00FF00))
        let w = try makeWindow(Stack(.vertical, children: [view]))
        w.images.decodesInBackground = true
        let release = DispatchSemaphore(value: 0)
        w.images.decoder = { source in
            release.wait(); return Self.picture(source)
        }
        let frame = w.frames(from: 0, to: 0.05)
        #expect(frame[50, 50] == PremultipliedColor(rgb: 0x00FF00).argb)
        release.signal()
        var waited = 0
        while !(w.scheduler?.hasPostedWork ?? false) && waited < 500 { usleep(10_000); waited += 1 }
        #expect(w.scheduler?.runDue(upTo: 0.1) == true)  // what the frame loop does before a frame
        let after = w.frames(from: 0.1, to: 0.2)
        #expect(after[50, 50] == Self.colour(of: "slow"))
        #expect(w.images.decodeCount == 1)
    }

    /// A picture shown reduced is kept at the halving it is drawn from, not whole; a view that
    /// needs more detail (a zoom) gets it decoded again; the pixels are those of the whole
    /// picture drawn the same way.
    @Test func aPictureIsKeptAtTheSizeItIsDrawnAt() throws {
        let whole = PixelBuffer(width: 400, height: 300)
        for y in 0..<300 { for x in 0..<400 { whole.pixels[y * 400 + x] = 0xFF00_0000 | UInt32(x % 256) << 8 | UInt32(y % 256) } }
        let thumbnail = ImageView(source: "photo", width: 90, height: 90)
        let w = try makeWindow(Stack(.vertical, children: [thumbnail]), width: 200, height: 200)
        w.images.decoder = { _ in whole }
        let kept = w.frames(from: 0, to: 0.05)
        #expect(w.images.residentBytes == 200 * 150 * 4)  // drawn 120x90 (fill): one halving
        let direct = ImageView(whole, width: 90, height: 90)
        let reference = try makeWindow(Stack(.vertical, children: [direct]), width: 200, height: 200)
        let expected = reference.frames(from: 0, to: 0.05)
        let comparison = compare(kept, expected)
        #expect(comparison.mismatches == 0, "first of the differing pixels: \(comparison.first)")

        let decodes = w.images.decodeCount
        thumbnail.width = 190; thumbnail.height = 190
        _ = w.frames(from: 0.1, to: 0.15)
        #expect(w.images.decodeCount == decodes + 1)  // more detail: decoded again
        #expect(w.images.residentBytes == 400 * 300 * 4)  // drawn 253x190: the whole picture
    }

    /// A reducing decoder (ImageCodecs' `Image.read(path:halvings:)`) is asked, once the
    /// picture's size is known, for the halvings the view draws it from: the whole picture is
    /// never made. On a board the question is asked on the decoding thread.
    @Test(arguments: [false, true])
    func aReducingDecoderDecodesStraightToTheDrawnSize(inBackground: Bool) throws {
        let thumbnail = ImageView(source: "photo", width: 90, height: 90)
        let w = try makeWindow(Stack(.vertical, children: [thumbnail]), width: 200, height: 200)
        w.images.decodesInBackground = inBackground
        let asked = Halvings()
        w.images.reducingDecoder = { source, halvings in
            let n = halvings(400, 300)
            asked.list.withLockedValue { $0.append(n) }
            let whole = PixelBuffer(width: 400, height: 300, fill: PremultipliedColor(argb: Self.colour(of: source)))
            return ReducedPicture(pixels: whole.halved(times: n), width: 400, height: 300, halvings: n)
        }
        var frame = w.frames(from: 0, to: 0.05)
        if inBackground {
            var waited = 0
            while !(w.scheduler?.hasPostedWork ?? false) && waited < 500 { usleep(10_000); waited += 1 }
            #expect(w.scheduler?.runDue(upTo: 0.1) == true)
            frame = w.frames(from: 0.1, to: 0.15)
        }
        #expect(asked.list.withLockedValue { $0 } == [1])  // drawn 120x90 (fill) from 200x150
        #expect(w.images.residentBytes == 200 * 150 * 4)
        #expect(frame[50, 50] == Self.colour(of: "photo"))
    }

    /// The budget splits the same way whether it is the default or set later.
    @Test func theMemoryBudgetIsSplitBetweenPicturesAndHalvings() throws {
        let w = try makeWindow(Stack(.vertical, children: []))
        #expect(w.memoryBudget == 192 << 20 && w.images.budgetBytes == 160 << 20)
        w.memoryBudget = 16 << 20
        #expect(w.images.budgetBytes == 12 << 20 && w.memoryUse.budget == 16 << 20)
        w.memoryBudget = -5
        #expect(w.images.budgetBytes == 0 && w.memoryUse.budget == 0)
    }
}

/// The halvings a decoder was asked for, from whichever thread it ran on.
final class Halvings: Sendable { let list = NIOLockedValueBox<[Int]>([]) }

/// SVG pictures in an ImageView are rendered at the size they are drawn at: enlarged 4x they
/// are rendered again, and the edge between two colours stays one pixel sharp.
@Suite struct VectorPictureTests {
    @Test func anSVGIsRenderedAgainWhenDrawnLarger() throws {
        let path = "/tmp/glide-halves-\(getpid()).svg"
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">
            <rect width="20" height="20" fill="#ff0000"/><rect x="20" width="20" height="20" fill="#0000ff"/></svg>
            """
        try FileIO.writeAll(Array(svg.utf8), path: path)
        let view = ImageView(source: path, contentMode: .fit, width: 40, height: 20)
        let w = try makeWindow(Stack(.vertical, children: [view]), width: 200, height: 100)
        w.images.reducingDecoder = { try Image.read(path: $0, halvings: $1) }
        var frame = w.frames(from: 0, to: 0.05)
        #expect(frame[19, 10] == 0xFFFF_0000 && frame[20, 10] == 0xFF00_00FF)
        #expect(w.images.decodeCount == 1)
        // Drawn at 160 x 80 (a zoom, a larger frame): rendered again at that size, not enlarged.
        view.width = 160
        view.height = 80
        frame = w.frames(from: 0.05, to: 0.1)
        #expect(w.images.decodeCount == 2)
        #expect(frame[79, 40] == 0xFFFF_0000 && frame[80, 40] == 0xFF00_00FF)
        // Back to its size: the 4x rendering is kept, halved, not rendered a third time.
        view.width = 40
        view.height = 20
        frame = w.frames(from: 0.1, to: 0.15)
        #expect(w.images.decodeCount == 2 && frame[19, 10] == 0xFFFF_0000 && frame[20, 10] == 0xFF00_00FF)
    }
}
