import Geometry
import Logging
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Scroll views take the space their stack offers along the axis they scroll, as SwiftUI's do,
/// without `.flexible()`; a view laid out with no room for its content is reported once.
@Suite struct StackFillTests {
    func header() -> Label { Label("Exhibits", id: "header", size: 20, maxLines: 1) }

    @Test func aScrollViewUnderAHeaderFillsTheRest() throws {
        let h = header(), sv = list(50)
        let w = try makeWindow(Stack(.vertical, children: [h, sv]), width: 400, height: 300)
        #expect(h.frame.height > 0)
        #expect(sv.frame == Rect(x: 0, y: h.frame.height, width: 400, height: 300 - h.frame.height))
        #expect(w.stateJSON(at: 0, frameNumber: 0).contains("\"id\":\"list\""))
        // .flexible() still works, and means the same.
        let flexible = list(50).flexible()
        _ = try makeWindow(Stack(.vertical, children: [header(), flexible]), width: 400, height: 300)
        #expect(flexible.frame == sv.frame)
    }

    @Test func twoScrollViewsShareWhatTheHeaderLeaves() throws {
        let h = Box(id: "header", height: 40), a = list(50), b = list(50)
        _ = try makeWindow(Stack(.vertical, spacing: 10, children: [h, a, b]), width: 400, height: 300)
        #expect(a.frame == Rect(x: 0, y: 50, width: 400, height: 120))
        #expect(b.frame == Rect(x: 0, y: 180, width: 400, height: 120))
        // A sized one keeps its height; the other takes the rest.
        let c = list(50).frame(height: 80), d = list(50)
        _ = try makeWindow(Stack(.vertical, spacing: 10, children: [Box(height: 40), c, d]), width: 400, height: 300)
        #expect(c.frame.height == 80)
        #expect(d.frame == Rect(x: 0, y: 140, width: 400, height: 160))
    }

    @Test func aHorizontalCarouselInAColumnIsAsTallAsItsPages() throws {
        let strip = Stack(.horizontal, spacing: 8, children: (0..<6).map { Box(id: "card-\($0)", width: 150, height: 90) })
        let carousel = ScrollView(id: "carousel", axes: .horizontal, content: strip)
        let below = list(20)
        _ = try makeWindow(Stack(.vertical, children: [Box(height: 30), carousel, below]), width: 400, height: 300)
        #expect(carousel.frame == Rect(x: 0, y: 30, width: 400, height: 90))
        #expect(carousel.content.frame.size == Size(width: 6 * 150 + 5 * 8, height: 90))
        #expect(below.frame == Rect(x: 0, y: 120, width: 400, height: 180))
    }

    @Test func aViewWithNoRoomForItsContentIsReportedOnce() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        // A vertical scroll view inside another's content has no height to take: it cannot scroll.
        let inner = list(10)
        let outer = ScrollView(id: "outer", content: Stack(.vertical, children: [Box(height: 50), inner]))
        let w = Window(width: 400, height: 300, typography: try makeTypography(), root: outer)
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.layoutIfNeeded()
        #expect(inner.frame.height == 0)
        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.contains("ScrollView 'list' was laid out 400.0x0.0 points") == true)
        // Not again on the next layout.
        w.resize(width: 500, height: 300)
        w.layoutIfNeeded()
        #expect(lines.lines.count == 1)
        // Sized, it shows and nothing is said.
        inner.frame(height: 120)
        w.layoutIfNeeded()
        #expect(inner.frame.height == 120)
        #expect(lines.lines.count == 1)
    }
}
