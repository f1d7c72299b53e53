import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Lazy lists: only what shows is built, rows are placed next to each other as they are
/// measured, and nothing on screen moves when estimates turn into measurements.
@Suite struct LazyStackTests {
    /// A height that varies from row to row (30 to 119 points).
    static func varied(_ i: Int) -> Double { 30 + Double((i * 37) % 90) }

    static func lazyList(
        count: Int, spacing: Double = 1, height: @escaping (Int) -> Double = { _ in 56 },
        focusable: Bool = false
    ) -> (ScrollView, LazyStack) {
        let stack = LazyVStack(id: "rows", count: count, spacing: spacing) { i in
            let r = row(i, height: height(i))
            r.isFocusable = focusable
            r.onTap = {}
            return r
        }
        return (ScrollView(id: "list", content: stack), stack)
    }

    /// The built row with `id`'s top in window points, or nil if it is not built.
    static func top(_ w: Window, _ id: String) -> Double? { w.root.view(withID: id)?.frameInWindow.minY }

    @Test func rowsAreBuiltAndReleasedAsTheListScrolls() throws {
        let (scroll, stack) = Self.lazyList(count: 1_000_000)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        // 400 pt of viewport and 100 pt of margin below: rows 0...8 (57 pt each with spacing).
        #expect(stack.children.count == 9)
        #expect(stack.rowsBuilt == 9)
        #expect(stack.rowsReleased == 0)
        #expect(stack.frame.height == 1_000_000 * 57 - 1)
        #expect(scroll.controller.contentSize.height == 1_000_000 * 57 - 1)
        var t = 0.5
        for _ in 0..<4 { t = w.drag(from: Point(x: 200, y: 380), to: Point(x: 200, y: 60), at: t, duration: 0.05) + 0.1 }
        w.frames(from: t, to: t + 6)
        let offset = scroll.sampledOffset.y
        #expect(offset > 4000)
        // Built: what shows and 100 pt either side; the rows passed on the way were released.
        let first = Int(((offset - 100) / 57).rounded(.down)), last = Int(((offset + 500) / 57).rounded(.down))
        #expect(stack.firstBuiltIndex == max(0, first))
        #expect(stack.children.count == last - first + 1)
        #expect(stack.rowsBuilt - stack.rowsReleased == stack.children.count)
        #expect(stack.rowsReleased > 60)
        #expect(scroll.reportedID == "row-\(Int((offset / 57).rounded(.down)))")
        let state = w.state(at: t + 6, frameNumber: 0)
        // The state lists rows that show, not the margin's.
        #expect(state.elements.count == Int(((offset + 400) / 57).rounded(.up)) - Int((offset / 57).rounded(.down)))
    }

    @Test func estimatesTurningIntoMeasurementsDoNotMoveTheRowUnderTheFinger() throws {
        let (scroll, stack) = Self.lazyList(count: 100_000, height: Self.varied)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.touchResampling = nil  // frames show the newest sample: the row moves as the finger did
        w.frames(from: 0, to: 0.1)
        scroll.scrollTo(index: 50_000, anchor: UnitPoint(x: 0, y: 0), animated: false)
        w.frames(from: 0.1, to: 0.2)
        #expect(approx(Self.top(w, "row-50000") ?? .nan, 0, 1e-9))
        let built = stack.rowsBuilt
        // Drag down slowly: rows above are built, each with a height the estimate did not know.
        var y = 20.0, t = 1.0
        w.touch(.down, 200, y, at: t)
        for _ in 0..<10 { y += 4; t += 0.016; w.touch(.move, 200, y, at: t) }  // past the slop
        w.frames(from: t, to: t)
        var previous = Self.top(w, "row-50000")!
        for _ in 0..<60 {
            y += 5; t += 0.016
            w.touch(.move, 200, y, at: t)
            w.frames(from: t, to: t)
            let now = Self.top(w, "row-50000")!
            #expect(approx(now - previous, 5, 1e-6), "the row moved \(now - previous) for a 5 pt move of the finger")
            previous = now
        }
        #expect(stack.rowsBuilt > built + 4)
        // Lift without speed; at rest the estimate may change the length below, never the rows.
        w.touch(.up, 200, y, at: t + 0.2)
        w.frames(from: t + 0.2, to: t + 4)
        #expect(approx(Self.top(w, "row-50000")!, previous, 1e-6))
    }

