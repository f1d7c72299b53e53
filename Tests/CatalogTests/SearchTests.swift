import AppContract
@testable import Catalog
import Geometry
import Raster
import Testing
import UI

/// The search screen under long input: a 64 KiB paste froze the frame loop for half a minute
/// (the filter folded the query again for each of the 108 rows, building a table per scalar).
@Suite struct SearchTests {
    @Test func wordsStartWordsIgnoringCaseAndAccents() {
        #expect(SearchMatch.matches("München Hbf", query: "mun"))
        #expect(SearchMatch.matches("Gare de Lyon", query: "gare l"))
        #expect(SearchMatch.matches("Gare de Lyon", query: "LYON gare gare"))
        #expect(!SearchMatch.matches("Gare de Lyon", query: "are"))
        #expect(SearchMatch.matches("Zürich", query: "zu\u{308}r"))
        #expect(SearchMatch.matches("東京駅", query: "京"))
        #expect(SearchMatch.matches("anything", query: "  "))
        #expect(!SearchMatch.matches("Gare", query: "gare de lyon"))
    }

    /// The search screen of the shipped catalog, shown, its field focused.
    static func focusedSearch() throws -> (Window, TextField) {
        let (_, window) = try AdaptiveCatalogTests.catalog(1280, 800, 1)
        let frame = PixelBuffer(width: 1280, height: 800)
        _ = window.render(into: frame, at: 0)
        let tab = try #require(window.root.view(withID: "tab-search")).frameInWindow
        window.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: tab.midX, y: tab.midY)), time: 0.1))
        window.handle(InputEvent(.touch(.up, slot: 0, position: Point(x: tab.midX, y: tab.midY)), time: 0.15))
        for n in 10...40 { _ = window.render(into: frame, at: Double(n) / 60) }
        let field = try #require(window.root.view(withID: "search-field") as? TextField)
        window.focus(field)
        _ = window.render(into: frame, at: 0.7)
        return (window, field)
    }

    /// One `type` of 64 KiB (the most a script line or the remote API passes) leaves the query
    /// at its limit, which is what keeps the search and the frames after it quick (36.8 s for
    /// this paste before the limit, 0.99 s after, in a debug build; timing is not a test's).
    @Test func aLongPasteKeepsTheQueryLimit() throws {
        let (window, field) = try Self.focusedSearch()
        let frame = PixelBuffer(width: 1280, height: 800)
        for text in [String(repeating: "a", count: 65_536), String(repeating: "gare de lyon ", count: 5_000)] {
            field.text = ""
            window.handle(InputEvent(.text(text), time: 1))
            for n in 61...64 { _ = window.render(into: frame, at: Double(n) / 60) }
            #expect(field.text == String(text.prefix(SearchMatch.maximumQueryLength)))
        }
        let count = try #require(window.root.view(withID: "search-count") as? Label)
        #expect(count.text.hasSuffix(" of 108"))
    }
}
