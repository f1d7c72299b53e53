import Geometry
import Logging
import Raster
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
@testable import Widgets

/// Lazy grids: tracks sized as SwiftUI sizes them, rows built only where they show.
@Suite struct GridTests {
    func cell(_ i: Int) -> View { Box(id: "item-\(i)", fill: Color(rgb: 0x8ECAE6), cornerRadius: 8, height: 80) }

    @Test func flexibleColumnsShareTheWidthAndItemsFillRowsFromTheLeadingEdge() throws {
        let grid = LazyVGrid(columns: [GridItem(), GridItem(), GridItem()], count: 10, spacing: 10) { cell($0) }
        let w = try makeWindow(ScrollView(id: "grid", content: grid), width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(grid.count == 4)  // rows: 3 + 3 + 3 + 1
        let item4 = try #require(w.root.view(withID: "item-4"))
        #expect(approx(item4.frame.minX, 400.0 / 3 + 10 / 3.0 * 1, 1e-9))
        #expect(approx(item4.frame.width, 380.0 / 3, 1e-9))
        #expect(item4.frameInWindow.minY == 90)
        // Right to left, the first item is at the right edge.
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        let item0 = try #require(w.root.view(withID: "item-0"))
        #expect(approx(item0.frameInWindow.maxX, 400, 1e-9))
    }

    @Test func adaptiveColumnsFitAsManyAsTheWidthHolds() throws {
        let grid = LazyVGrid(columns: [GridItem(.adaptive(minimum: 100))], count: 100, spacing: 10) { cell($0) }
        let w = try makeWindow(ScrollView(id: "grid", content: grid), width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(grid.gridModel.perRow == 3 && grid.count == 34)
        #expect(approx(try #require(w.root.view(withID: "item-1")).frame.width, 380.0 / 3, 1e-9))
        // A wider screen: floor((800 + 10) / 110) = 7 columns.
        let wide = try makeWindow(
            ScrollView(id: "grid", content: LazyVGrid(columns: [GridItem(.adaptive(minimum: 100))], count: 100, spacing: 10) { cell($0) }),
            width: 800, height: 400)
        wide.frames(from: 0, to: 0.1)
        let g = try #require((wide.root as? ScrollView)?.content as? LazyVGrid)
        #expect(g.gridModel.perRow == 7 && g.count == 15)
        #expect(try #require(wide.root.view(withID: "item-7")).frameInWindow.minY == 90)
        // At 200 % text the minimum is 200 points: floor((800 + 10) / 210) = 3 columns; at 300 %,
        // 300 points, two; and one track never overflows a grid narrower than its minimum.
        for (scale, columns, width) in [(2.0, 3, 260.0), (3.0, 2, 395.0), (1.0, 7, 800.0 / 7 - 60.0 / 7)] {
            wide.textScale = scale
            wide.frames(from: 0.2 * scale, to: 0.2 * scale + 0.1)
            #expect(g.gridModel.perRow == columns, "\(scale)")
            #expect(approx(try #require(wide.root.view(withID: "item-1")).frame.width, width, 1e-9), "\(scale)")
        }
        w.textScale = 3
        w.frames(from: 0.2, to: 0.3)
        let only = try #require(w.root.view(withID: "item-0"))
        #expect(grid.gridModel.perRow == 1 && approx(only.frame.width, 400, 1e-9))
    }

    @Test func fixedAndFlexibleTracksMix() throws {
        let grid = LazyVGrid(
            columns: [GridItem(.fixed(60)), GridItem(.flexible(minimum: 50, maximum: 200)), GridItem()], count: 3, spacing: 10
        ) {
            cell($0)
        }
        let w = try makeWindow(ScrollView(content: grid), width: 400, height: 200)
        w.frames(from: 0, to: 0.1)
        let widths = (0..<3).map { w.root.view(withID: "item-\($0)")!.frame.width }
        // 400 - 20 of gaps - 60 fixed = 320, shared: 160 each (within 50...200).
        #expect(widths == [60, 160, 160])
    }

    @Test func aMillionItemsBuildOnlyWhatShows() throws {
        let grid = LazyVGrid(columns: Array(repeating: GridItem(), count: 4), count: 1_000_000, spacing: 4) { cell($0) }
        let sv = ScrollView(id: "grid", content: grid)
        let w = try makeWindow(sv, width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        #expect(grid.count == 250_000)
        #expect(grid.children.count < 12)
        #expect(grid.rowsBuilt < 12)
        let end = w.drag(from: Point(x: 200, y: 380), to: Point(x: 200, y: 60), at: 0.2, duration: 0.06)
        w.frames(from: end, to: end + 2)
        #expect(sv.sampledOffset.y > 1000)
        #expect(grid.children.count < 12)
    }

    @Test func aHorizontalGridFillsColumnsFromTheTop() throws {
        let grid = LazyHGrid(rows: [GridItem(), GridItem()], count: 9, spacing: 10) { i in
            Box(id: "item-\(i)", fill: Color(rgb: 0x8ECAE6), width: 120)
        }
        let w = try makeWindow(ScrollView(id: "strip", axes: .horizontal, content: grid), width: 400, height: 210)
        w.frames(from: 0, to: 0.1)
        #expect(grid.count == 5)
        let item3 = try #require(w.root.view(withID: "item-3"))
        #expect(item3.frameInWindow == Rect(x: 130, y: 110, width: 120, height: 100))
    }

    @Test func aGridWithoutColumnsSaysSoAndShowsOneColumn() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        let grid = LazyVGrid(id: "menu", columns: [], count: 3) { cell($0) }
        let bad = LazyVGrid(id: "bad", columns: [GridItem(.fixed(.nan)), GridItem(.adaptive(minimum: -5))], count: 3) { cell($0 + 10) }
        let root = VStack {
            ScrollView(content: grid).frame(height: 200); ScrollView(content: bad).frame(height: 200)
        }
        let w = Window(width: 400, height: 400, typography: try makeTypography(), root: root)
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.frames(from: 0, to: 0.1)
        #expect(grid.count == 3 && w.root.view(withID: "item-0")?.frame.width == 400)
        #expect(
            lines.lines == [
                "LazyVGrid 'menu' has no columns: it shows its items in one flexible column",
                "LazyVGrid 'bad' has a track size that is negative or not a number: it counts as 0 (a minimum as 10)",
            ])
        #expect(w.root.view(withID: "item-10")?.frame.width == 0)
    }

    // MARK: Sections

    /// Three columns; sections of 5, 7 and 4 items under 30-point headers; rows 80 high, 10 apart:
    /// headers at 0, 220 and 530, section 1's rows at 260, 350 and 440.
    func sectionedGrid() -> LazyVGrid {
        LazyVGrid(
            id: "grid", columns: [GridItem(), GridItem(), GridItem()], sections: [5, 7, 4], spacing: 10,
            header: { s in Label("Section \(s)", id: "header-\(s)", size: 17).frame(height: 30) }
        ) { s, i in
            Box(id: "item-\(s)-\(i)", fill: Color(rgb: 0x8ECAE6), height: 80)
        }
    }

    @Test func sectionsStartNewRowsUnderTheirHeaders() throws {
        let grid = sectionedGrid()
        let w = try makeWindow(ScrollView(id: "sv", content: grid), width: 400, height: 300)
        w.frames(from: 0, to: 0.1)
        #expect(grid.count == 3 + 2 + 3 + 2)
        #expect(grid.itemCount == 16)
        #expect(try #require(w.root.view(withID: "item-0-3")).frameInWindow.minY == 130)
        #expect(try #require(w.root.view(withID: "header-1")).frameInWindow.minY == 220)
        #expect(try #require(w.root.view(withID: "item-1-0")).frameInWindow.minY == 260)
        #expect(grid.pinnedViews.isEmpty)  // at the top, the header is in its place
        #expect(w.accessibilityElements().contains { $0.role == .heading && $0.label == "Section 0" })
    }

    @Test func theHeaderStaysPinnedWhileItsItemsScrollAndTheNextPushesItOut() throws {
        let grid = sectionedGrid()
        let sv = ScrollView(id: "sv", content: grid)
        sv.animatesProgramScrolls = false
        let w = try makeWindow(sv, width: 400, height: 300)
        w.frames(from: 0, to: 0.1)
        func pinned(at offset: Double) -> (id: String?, y: Double)? {
            sv.scroll(to: Point(x: 0, y: offset))
            w.frames(from: w.currentTime + 0.1, to: w.currentTime + 0.2)
            return grid.pinnedViews.first.map { ($0.children.first?.id, $0.frameInWindow.minY) }
        }
        #expect(pinned(at: 100)! == ("header-0", 0))
        // Section 0 ends at 210: its 30-point header is pushed up by the next one's.
        #expect(pinned(at: 200)! == ("header-0", -20))
        #expect(pinned(at: 300)! == ("header-1", 0))
        // Over rows that scroll under it, it is drawn over the colour behind the list.
        let frame = w.fullRedraw(at: w.currentTime)
        #expect(frame[200, 29] == w.background.premultiplied.argb)
        // The screen reader reads the header in its place, not the pinned copy.
        #expect(!w.accessibilityElements().contains { $0.label == "Section 1" })
        #expect(pinned(at: 0) == nil)
    }

    @Test func aListInSectionsPinsItsHeadersAndReloadsBySection() throws {
        let list = LazyVStack(
            id: "contacts", sections: [3, 40], spacing: 0,
            header: { s in Label(s == 0 ? "A" : "B", id: "letter-\(s)", size: 15).frame(height: 24) }
        ) { s, i in
            Label("Contact \(s)-\(i)", id: "contact-\(s)-\(i)", size: 17).frame(height: 44)
        }
        let sv = ScrollView(id: "sv", content: list)
        sv.animatesProgramScrolls = false
        let w = try makeWindow(sv, width: 320, height: 240)
        w.frames(from: 0, to: 0.1)
        // A: 0...24, its 3 rows to 156; B's header at 156, its first row at 180.
        #expect(try #require(w.root.view(withID: "contact-1-0")).frameInWindow.minY == 180)
        sv.scroll(to: Point(x: 0, y: 400))
        w.frames(from: 0.2, to: 0.3)
        #expect(list.pinnedViews.first?.children.first?.id == "letter-1")
        #expect(list.pinnedViews.first?.frameInWindow.minY == 0)
        list.reloadData(sections: [3, 5])
        w.frames(from: 0.4, to: 3)
        #expect(list.count == 1 + 3 + 1 + 5)
        // The content is shorter now: the view ends at its new end, B still pinned.
        #expect(try #require(w.root.view(withID: "contact-1-4")).frameInWindow.maxY == 240)
        #expect(list.pinnedViews.first?.children.first?.id == "letter-1")
    }
}
