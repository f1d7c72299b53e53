import Geometry
import Testing
@testable import UI

/// The state JSON: every key present, null when it has no value, and the tappable
/// views with ids where a test can touch them.
@Suite struct StateTests {
    @Test func optionalKeysAreNullAndTappableViewsAreListed() throws {
        let sv = list(20)
        var tapped: [String] = []
        for case let row as Box in sv.content.children.prefix(12) {
            row.onTap = { tapped.append(row.id ?? "?") }
        }
        sv.content.children[1].isFocusable = true
        let w = try makeWindow(sv, width: 400, height: 400, scale: 2)
        w.frames(from: 0, to: 0.1)
        let json = w.stateJSON(at: 0.1, frameNumber: 7)
        #expect(json.contains("\"focus\":null"), "\(json)")
        #expect(json.contains("\"page\":null"), "\(json)")
        #expect(json.contains("\"pageCount\":null"), "\(json)")
        let state = w.state(at: 0.1, frameNumber: 7)
        // 200 points of 50-point rows at scale 2: rows 0...3 are visible, with pixel frames.
        #expect(state.elements.map(\.id) == ["row-0", "row-1", "row-2", "row-3"])
        #expect(
            state.elements[1]
                == .init(
                    id: "row-1", frame: [0, 100, 400, 100], tappable: true, focusable: true,
                    longPressable: false, pressed: false))
        #expect(state.elements[0].focusable == false)
        // After a scroll the list follows: a row that scrolled off is gone, the next one is there.
        w.drag(from: Point(x: 100, y: 150), to: Point(x: 100, y: 50), at: 1, duration: 0.3)
        w.touch(.down, 100, 100, at: 1.5)  // stop any fling
        w.touch(.up, 100, 100, at: 1.52)
        w.frames(from: 1, to: 3)
        let after = w.state(at: 3, frameNumber: 8)
        let offset = after.scrollViews[0].offset[1]
        #expect(offset > 50)
        #expect(after.elements.first?.id == "row-\(Int(offset / 50))")
    }
}