    @Test func insertsAndRemovesAboveKeepTheRowBeingRead() throws {
        let ids = (0..<1000).map { "item-\($0)" }
        let stack = LazyVStack(id: "rows", ids: ids, spacing: 2) { id in
            Box(id: id, fill: Color(rgb: 0x8ECAE6), height: 40 + Double(id.count * 3))
        }
        let scroll = ScrollView(id: "list", content: stack)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(scroll.scrollTo(id: "item-500", anchor: UnitPoint(x: 0, y: 0), animated: false))
        w.frames(from: 0.1, to: 0.2)
        // A partly visible row at the top: the one being read.
        scroll.scroll(to: Point(x: 0, y: scroll.sampledOffset.y + 17), animated: false)
        w.frames(from: 0.2, to: 0.3)
        let before = Self.top(w, "item-500")!
        #expect(approx(before, -17, 1e-9))
        stack.insert(ids: (0..<25).map { "new-\($0)" }, at: 0)
        w.frames(from: 0.3, to: 0.4)
        #expect(approx(Self.top(w, "item-500")!, before, 1e-6))
        #expect(stack.index(ofRowWithID: "item-500") == 525)
        stack.removeRows(at: 3, count: 10)
        w.frames(from: 0.4, to: 0.5)
        #expect(approx(Self.top(w, "item-500")!, before, 1e-6))
        stack.remove(ids: ["item-0", "item-1", "nope"])
        stack.reload(ids: ["item-499", "item-500"])
        w.frames(from: 0.5, to: 0.6)
        #expect(approx(Self.top(w, "item-500")!, before, 1e-6))
        #expect(stack.count == 1000 + 25 - 10 - 2)
        // Below the row being read: nothing above it changes.
        stack.insert(ids: ["late"], at: 900)
        w.frames(from: 0.6, to: 0.7)
        #expect(approx(Self.top(w, "item-500")!, before, 1e-6))
        // Everything replaced: the row at the reading index stays where the reader is.
        let k = try #require(stack.index(ofRowWithID: "item-500"))
        let renamed = (0..<stack.count).map { "new-row-\($0)" }
        stack.reloadData(ids: renamed)
        w.frames(from: 0.7, to: 0.8)
        #expect(w.root.view(withID: "item-500") == nil)
        #expect(approx(Self.top(w, renamed[k])!, before, 1e-6))
    }

    /// `reloadData(count:)` on a counted list: a new count, the row being read kept by index,
    /// clamped to the last row when the list got shorter than that.
    @Test func reloadDataKeepsTheReadingRowByIndex() throws {
        let (scroll, stack) = Self.lazyList(count: 1000)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        scroll.scroll(to: Point(x: 0, y: 500 * 57 + 17), animated: false)
        w.frames(from: 0.1, to: 0.2)
        #expect(approx(Self.top(w, "row-500")!, -17, 1e-9))
        stack.reloadData(count: 600)
        w.frames(from: 0.2, to: 0.3)
        #expect(stack.count == 600)
        #expect(approx(Self.top(w, "row-500")!, -17, 1e-9))
        stack.reloadData(count: 100)
        w.frames(from: 0.3, to: 4)
        #expect(stack.count == 100)
        #expect(w.root.view(withID: "row-99") != nil && w.root.view(withID: "row-500") == nil)
        #expect(approx(scroll.sampledOffset.y, 100 * 57 - 1 - 400, 1e-6))  // at rest at the end
    }

    @Test func scrollToReachesRowsThatWereNeverBuilt() throws {
        let ids = (0..<100_000).map { "item-\($0)" }
        let stack = LazyVStack(id: "rows", ids: ids, spacing: 1) { id in
            Box(id: id, fill: Color(rgb: 0x8ECAE6), height: Self.varied(Int(id.dropFirst(5))!))
        }
        let scroll = ScrollView(id: "list", content: stack)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(!scroll.scrollTo(id: "item-100000"))
        #expect(scroll.scrollTo(id: "item-90000", anchor: UnitPoint(x: 0, y: 0), animated: true))
        w.frames(from: 0.1, to: 3)
        #expect(approx(Self.top(w, "item-90000") ?? .nan, 0, 0.5))
        #expect(scroll.reportedID == "item-90000")
        #expect(w.isAtRest(at: 3))
        #expect(stack.children.count < 20)
        // By index, without animation, back up the list.
        #expect(scroll.scrollTo(index: 1234, anchor: UnitPoint(x: 0, y: 0.5), animated: false))
        w.frames(from: 3, to: 3.1)
        let r = w.root.view(withID: "item-1234")!.frameInWindow
        #expect(approx(r.midY, 200, 0.5))
        #expect(!scroll.scrollTo(index: -1))
    }

