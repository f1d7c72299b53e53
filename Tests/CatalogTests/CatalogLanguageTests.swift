import Catalog
import FoundationEssentials
import Geometry
import Localization
import ImageCodecs
import Raster
import TestSupport
import Testing
import UI

/// The catalog's words come from its manifest's String Catalog (Board/content/
/// Localizable.xcstrings), and a change of language re-reads every one in place (issue 60).
@Suite struct CatalogLanguageTests {
    /// Every title, subtitle and card of the shipped manifest is in the catalog in each of its
    /// languages, or marked as never translated (the Japanese and Arabic articles' own titles).
    @Test func theShippedStringCatalogHasEveryWordOfTheManifest() throws {
        let folder = testsDirectory + "/../Board/content"
        let manifest = try Manifest.parse(try FileIO.readAll(path: folder + "/manifest.json"), path: "manifest.json")
        let catalog = try StringCatalog(contentsOf: folder + "/" + (try #require(manifest.strings)))
        var words = [manifest.title]
        for screen in manifest.screens {
            words += [screen.title] + [screen.subtitle, screen.carouselTitle].compactMap { $0 }
            for card in screen.cards ?? [] { words += [card.title, card.text] }
        }
        #expect(catalog.languages == ["en", "ar", "de"])
        for language in ["ar", "de"] {
            let missing = words.filter { catalog.noteMissing($0, language: language) }
            #expect(missing.isEmpty, "\(language) lacks \(missing)")
        }
    }

    /// German, then Arabic, then English again on one catalog: the sidebar's title, a tab, a
    /// card and the catalog's own words change at the next frame, the screen mirrors, and the
    /// feed keeps its place.
    @Test func aChangeOfLanguageRereadsTheManifestsWordsInPlace() throws {
        let (app, window) = try AdaptiveCatalogTests.catalog(1280, 800, 1)
        #expect(app.warnings.isEmpty, "\(app.warnings)")
        window.followsLanguageDirection = true
        let frame = PixelBuffer(width: 1280, height: 800)
        var t = 0.0
        func frameLater() {
            t += 1.0 / 60
            _ = window.render(into: frame, at: t)
        }
        frameLater()
        let feed = try #require(window.root.view(withID: "feed") as? ScrollView)
        feed.scroll(to: Point(x: 0, y: 300), animated: false)
        frameLater()
        func text(_ id: String) -> String? { (window.root.view(withID: id) as? Label)?.text }
        func firstLabel(in id: String) -> String? {
            var view = window.root.view(withID: id)
            while let v = view, !(v is Label) { view = v.children.first }
            return (view as? Label)?.text
        }
        let expected: [(String, String, String, String, LayoutDirection)] = [
            ("de", "Glide-Katalog", "Neuigkeiten", "Info", .leftToRight),
            ("ar", "كتالوج Glide", "الموجز", "حول", .rightToLeft),
            ("en", "Glide Catalog", "Feed", "About", .leftToRight),
        ]
        for (language, title, tab, about, direction) in expected {
            window.language = language
            frameLater()
            #expect(text("app-title") == title, "\(language)")
            #expect(firstLabel(in: "tab-feed") == tab, "\(language)")
            #expect(firstLabel(in: "about-button") == about, "\(language)")
            #expect(window.layoutDirection == direction, "\(language)")
            #expect(feed.sampledOffset.y == 300, "\(language): the feed moved to \(feed.sampledOffset.y)")
        }
    }
}
