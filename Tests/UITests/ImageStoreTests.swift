import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Runtime
import Testing
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
    static func pictureList(count: Int) -> (ScrollView, LazyStack) {
        let stack = LazyVStack(id: "rows", count: count) { i in
            ImageView(source: "row-\(i)", id: "row-\(i)", width: 100, height: 100)
        }
        return (ScrollView(id: "list", content: stack), stack)
    }

    @Test func aMillionPictureRowsStayWithinTheBudget() throws {
        let (scroll, _) = Self.pictureList(count: 1_000_000)
        let w = try makeWindow(scroll, width: 200, height: 400)
        // 40 kB a picture (100x100): room for 30 beyond the screen's 4 or 5.
        w.memoryBudget = 1_600_000
        w.images.decoder = { Self.picture($0) }
        var t = w.frames(from: 0, to: 0.1).width > 0 ? 0.2 : 0
        var peak = 0
        for _ in 0..<40 {
            t = w.drag(from: Point(x: 100, y: 380), to: Point(x: 100, y: 20), at: t, duration: 0.03) + 0.02
            _ = w.frames(from: t, to: t + 0.3)
            t += 0.3
            peak = max(peak, w.images.residentBytes)
        }
        let offset = scroll.controller.state(at: t).offset.y
        #expect(offset > 20_000)                        // flung through hundreds of rows
        #expect(w.images.decodeCount > 200)
        #expect(peak <= w.images.budgetBytes + 6 * 40_000, "peak \(peak)")
        // The rows on screen show their own pictures.
        let frame = w.frames(from: t, to: t + 5)
        let top = Int((scroll.controller.state(at: t + 5).offset.y / 100).rounded(.down))
        let shown = frame[50, 100 * (top + 1) - Int(scroll.controller.state(at: t + 5).offset.y) + 50]
        #expect(shown == Self.colour(of: "row-\(top + 1)"))
    }

    @Test func aPictureThatScrollsBackIsDecodedAgain() throws {
        let (scroll, _) = Self.pictureList(count: 100)
        let w = try makeWindow(scroll, width: 200, height: 400)
        w.memoryBudget = 200_000          // pictures get 150 kB: 3 beyond the screen
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
        let stack = Stack(.vertical, children: [ImageView(source: "same", width: 100, height: 100),
                                                ImageView(source: "same", width: 100, height: 100)])
        let w = try makeWindow(stack)
        w.images.decoder = { Self.picture($0) }
        _ = w.frames(from: 0, to: 0.1)
        #expect(w.images.decodeCount == 1 && w.images.residentCount == 1)
        #expect(w.memoryUse.images == 40_000)
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

    /// On a board a frame never waits: the placeholder shows until the decode, on another
    /// thread, comes back through the loop's mailbox; then the view is redrawn with it.
    @Test func aBackgroundDecodeShowsThePlaceholderFirst() throws {
        let view = ImageView(source: "slow", width: 100, height: 100, placeholder: Color(rgb: 0x00FF00))
        let w = try makeWindow(Stack(.vertical, children: [view]))
        w.images.decodesInBackground = true
        let release = DispatchSemaphore(value: 0)
        w.images.decoder = { source in release.wait(); return Self.picture(source) }
        let frame = w.frames(from: 0, to: 0.05)
        #expect(frame[50, 50] == PremultipliedColor(rgb: 0x00FF00).argb)
        release.signal()
        var waited = 0
        while !(w.scheduler?.hasPostedWork ?? false) && waited < 500 { usleep(10_000); waited += 1 }
        #expect(w.scheduler?.runDue(upTo: 0.1) == true)   // what the frame loop does before a frame
        let after = w.frames(from: 0.1, to: 0.2)
        #expect(after[50, 50] == Self.colour(of: "slow"))
        #expect(w.images.decodeCount == 1)
    }
}