    @Test func focusAndPageDownMoveThroughRowsBuiltOnDemand() throws {
        let (scroll, stack) = Self.lazyList(count: 10_000, focusable: true)
        let w = try makeWindow(scroll, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        w.key(.tab, at: 0.2)
        #expect(w.focusedView?.id == "row-0")
        var t = 0.3
        for _ in 0..<30 { w.key(.down, at: t); w.frames(from: t, to: t + 0.1); t += 0.1 }
        #expect(w.focusedView?.id == "row-30")
        w.frames(from: t, to: t + 1)
        let focused = w.focusedView!.frameInWindow
        #expect(focused.minY >= 0 && focused.maxY <= 400)
        #expect(stack.children.count < 15)
        for _ in 0..<3 { w.key(.up, at: t + 1) }
        w.frames(from: t + 1, to: t + 2)
        #expect(w.focusedView?.id == "row-27")
        // Page Down scrolls the list that holds focus through rows not built yet.
        w.key(.escape, at: t + 2)
        let top = scroll.sampledOffset.y
        for i in 0..<5 { w.key(.pageDown, at: t + 2.1 + Double(i) * 0.05) }
        w.frames(from: t + 2.1, to: t + 4)
        #expect(approx(scroll.sampledOffset.y, top + 5 * 400, 1e-6))
        #expect(scroll.reportedID == "row-\(Int(((top + 2000) / 57).rounded(.down)))")
    }

    @Test func badInputIsClamped() throws {
        let empty = LazyVStack(count: -5) { _ in Box(height: 10) }
        #expect(empty.count == 0)
        let w0 = try makeWindow(ScrollView(content: empty))
        w0.frames(from: 0, to: 0.1)
        #expect(empty.children.isEmpty)

        // Heights that are NaN, negative, zero or enormous: clamped, and a pass ends.
        let odd = LazyVStack(id: "odd", count: 1_000_000) { i in
            Box(id: "odd-\(i)", height: [Double.nan, -40, 0, 1e12, 30][i % 5])
        }
        let scroll = ScrollView(id: "list", content: odd)
        let w = try makeWindow(scroll)
        w.frames(from: 0, to: 0.1)
        #expect(!odd.children.isEmpty)
        for c in odd.children { #expect(c.frame.height.isFinite && c.frame.height >= 0 && c.frame.height <= 100_000) }
        w.drag(from: Point(x: 200, y: 380), to: Point(x: 200, y: 20), at: 0.2, duration: 0.05)
        w.frames(from: 0.3, to: 2)
        #expect(odd.children.count <= 1000)

        // Repeated ids: found at their first index; every row is still built.
        let repeated = LazyVStack(ids: ["a", "b", "a"]) { id in Box(id: id, height: 20) }
        let wr = try makeWindow(ScrollView(content: repeated))
        wr.frames(from: 0, to: 0.1)
        #expect(repeated.index(ofRowWithID: "a") == 0 && repeated.children.count == 3)

        let zero = LazyVStack(count: 1_000_000) { _ in Box(height: 0) }
        let wz = try makeWindow(ScrollView(content: zero))
        wz.frames(from: 0, to: 0.1)
        #expect(zero.children.count <= 1000)

        let (list, stack) = Self.lazyList(count: 100)
        let wl = try makeWindow(list)
        wl.frames(from: 0, to: 0.1)
        stack.insertRows(at: 1_000_000_000, count: 3)
        stack.removeRows(at: -20, count: 2)
        stack.removeRows(at: 50, count: 1_000_000)
        stack.insertRows(at: 0, count: -4)
        wl.frames(from: 0.1, to: 0.2)
        #expect(stack.count == 50)
        #expect(!list.scrollTo(id: "no-such-row"))
        stack.removeRows(at: 0, count: 50)
        wl.frames(from: 0.2, to: 0.3)
        #expect(stack.count == 0 && stack.children.isEmpty)
    }

    @Test func aCarouselInARowBuiltWhileScrollingTakesSwipes() throws {
        let stack = LazyVStack(id: "rows", count: 1000, spacing: 1) { i in
            guard i == 30 else { return row(i, height: 56) }
            let strip = Stack(.horizontal, children: (0..<5).map { Box(id: "photo-\($0)", fill: Color(rgb: 0x2A9D8F), width: 300) })
            var config = ScrollConfiguration()
            config.isPagingEnabled = true
            return ScrollView(id: "carousel", axes: .horizontal, configuration: config, content: strip).frame(height: 150)
        }
        let scroll = ScrollView(id: "list", content: stack)
        let w = try makeWindow(scroll, width: 300, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(w.root.view(withID: "carousel") == nil)
        scroll.scrollTo(index: 30, anchor: UnitPoint(x: 0, y: 0), animated: false)
        w.frames(from: 0.1, to: 0.2)
        let carousel = try #require(w.root.view(withID: "carousel") as? ScrollView)
        #expect(w.scrollViews.contains { $0 === carousel })
        let f = carousel.frameInWindow
        w.drag(from: Point(x: 250, y: f.midY), to: Point(x: 50, y: f.midY), at: 0.3, duration: 0.1)
        w.frames(from: 0.45, to: 2)
        #expect(carousel.currentPage == 1)
        // Scrolled away, its row is released and the window forgets its scroll view.
        scroll.scrollTo(index: 500, animated: false)
        w.frames(from: 2, to: 2.1)
        #expect(!w.scrollViews.contains { $0 === carousel })
    }

    @Test func aHorizontalStripOfPagesSizedToTheViewport() throws {
        let strip = LazyHStack(count: 36) { i in Box(id: "page-\(i)", fill: Color(rgb: 0x2A9D8F)) }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let scroll = ScrollView(id: "pages", axes: .horizontal, configuration: config, content: strip)
        scroll.sizesPagesToViewport = true
        let w = try makeWindow(scroll, width: 300, height: 200)
        w.frames(from: 0, to: 0.1)
        #expect(scroll.pageCount == 36)
        #expect(strip.children.count == 2)  // the page and the margin's edge of the next
        w.drag(from: Point(x: 250, y: 100), to: Point(x: 50, y: 100), at: 0.2, duration: 0.1)
        w.frames(from: 0.3, to: 2)
        #expect(scroll.currentPage == 1)
        #expect(w.root.view(withID: "page-1")?.frameInWindow.minX == 0)
    }

    @Test func scrollFramesDrawOnlyTheRowsThatCameIntoView() throws {
        /// Rows drawn while a flick runs for two seconds.
        func rowsDrawn(copyingPixels: Bool) throws -> Int {
            let counter = Counter()
            let stack = LazyVStack(count: 100_000, spacing: 1) { i in
                CountingBox(id: "row-\(i)", counter: counter, height: 40 + Double(i % 3) * 10)
            }
            let scroll = ScrollView(id: "list", content: stack)
            scroll.fill = .white
            let w = try makeWindow(scroll, width: 400, height: 400)
            w.reusesScrolledPixels = copyingPixels
            w.frames(from: 0, to: 0.1)
            w.drag(from: Point(x: 200, y: 380), to: Point(x: 200, y: 100), at: 0.2, duration: 0.05)
            let before = counter.count
            let b = PixelBuffer(width: 400, height: 400)
            for n in 1...120 { _ = w.render(into: b, at: 0.3 + Double(n) / 60) }
            #expect(scroll.sampledOffset.y > 1500)
            return counter.count - before
        }
        // Copying draws the rows that came into view and those under the indicator, not all
        // eight that show: building rows never forces a full redraw.
        let copied = try rowsDrawn(copyingPixels: true), redrawn = try rowsDrawn(copyingPixels: false)
        #expect(copied * 2 < redrawn, "\(copied) rows drawn copying pixels, \(redrawn) redrawing")
    }
}
