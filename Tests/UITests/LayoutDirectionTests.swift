import Geometry
import Raster
import Scrolling
import TestSupport
import Testing
import Text
@testable import UI

/// Right-to-left layouts mirror their left-to-right twins: rows, padding, alignment, carousels,
/// page controls, indicators and navigation; offsets and pages the app reads mean the same.
@Suite struct LayoutDirectionTests {
    /// A screen of boxes (no text, whose glyphs do not mirror): a padded row of three, a
    /// column with leading and trailing children, and a paging carousel with its page control.
    static func screen() -> (View, ScrollView) {
        let pager = pagingScrollView(4)
        let dots = PageControl(id: "dots", scrollView: pager, backgroundStyle: .prominent)
        let row = Stack(
            .horizontal, id: "row", spacing: 10, padding: EdgeInsets(top: 4, leading: 30, bottom: 4, trailing: 6),
            children: [
                Box(id: "a", fill: Color(rgb: 0xE63946), width: 60),
                Box(id: "b", fill: Color(rgb: 0x2A9D8F), width: 100),
                Box(id: "c", fill: Color(rgb: 0x457B9D)),
            ])
        row.height = 48
        let column = Stack(
            .vertical, id: "column", spacing: 4, padding: EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 0),
            alignment: .leading,
            children: [
                Box(id: "lead", fill: Color(rgb: 0xE9C46A), width: 120, height: 20),
                Box(id: "trail", fill: Color(rgb: 0xF4A261), width: 80, height: 20),
            ])
        let root = Stack(.vertical, children: [row, column, pager, dots])
        return (root, pager)
    }

    static func window(_ direction: LayoutDirection, width: Int = 400, height: Int = 480) throws -> (Window, ScrollView) {
        let (root, pager) = screen()
        let w = try makeWindow(root, width: width, height: height)
        w.layoutDirection = direction
        w.layoutIfNeeded()
        return (w, pager)
    }

    static func mirrored(_ r: Rect, in width: Double) -> Rect {
        Rect(x: width - r.maxX, y: r.minY, width: r.width, height: r.height)
    }

    @Test func framesMirrorTheirLeftToRightTwin() throws {
        let (ltr, _) = try Self.window(.leftToRight)
        let (rtl, _) = try Self.window(.rightToLeft)
        for id in ["row", "a", "b", "c", "column", "lead", "trail", "dots"] {
            let l = try #require(ltr.root.view(withID: id)).frameInWindow
            let r = try #require(rtl.root.view(withID: id)).frameInWindow
            #expect(r == Self.mirrored(l, in: 400), "\(id): \(r) is not \(l) mirrored")
        }
        // The row runs from the right: its first child is the rightmost, after the leading padding.
        #expect(try #require(rtl.root.view(withID: "a")).frameInWindow.maxX == 400 - 30)
    }

    /// The screen drawn right to left is the left-to-right one flipped, pixel for pixel.
    @Test func pixelsMirrorTheirLeftToRightTwin() throws {
        let (ltr, _) = try Self.window(.leftToRight)
        let (rtl, _) = try Self.window(.rightToLeft)
        let a = ltr.frames(from: 0, to: 0.1), b = rtl.frames(from: 0, to: 0.1)
        var differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[a.width - 1 - x, y] { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test func aCarouselStartsAtTheRightAndAFingerMovingRightTurnsThePage() throws {
        let (w, pager) = try Self.window(.rightToLeft)
        _ = w.frames(from: 0, to: 0.1)
        #expect(pager.currentPage == 0)
        #expect(w.state(at: 0.1, frameNumber: 0).scrollViews.first { $0.id == "pager" }?.offset == [0, 0])
        // Page 0 fills the viewport; page 1 waits to its left.
        let page0 = try #require(w.root.view(withID: "page-0")).frameInWindow
        let page1 = try #require(w.root.view(withID: "page-1")).frameInWindow
        #expect(page0.minX == 0 && page1.maxX == 0)
        w.drag(from: Point(x: 100, y: 200), to: Point(x: 300, y: 200), at: 0.2)
        _ = w.frames(from: 0.3, to: 2)
        #expect(pager.currentPage == 1)
        #expect(try #require(w.root.view(withID: "page-1")).frameInWindow.minX == 0)
        let state = w.state(at: 2, frameNumber: 0)
        #expect(state.scrollViews.first { $0.id == "pager" }?.offset == [400, 0])
        #expect(state.scrollViews.first { $0.id == "pager" }?.page == 1)
        #expect(state.pageControls.first?.currentPage == 1)
    }

    /// A swipe and a flick right to left end where their mirrored left-to-right twins end, at
    /// every frame, while a label elsewhere changes every frame.
    @Test func motionMirrorsExactlyWithATickingLabel() throws {
        func run(_ direction: LayoutDirection) throws -> [[Double]] {
            let (root, pager) = Self.screen()
            let clock = Label("0", id: "clock", size: 14)
            root.add(clock)
            let w = try makeWindow(root, width: 400, height: 480)
            w.layoutDirection = direction
            w.layoutIfNeeded()
            _ = w.frames(from: 0, to: 0.1)
            let flip = direction == .rightToLeft
            func x(_ v: Double) -> Double { flip ? 400 - v : v }
            w.drag(from: Point(x: x(300), y: 200), to: Point(x: x(180), y: 200), at: 0.2, duration: 0.06)
            var offsets: [[Double]] = []
            var t = 0.3
            while t < 1.5 {
                clock.text = "\(Int(t * 1000))"
                _ = w.frames(from: t, to: t)
                offsets.append(w.state(at: t, frameNumber: 0).scrollViews.first { $0.id == "pager" }!.offset)
                t += 1.0 / 60
            }
            #expect(pager.currentPage == 1)
            return offsets
        }
        let ltr = try run(.leftToRight), rtl = try run(.rightToLeft)
        #expect(ltr == rtl)
        #expect(ltr.last == [400, 0])
    }

    /// A carousel whose pages are narrower than its viewport (the next photo peeks in): right
    /// to left its first page sits at the right end, and each swipe and flick lands where the
    /// mirrored left-to-right one lands.
    @Test func aPeekingCarouselCountsItsPagesFromTheRight() throws {
        func run(_ direction: LayoutDirection) throws -> (pages: [Int], offsets: [[Double]]) {
            let strip = Stack(.horizontal, id: "strip", spacing: 14)
            for i in 0..<6 { strip.add(Box(id: "photo-\(i)", fill: Color(rgb: 0x2A9D8F), width: 300)) }
            var config = ScrollConfiguration()
            config.isPagingEnabled = true
            config.pageSize = 314
            let carousel = ScrollView(id: "carousel", axes: .horizontal, configuration: config, content: strip)
            carousel.height = 200
            let w = try makeWindow(Stack(.vertical, children: [carousel]), width: 500, height: 300)
            w.layoutDirection = direction
            w.layoutIfNeeded()
            _ = w.frames(from: 0, to: 0.1)
            func x(_ v: Double) -> Double { direction == .rightToLeft ? 500 - v : v }
            #expect(try #require(w.root.view(withID: "photo-0")).frameInWindow.minX == x(0) - (direction == .rightToLeft ? 300 : 0))
            var pages: [Int] = [], offsets: [[Double]] = []
            var t = 0.2
            for (from, to, ms) in [(400.0, 200.0, 0.2), (400, 100, 0.05), (400, 380, 0.3), (100, 450, 0.05)] {
                w.drag(from: Point(x: x(from), y: 100), to: Point(x: x(to), y: 100), at: t, duration: ms)
                _ = w.frames(from: t + ms + 0.01, to: t + 1.5)
                pages.append(carousel.currentPage)
                offsets.append(w.state(at: t + 1.5, frameNumber: 0).scrollViews[0].offset)
                t += 1.6
            }
            return (pages, offsets)
        }
        let ltr = try run(.leftToRight), rtl = try run(.rightToLeft)
        #expect(ltr.pages == [1, 2, 2, 1])
        #expect(rtl.pages == ltr.pages)
        #expect(rtl.offsets == ltr.offsets)
    }

    /// Lazy rows right to left: a 36-page lazy carousel and a lazy row of items of varied widths
    /// (measured as they come, so the content's width changes while it moves) show the mirror
    /// image of their left-to-right twins after the same (mirrored) swipes and flicks.
    @Test(arguments: [true, false])
    func lazyRowsMirrorTheirTwins(paging: Bool) throws {
        func run(_ direction: LayoutDirection) throws -> (offsets: [[Double]], frames: [String: Rect]) {
            let row = LazyHStack(id: "strip", count: paging ? 36 : 500, spacing: paging ? 0 : 6) { i in
                Box(id: "item-\(i)", fill: Color(rgb: 0x457B9D), width: paging ? nil : Double(60 + (i * 37) % 90))
            }
            var config = ScrollConfiguration()
            config.isPagingEnabled = paging
            let scroll = ScrollView(id: "row", axes: .horizontal, configuration: config, content: row)
            scroll.sizesPagesToViewport = paging
            scroll.height = 200
            let w = try makeWindow(Stack(.vertical, children: [scroll]), width: 400, height: 300)
            w.layoutDirection = direction
            w.layoutIfNeeded()
            _ = w.frames(from: 0, to: 0.1)
            func x(_ v: Double) -> Double { direction == .rightToLeft ? 400 - v : v }
            var offsets: [[Double]] = []
            var t = 0.2
            for (from, to, ms) in [(350.0, 100.0, 0.05), (300, 200, 0.3), (350, 50, 0.04), (100, 300, 0.06)] {
                w.drag(from: Point(x: x(from), y: 100), to: Point(x: x(to), y: 100), at: t, duration: ms)
                _ = w.frames(from: t + ms + 0.01, to: t + 3)
                offsets.append(w.state(at: t + 3, frameNumber: 0).scrollViews[0].offset)
                t += 3.1
            }
            var frames: [String: Rect] = [:]
            for c in row.children { if let id = c.id { frames[id] = c.frameInWindow } }
            return (offsets, frames)
        }
        let ltr = try run(.leftToRight), rtl = try run(.rightToLeft)
        #expect(rtl.offsets == ltr.offsets)
        #expect(ltr.offsets.last != [0, 0])
        #expect(Set(rtl.frames.keys) == Set(ltr.frames.keys))
        // Mirrored positions come from the content's width, which is summed differently: equal
        // to a billionth of a point (the screen rounds them to the same pixel).
        for (id, l) in ltr.frames {
            let m = Self.mirrored(l, in: 400), r = try #require(rtl.frames[id])
            #expect(approx(r.minX, m.minX) && r.width == m.width && r.minY == m.minY, "\(id): \(r) is not \(m)")
        }
    }

    @Test func pageControlDotsRunFromTheRightAndTapsFollowThem() throws {
        let (w, pager) = try Self.window(.rightToLeft)
        _ = w.frames(from: 0, to: 0.1)
        let dots = try #require(w.root.view(withID: "dots") as? PageControl)
        let xs = dots.dots().map(\.x)
        #expect(xs == xs.sorted(by: >))
        // A tap left of the current dot goes forward.
        let f = dots.frameInWindow, current = xs[0]
        w.tap(f.minX + current - 12, f.midY, at: 0.2)
        _ = w.frames(from: 0.3, to: 1.5)
        #expect(pager.currentPage == 1)
    }

    @Test func aVerticalIndicatorSitsOnTheLeft() throws {
        let l = list(30)
        l.indicators = .always(small: false)
        let w = try makeWindow(l, width: 300, height: 300)
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        _ = w.frames(from: 0, to: 0.1)
        let thumb = try #require(l.indicatorGeometry(at: 0.1).first?.thumb)
        #expect(thumb.minX < 20)
        // Rows still fill the width.
        #expect(try #require(w.root.view(withID: "row-0")).frameInWindow == Rect(x: 0, y: 0, width: 300, height: 50))
    }

    @Test func leadingTextAlignsRightInARightToLeftLayout() throws {
        let label = Label("Gate 12", id: "gate", size: 16)
        let w = try makeWindow(Stack(.vertical, children: [label]), width: 300, height: 100)
        func inkColumns() -> ClosedRange<Int> {
            let b = w.fullRedraw(at: w.currentTime)
            var xs: [Int] = []
            for y in 0..<30 { for x in 0..<300 where b[x, y] != b[0, 99] { xs.append(x) } }
            return xs.min()!...xs.max()!
        }
        let left = inkColumns()
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        let right = inkColumns()
        #expect(left.lowerBound < 10)
        #expect(right.upperBound > 290)
        #expect(right.count == left.count)
    }

    @Test func changingTheDirectionKeepsThePage() throws {
        let (w, pager) = try Self.window(.leftToRight)
        _ = w.frames(from: 0, to: 0.1)
        pager.setPage(2, animated: false)
        _ = w.frames(from: 0.2, to: 0.3)
        #expect(pager.currentPage == 2)
        w.layoutDirection = .rightToLeft
        _ = w.frames(from: 0.4, to: 0.5)
        #expect(pager.currentPage == 2)
        #expect(try #require(w.root.view(withID: "page-2")).frameInWindow.minX == 0)
        #expect(w.state(at: 0.5, frameNumber: 0).scrollViews.first { $0.id == "pager" }?.offset == [800, 0])
    }

    @Test func aSubtreeMayRunTheOtherWay() throws {
        let (root, _) = Self.screen()
        let w = try makeWindow(root, width: 400, height: 480)
        let row = try #require(root.view(withID: "row"))
        row.layoutDirection(.rightToLeft)
        w.layoutIfNeeded()
        #expect(try #require(root.view(withID: "a")).frameInWindow.maxX == 370)
        #expect(try #require(root.view(withID: "lead")).frameInWindow.minX == 20)
    }

    /// A subtree's direction reaches what its views see when they draw, as it reaches layout:
    /// in a stack and inside a scroll view's content.
    @Test func drawingSeesASubtreesDirection() throws {
        final class Probe: Box {
            var seen: [LayoutDirection] = []
            override func draw(in context: inout DrawContext) { seen.append(context.environment.layoutDirection) }
        }
        let inStack = Probe(width: 50, height: 50), inScroll = Probe(width: 50, height: 50)
        let scroll = ScrollView(id: "s", content: Stack(.vertical, children: [inScroll])).layoutDirection(.rightToLeft)
        scroll.content.layoutDirection(.leftToRight)
        let root = Stack(.vertical, children: [Stack(.vertical, children: [inStack]).layoutDirection(.rightToLeft), scroll])
        let w = try makeWindow(root, width: 200, height: 200)
        _ = w.frames(from: 0, to: 0.1)
        #expect(inStack.seen.last == .rightToLeft && inStack.isRightToLeft)
        #expect(inScroll.seen.last == .leftToRight && !inScroll.isRightToLeft)
    }

    @Test func navigationSlidesInFromTheLeftAndTheSwipeBackStartsAtTheRightEdge() throws {
        let nav = NavigationStack(root: Box(id: "home", fill: Color(rgb: 0xFFFFFF)), title: "Home")
        let w = try makeWindow(nav, width: 400, height: 400)
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        _ = w.frames(from: 0, to: 0.1)
        nav.push(Box(id: "detail", fill: Color(rgb: 0xDDDDDD)), title: "Detail")
        _ = w.frames(from: 0.1, to: 0.15)
        let sliding = try #require(w.root.view(withID: "detail")).frame
        #expect(sliding.minX < 0 && sliding.minX > -400)
        _ = w.frames(from: 0.15, to: 1.5)
        #expect(nav.screens.count == 2)
        // The chevron's room is on the right, where the back button starts, and it points right.
        #expect(nav.bar.back.padding.trailing > 0 && nav.bar.back.padding.leading == 0)
        assertGolden(w.fullRedraw(at: 1.55), suite: "Navigation", name: "back-chevron-rtl", maxChannelDelta: 2)
        #expect(nav.bar.back.frameInWindow.maxX == 400)
        // From the left edge nothing happens; from the right edge, leftwards, the screen goes back.
        w.drag(from: Point(x: 5, y: 200), to: Point(x: 250, y: 200), at: 1.6, duration: 0.2)
        _ = w.frames(from: 1.9, to: 2.5)
        #expect(nav.screens.count == 2)
        w.drag(from: Point(x: 396, y: 200), to: Point(x: 100, y: 200), at: 2.6, duration: 0.2)
        _ = w.frames(from: 2.9, to: 4)
        #expect(nav.screens.count == 1)
    }

    @Test(arguments: [
        ("ar", LayoutDirection.rightToLeft), ("he-IL", .rightToLeft), ("fa", .rightToLeft), ("ur_PK", .rightToLeft),
        ("en", .leftToRight), ("ja", .leftToRight), ("", .leftToRight), ("arn", .leftToRight),
    ])
    func aLanguageGivesItsDirection(language: String, direction: LayoutDirection) {
        #expect(LayoutDirection(language: language) == direction)
    }
}
