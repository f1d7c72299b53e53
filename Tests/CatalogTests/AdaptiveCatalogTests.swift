import Catalog
import Controls
import Geometry
import Raster
import TestSupport
import Testing
import AppContract
import UI

/// The catalog on the panels kiosks come with: a sidebar on wide landscape screens, a tab bar
/// along the bottom on narrow or portrait ones, cards and carousel pages that fit the column.
@Suite struct AdaptiveCatalogTests {
    static let panels: [(width: Int, height: Int, scale: Double)] = [
        (480, 800, 1), (800, 480, 1), (1024, 600, 1), (1280, 800, 1), (1920, 1080, 1.5),
    ]

    static func catalog(_ width: Int, _ height: Int, _ scale: Double) throws -> (CatalogApp, Window) {
        let path = testsDirectory + "/../Board/content/manifest.json"
        let built = AppFactory.catalog(
            manifestPath: path, width: width, height: height, scaleFactor: scale,
            typography: try typography())
        return (try #require(built.app), built.window)
    }

    /// Golden screenshots after the first second (the indicator's flash has faded). Text is
    /// drawn by FreeType, so a channel may differ by 2 between FreeType builds; nothing else may.
    @Test(arguments: panels.indices) func goldenAtEachPanelSize(_ i: Int) throws {
        let p = Self.panels[i]
        let (_, window) = try Self.catalog(p.width, p.height, p.scale)
        let frame = PixelBuffer(width: p.width, height: p.height)
        for n in 0...90 { _ = window.render(into: frame, at: Double(n) / 60) }
        assertGolden(frame, suite: "Catalog", name: "catalog-\(p.width)x\(p.height)", maxChannelDelta: 2)
    }

    /// Right to left (an Arabic kiosk): the sidebar on the right, rows and the carousel from the
    /// right, the page control's first dot the rightmost; the Arabic article reads right to
    /// left. Landscape and portrait.
    @Test(arguments: [(1280, 800), (480, 800)])
    func goldenRightToLeft(width: Int, height: Int) throws {
        let (_, window) = try Self.catalog(width, height, 1)
        window.language = "ar"
        window.layoutDirection = .rightToLeft
        let frame = PixelBuffer(width: width, height: height)
        for n in 0...90 { _ = window.render(into: frame, at: Double(n) / 60) }
        assertGolden(frame, suite: "Catalog", name: "catalog-\(width)x\(height)-rtl", maxChannelDelta: 2)
        // The Arabic article, its first lines at the right.
        let tab = try #require(window.root.view(withID: "tab-article-ar")).frameInWindow
        window.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: tab.midX, y: tab.midY)), time: 1.6))
        window.handle(InputEvent(.touch(.up, slot: 0, position: Point(x: tab.midX, y: tab.midY)), time: 1.65))
        for n in 100...140 { _ = window.render(into: frame, at: Double(n) / 60) }
        assertGolden(frame, suite: "Catalog", name: "catalog-\(width)x\(height)-rtl-article", maxChannelDelta: 2)
    }

    /// The dark scheme, and dark with high contrast: every built-in view and the catalog's own
    /// screens draw from the theme, so nothing stays white or black-on-black.
    @Test(arguments: [(800, 480, false), (1280, 800, false), (480, 800, false), (1280, 800, true)])
    func goldenDark(width: Int, height: Int, contrast: Bool) throws {
        let (_, window) = try Self.catalog(width, height, 1)
        window.colorScheme = .dark
        window.isHighContrast = contrast
        let frame = PixelBuffer(width: width, height: height)
        for n in 0...90 {
            _ = window.timers.runDue(upTo: Double(n) / 60)  // as the loop does: the switch follows the scheme
            _ = window.render(into: frame, at: Double(n) / 60)
        }
        // The Dark switch (the sidebar's: a portrait panel has none) follows a scheme set from
        // outside, as the command line and a schedule set it.
        if let toggle = window.root.view(withID: "dark-mode") as? Toggle { #expect(toggle.isOn) }
        #expect(width < height || window.root.view(withID: "dark-mode") is Toggle)
        assertGolden(frame, suite: "Catalog", name: "catalog-\(width)x\(height)-dark\(contrast ? "-contrast" : "")", maxChannelDelta: 2)
    }

    /// High contrast in the light scheme on the other two panels the dark goldens cover
    /// (1280x800 is `LargeTextTests.highContrast`).
    @Test(arguments: [(800, 480), (480, 800)])
    func goldenHighContrast(width: Int, height: Int) throws {
        let (_, window) = try Self.catalog(width, height, 1)
        window.isHighContrast = true
        let frame = PixelBuffer(width: width, height: height)
        for n in 0...90 { _ = window.render(into: frame, at: Double(n) / 60) }
        assertGolden(frame, suite: "Catalog", name: "catalog-\(width)x\(height)-contrast", maxChannelDelta: 2)
    }

    @Test func narrowAndPortraitPanelsGetATabBar() throws {
        for (w, h, compact) in [(480, 800, true), (720, 1280, true), (640, 480, true), (800, 480, false), (1024, 600, false)] {
            let (app, window) = try Self.catalog(w, h, 1)
            window.layoutIfNeeded()
            #expect(app.isCompact == compact, "\(w)x\(h)")
            let tab = try #require(window.root.view(withID: "tab-photo")).frameInWindow
            if compact {
                #expect(tab.maxY <= Double(h) && tab.minY > Double(h) - 80, "\(w)x\(h): the tab sits in the bottom bar")
                #expect(window.root.view(withID: "feed")!.frameInWindow.width == Double(w))
            } else {
                #expect(tab.minX < 248, "\(w)x\(h): the tab sits in the sidebar")
            }
        }
    }

    /// On a 480-point portrait panel the titles fit in the tab view's bar: each tab is at least as
    /// wide as its title (none is cut short, as they were when the tabs shared the width evenly:
    /// "Readi…"), and together they fill the bar.
    @Test func thePortraitTabBarCutsNoTitle() throws {
        for (w, h) in [(480, 800), (720, 1280)] {
            let (app, window) = try Self.catalog(w, h, 1)
            window.layoutIfNeeded()
            #expect(app.isCompact)
            let tabView = try #require(window.root.view(withID: "screen-area") as? TabView)
            let buttons = tabView.tabs.compactMap { $0.id.flatMap { window.root.view(withID: $0) } }
            #expect(buttons.count == app.tabCount)
            for button in buttons {
                let title = try #require(button.children.first as? Label)
                let needs = title.sizeThatFits(Size(width: .infinity, height: .infinity)).width
                #expect(title.frame.width >= needs.rounded(.down), "\(w)x\(h): \(title.text) has \(title.frame.width) of \(needs) points")
            }
            let last = try #require(buttons.last).frameInWindow
            #expect(last.maxX <= Double(w) + 1e-9 && last.maxX > Double(w) - 10, "\(w)x\(h): the tabs fill the bar")
            // At 200 % the titles cannot all fit: each keeps its width and the bar scrolls to
            // bring one into sight.
            window.textScale = 2
            let frame = PixelBuffer(width: w, height: h)
            for n in 0...6 { _ = window.render(into: frame, at: Double(n) / 60) }
            for button in buttons {
                let title = try #require(button.children.first as? Label)
                #expect(!title.isCutByTextScale, "\(w)x\(h) at 200 %: \(title.text) is cut")
            }
            // Under icons the titles are small: on the 720-point panel they fit at 200 % too.
            guard w == 480 else {
                #expect(try #require(buttons.last).frameInWindow.maxX <= Double(w) + 1e-9, "\(w)x\(h) at 200 %: the tabs fit")
                continue
            }
            #expect(try #require(buttons.last).frameInWindow.maxX > Double(w) + 10, "\(w)x\(h) at 200 %: the bar scrolls")
            let bar = try #require(buttons.last?.ancestors.first { $0 is ScrollView } as? ScrollView)
            bar.reveal(try #require(buttons.last), animated: false)
            for n in 12...18 { _ = window.render(into: frame, at: Double(n) / 60) }
            #expect(abs(try #require(buttons.last).frameInWindow.maxX - Double(w)) < 0.5, "\(w)x\(h) at 200 %: scrolled to the last")
        }
    }

    /// The sidebar's scroll indicator runs down the 16-point margin beside the tabs, not over the
    /// selected tab's edge, in either direction; a tab view's bar shows no indicator over its titles.
    @Test func theSidebarIndicatorRunsBesideTheTabs() throws {
        for direction in [LayoutDirection.leftToRight, .rightToLeft] {
            let (_, window) = try Self.catalog(800, 480, 1)
            window.layoutDirection = direction
            window.layoutIfNeeded()
            let scroll = try #require(window.root.view(withID: "sidebar-scroll")).frameInWindow
            let tab = try #require(window.root.view(withID: "tab-feed")).frameInWindow
            let margin = direction == .leftToRight ? scroll.maxX - tab.maxX : tab.minX - scroll.minX
            #expect(margin == 16, "\(direction)")
        }
        let (_, portrait) = try Self.catalog(480, 800, 1)
        portrait.layoutIfNeeded()
        let bar = try #require(portrait.root.view(withID: "tab-feed")?.ancestors.first { $0 is ScrollView } as? ScrollView)
        #expect(bar.indicators == .never)
    }

    @Test func aNarrowColumnPutsTheCardPictureAboveItsText() throws {
        let (_, window) = try Self.catalog(360, 640, 1)
        window.layoutIfNeeded()
        let card = try #require(window.root.view(withID: "card-0"))
        let stack = try #require(card.children.first as? Stack)
        #expect(stack.axis == .vertical)
        let (_, wide) = try Self.catalog(1280, 800, 1)
        wide.layoutIfNeeded()
        #expect((wide.root.view(withID: "card-0")?.children.first as? Stack)?.axis == .horizontal)
    }

    @Test func turningThePanelSwitchesLayoutsAndKeepsTheScreen() throws {
        let (app, window) = try Self.catalog(1280, 800, 1)
        let frame = PixelBuffer(width: 1280, height: 800)
        _ = window.render(into: frame, at: 0)
        app.select(4)
        _ = window.render(into: frame, at: 0.1)
        window.resize(width: 720, height: 1280)
        _ = window.render(into: PixelBuffer(width: 720, height: 1280), at: 0.2)
        #expect(app.isCompact && app.selectedScreen == 4)
        window.resize(width: 1280, height: 800)
        _ = window.render(into: frame, at: 0.3)
        #expect(!app.isCompact && app.selectedScreen == 4)
    }
}

/// A manifest that is a FIFO or /dev/zero becomes an error screen at once.
@Suite struct SpecialManifestTests {
    @Test func aFIFOOrDeviceAsTheManifestIsAnErrorScreen() throws {
        try forEachSpecialFile { path in
            let built = AppFactory.catalog(manifestPath: path, width: 800, height: 480, scaleFactor: 1, typography: try typography())
            #expect(built.app == nil)
            #expect(built.problems.contains { $0.contains(path) && $0.contains("not a regular file") }, "\(built.problems)")
        }
    }
}

extension AdaptiveCatalogTests {
    /// The tour of a right-to-left catalog swipes the carousel rightwards (its next page is to the
    /// left) and scrubs the page control leftwards: each step shows what it shows left to right.
    @Test func theTourMirrorsItsSwipesRightToLeft() throws {
        func firstSwipe(_ direction: LayoutDirection) throws -> Double {
            let (app, window) = try Self.catalog(1280, 800, 1)
            window.layoutDirection = direction
            let moves = CatalogTour.script(for: app).entries.compactMap { entry -> Double? in
                if case let .input(.touch(phase, _, p)) = entry.action, phase != .up { return p.x }
                return nil
            }
            return try #require(moves.dropFirst().first) - (try #require(moves.first))
        }
        #expect(try firstSwipe(.leftToRight) < 0)
        #expect(try firstSwipe(.rightToLeft) > 0)
    }
}
