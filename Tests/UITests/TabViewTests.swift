import Controls
import Geometry
import Observation
import Raster
import Scrolling
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

@Observable final class TabModel { var tab = 0 }

/// The tab bar: taps, keys and the binding switch screens, each screen keeps its place, the
/// bar mirrors right to left; and the screen reader keeps its place when a list's data changes.
@Suite struct TabViewTests {
    func setup() throws -> (Window, TabView, ScrollView, TabModel) {
        let model = TabModel()
        let menu = list(60)
        let tabs = TabView(
            id: "tabs", selection: Binding(model, \.tab),
            tabs: [
                Tab("Menu", icon: .cart, content: menu),
                Tab("Orders", id: "orders-tab", icon: .checkmark, content: Box(id: "orders", fill: .white)),
            ])
        let w = try makeWindow(tabs, width: 400, height: 600)
        return (w, tabs, menu, model)
    }

    @Test func tabsSwitchScreensAndEachKeepsItsPlace() throws {
        let (w, tabs, menu, model) = try setup()
        menu.scroll(to: Point(x: 0, y: 400), animated: false)
        w.frames(from: 0, to: 0.1)
        #expect(menu.frame.height == 544)  // the bar takes 56 points
        w.tap(300, 570, at: 0.2)
        #expect(tabs.selectedIndex == 1 && model.tab == 1)
        #expect(w.root.view(withID: "orders")?.isHidden == false && menu.isHidden)
        #expect(w.state(at: 0.3, frameNumber: 0).elements.map(\.id) == ["tabs.tab-0", "orders-tab"])
        model.tab = 0
        _ = w.timers.runDue(upTo: 0.4)
        w.frames(from: 0.4, to: 0.5)
        #expect(tabs.selectedIndex == 0 && menu.sampledOffset.y == 400)
        let element = w.accessibilityElements().first { $0.view.id == "tabs.tab-0" }
        #expect(element?.spokenText == "Menu, selected, Page 1 of 2, button")
        // Keys: Tab reaches the tabs, Enter picks one.
        w.key(.tab, at: 0.6)
        w.key(.tab, at: 0.61)
        #expect(w.focusedView?.id == "orders-tab")
        w.key(.enter, at: 0.62)
        #expect(model.tab == 1)
    }

    @Test func theFirstTabIsAtTheRightRightToLeft() throws {
        let (w, tabs, _, _) = try setup()
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        w.tap(300, 570, at: 0.2)
        #expect(tabs.selectedIndex == 0)
        w.tap(100, 570, at: 0.4)
        #expect(tabs.selectedIndex == 1)
    }

    /// Another row of a lazy list changes: the rows are rebuilt, and the screen reader and the
    /// keyboard focus stay on the row they were on.
    @Test func theScreenReaderKeepsItsPlaceWhenAnotherRowChanges() throws {
        let rows = LazyVStack(id: "rows", count: 50) { i in
            Label("Row \(i)", id: "row-\(i)", size: 20).frame(height: 50).focusable().onTap {}
        }
        let w = try makeWindow(ScrollView(id: "list", content: rows), width: 400, height: 400)
        w.isScreenReaderEnabled = true
        w.frames(from: 0, to: 0.1)
        w.touch(.down, 200, 125, at: 0.2)
        w.frames(from: 0.2, to: 0.5)
        w.touch(.up, 200, 125, at: 0.5)
        #expect(w.screenReader.focused?.id == "row-2")
        w.focus(w.root.view(withID: "row-2"))
        let before = w.screenReader.focused
        rows.reloadRows(at: 6)
        w.frames(from: 0.6, to: 0.7)
        let after = w.screenReader.focused
        #expect(after?.id == "row-2" && after !== before && after?.window === w)
        #expect(w.focusedView?.id == "row-2" && w.focusedView?.window === w)
    }
}
