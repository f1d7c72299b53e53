import Geometry
import Raster
import Runtime
import Scrolling
import TestSupport
import Testing
@testable import UI

/// Goldens of each style and state, taps, scrubbing, interaction, both-way sync.
@Suite struct PageControlTests {
    final class Log { var pages: [Int] = [] }

    /// A 320×100 pt pager (scale 2) with `count` full-width pages and a control at the bottom.
    func setup(
        count: Int = 5, style: PageControl.BackgroundStyle = .automatic, controlWidth: Double? = nil,
        log: Log? = nil
    ) throws -> (Window, ScrollView, PageControl) {
        let strip = Stack(.horizontal, id: "strip")
        for i in 0..<count {
            let shade = UInt32(0x30 + (i * 23) % 0x50)
            strip.add(Box(id: "page-\(i)", fill: Color(rgb: 0x203040 + shade)))
        }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let pager = ScrollView(id: "pager", axes: .horizontal, configuration: config, content: strip)
        pager.sizesPagesToViewport = true
        let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: style)
        if let controlWidth { control.width = controlWidth }
        if let log { control.onPageChange = { log.pages.append($0) } }
        let root = Overlay(
            id: "box", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 8, trailing: 0),
            children: [pager, control])
        let w = try makeWindow(root, width: 640, height: 200, scale: 2)
        w.frames(from: 0, to: 0)
        return (w, pager, control)
    }

    /// Window pixels of the centre of dot `page`'s position on the control.
    func dotPixel(_ control: PageControl, page: Int, _ w: Window) -> Point {
        let dot = control.dots().first { $0.page == page }!
        let f = control.frameInWindow
        return Point(x: (f.minX + dot.x) * w.scaleFactor, y: f.midY * w.scaleFactor)
    }

    func snapshot(_ w: Window, at t: Double) -> PixelBuffer {
        w.frames(from: t, to: t)
        return w.fullRedraw(at: t)
    }

    // MARK: Goldens

    @Test func goldensOfEachBackgroundStyle() throws {
        for style in [PageControl.BackgroundStyle.automatic, .prominent, .minimal] {
            let (w, pager, control) = try setup(style: style)
            #expect(control.frameInWindow == Rect(x: 0, y: 64, width: 320, height: 28))  // centred near the bottom
            pager.setPage(2, animated: false)
            assertGolden(snapshot(w, at: 0.1), suite: "UI", name: "pgc-\(style.rawValue)")
        }
        // Automatic shows its background while a finger is on it.
        let (w, _, control) = try setup(style: .automatic)
        let p = dotPixel(control, page: 0, w)
        w.touch(.down, p.x, p.y, at: 0.1)
        assertGolden(snapshot(w, at: 0.12), suite: "UI", name: "pgc-automatic-touched")
        w.touch(.up, p.x, p.y, at: 0.15)
    }

    @Test func manyPagesShrinkTheEndDotsAndFollowTheCurrentPage() throws {
        let (w, pager, control) = try setup(count: 36, style: .prominent, controlWidth: 200)
        #expect(control.maximumVisibleDots == 11)
        func scales() -> [Double] { control.dots().map(\.scale) }
        func pages() -> [Int] { control.dots().map(\.page) }
        #expect(pages() == Array(0..<11))
        #expect(scales() == [1, 1, 1, 1, 1, 1, 1, 1, 1, 0.75, 0.5])
        assertGolden(snapshot(w, at: 0.1), suite: "UI", name: "pgc-many-start")
        pager.setPage(17, animated: false)
        w.frames(from: 0.2, to: 0.2)
        #expect(pages() == Array(12..<23))
        #expect(scales() == [0.5, 0.75, 1, 1, 1, 1, 1, 1, 1, 0.75, 0.5])
        assertGolden(snapshot(w, at: 0.2), suite: "UI", name: "pgc-many-middle")
        pager.setPage(35, animated: false)
        w.frames(from: 0.3, to: 0.3)
        #expect(pages() == Array(25..<36))
        #expect(scales() == [0.5, 0.75, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        assertGolden(snapshot(w, at: 0.3), suite: "UI", name: "pgc-many-end")
        // Any number works.
        let (w2, pager2, control2) = try setup(count: 1000, style: .minimal, controlWidth: 200)
        pager2.setPage(999, animated: false)
        w2.frames(from: 0.1, to: 0.1)
        #expect(control2.currentPage == 999 && control2.dots().last?.page == 999)
    }

    static func glyph(_ size: Int, _ inside: (Int, Int) -> Bool) -> AlphaMask {
        var m = AlphaMask(width: size, height: size)
        for y in 0..<size { for x in 0..<size where inside(x, y) { m.coverage[y * size + x] = 255 } }
        return m
    }

    @Test func customImagesAreTintedMasks() throws {
        let (w, pager, control) = try setup(count: 6, style: .prominent)
        // A small square for every page and a triangle for the first ("you are here").
        control.indicatorImage = Self.glyph(10) { x, y in x >= 2 && x < 8 && y >= 2 && y < 8 }
        control.pageImages[0] = Self.glyph(14) { x, y in y >= 2 && y < 12 && abs(x - 7) <= (y - 2) / 2 }
        pager.setPage(3, animated: false)
        control.currentPageTint = Color(rgb: 0xFFD166)
        assertGolden(snapshot(w, at: 0.1), suite: "UI", name: "pgc-images")
    }

    // MARK: Taps, interaction

    @Test func tapsOnEitherSideOfTheCurrentDotPageWithAnimation() throws {
        let log = Log()
        let (w, pager, control) = try setup(log: log)
        let current = dotPixel(control, page: 0, w)
        w.tap(current.x + 30, current.y, at: 0.1)
        #expect(control.interaction == .discrete)
        w.frames(from: 0.1, to: 0.2)
        #expect(pager.sampledOffset.x > 0 && pager.sampledOffset.x < 320)  // animated
        #expect(w.state(at: 0.2, frameNumber: 0).pageControls.first?.interaction == "discrete")
        w.frames(from: 0.2, to: 2)
        #expect(pager.sampledOffset.x == 320)
        #expect(control.currentPage == 1 && pager.currentPage == 1)
        #expect(control.interaction == .none)
        // Trailing side again (far right of the control): next page.
        w.tap(620, current.y, at: 2.1)
        w.frames(from: 2.1, to: 4)
        #expect(control.currentPage == 2)
        // Leading side: previous page.
        w.tap(20, current.y, at: 4.1)
        w.frames(from: 4.1, to: 6)
        #expect(control.currentPage == 1)
        #expect(log.pages == [1, 2, 1])
        // On the first page a leading tap does nothing.
        pager.setPage(0, animated: false)
        w.frames(from: 6.1, to: 6.1)
        w.tap(20, current.y, at: 6.2)
        w.frames(from: 6.2, to: 7)
        #expect(control.currentPage == 0)
        #expect(control.interaction == .none)
    }

    // MARK: Scrubbing

    @Test func scrubbingStepsThroughPagesInstantlyAndPastTheEnds() throws {
        let log = Log()
        let (w, pager, control) = try setup(count: 8, log: log)
        let start = dotPixel(control, page: 0, w)
        w.touch(.down, start.x, start.y, at: 0.1)
        var t = 0.1
        var offsets: [Double] = []
        for i in 1...20 {
            t += 0.016
            w.touch(.move, start.x + Double(i) * 8, start.y, at: t)
            #expect(control.interaction == .continuous || i <= 2)  // 8 px = 4 pt per step; the slop is 8 pt
            w.frames(from: t, to: t)
            offsets.append(pager.sampledOffset.x)
        }
        // Every offset is a whole page (no animation), and pages come one after another.
        #expect(offsets.allSatisfy { $0.truncatingRemainder(dividingBy: 320) == 0 })
        #expect(log.pages == Array(1...log.pages.count))
        #expect(log.pages.last == 5)  // 160 px = 80 pt = 5 dots of 16 pt
        #expect(w.state(at: t, frameNumber: 0).pageControls.first?.interaction == "continuous")
        assertGolden(w.fullRedraw(at: t), suite: "UI", name: "pgc-scrubbing")
        // Past the trailing end: the last page.
        t += 0.016
        w.touch(.move, 639, start.y, at: t)
        w.frames(from: t, to: t)
        #expect(control.currentPage == 7 && pager.sampledOffset.x == 7 * 320)
        // Past the leading end: the first.
        t += 0.016
        w.touch(.move, -40, start.y, at: t)
        w.frames(from: t, to: t)
        #expect(control.currentPage == 0 && pager.sampledOffset.x == 0)
        w.touch(.up, -40, start.y, at: t + 0.01)
        #expect(control.interaction == .none)
        w.frames(from: t, to: t + 1)
        #expect(pager.sampledOffset.x == 0)
        #expect(w.isAtRest(at: t + 1))
    }

    @Test func minimalTurnsScrubbingOff() throws {
        let (w, pager, control) = try setup(count: 8, style: .minimal)
        let start = dotPixel(control, page: 0, w)
        w.drag(from: start, to: Point(x: start.x + 150, y: start.y), at: 0.1, duration: 0.3, lift: false)
        w.frames(from: 0.1, to: 0.4)
        #expect(control.currentPage == 0 && control.interaction == .none)
        #expect(pager.sampledOffset.x == 0)
        w.touch(.up, start.x + 150, start.y, at: 0.45)
        // A drag is not a tap on a dot either.
        w.frames(from: 0.45, to: 1.5)
        #expect(control.currentPage == 0 && pager.sampledOffset.x == 0)
    }

    /// A pager with its control as a card inside a vertical list (the catalog's feed).
    @Test func aVerticalDragStartingOnTheControlScrollsTheListAndIsNoTap() throws {
        let log = Log()
        let strip = Stack(.horizontal, id: "strip")
        for i in 0..<5 { strip.add(Box(id: "page-\(i)", fill: Color(rgb: 0x203040 + UInt32(i * 0x10)))) }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let pager = ScrollView(id: "pager", axes: .horizontal, configuration: config, content: strip)
        pager.sizesPagesToViewport = true
        let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: .automatic)
        control.onPageChange = { log.pages.append($0) }
        let card = Overlay(
            id: "card", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 8, trailing: 0),
            children: [pager, control])
        card.height = 100
        let column = Stack(.vertical, id: "column")
        column.add(card)
        for i in 0..<10 { column.add(row(i, height: 100)) }
        let feed = ScrollView(id: "feed", axes: .vertical, content: column)
        let w = try makeWindow(feed, width: 640, height: 400, scale: 2)
        w.frames(from: 0, to: 0.1)
        let dot = dotPixel(control, page: 0, w)

        let end = w.drag(from: dot, to: Point(x: dot.x + 4, y: dot.y - 150), at: 0.2, duration: 0.3)
        w.frames(from: 0.2, to: end + 2)
        #expect(feed.sampledOffset.y > 50, "the list moved \(feed.sampledOffset.y)")
        #expect(control.currentPage == 0 && pager.sampledOffset.x == 0 && log.pages.isEmpty)
        #expect(control.interaction == .none)

        // A tap on the trailing side of the dot still pages, and the list stays put.
        feed.scroll(to: Point(x: 0, y: 0), animated: false)
        w.frames(from: end + 2.1, to: end + 2.1)
        let y = feed.sampledOffset.y
        w.tap(dot.x + 30, dot.y, at: end + 2.2)
        w.frames(from: end + 2.2, to: end + 4)
        #expect(control.currentPage == 1 && log.pages == [1])
        #expect(feed.sampledOffset.y == y)
    }

    // MARK: Both ways

    @Test func aSwipeOfTheScrollViewMovesTheDot() throws {
        let (w, pager, control) = try setup()
        w.drag(from: Point(x: 500, y: 60), to: Point(x: 200, y: 60), at: 0.1, duration: 0.1)
        w.frames(from: 0.1, to: 2)
        #expect(pager.currentPage == 1 && control.currentPage == 1)
        let state = w.state(at: 2, frameNumber: 0)
        #expect(state.pageControls.first?.currentPage == 1)
        #expect(state.scrollViews.first?.page == 1 && state.scrollViews.first?.pageCount == 5)
        #expect(state.pageControls.first?.pageCount == 5)
        // The highlighted dot is drawn at page 1's place.
        let image = w.fullRedraw(at: 2)
        let dot1 = dotPixel(control, page: 1, w), dot0 = dotPixel(control, page: 0, w)
        #expect(image[Int(dot1.x), Int(dot1.y)] == 0xFFFF_FFFF)
        #expect(image[Int(dot0.x), Int(dot0.y)] != 0xFFFF_FFFF)
    }
}
