import Geometry
import Localization
import Raster
import Scrolling
import Testing
@testable import UI

/// The environment handed down the tree: the built-in views' words follow the window's
/// language, the accent reaches every view that shows it, a subtree can change what it hands
/// down, and one slop and one double-tap interval serve every recogniser.
@Suite struct EnvironmentTests {
    func navigation() throws -> (Window, NavigationStack) {
        let nav = NavigationStack(id: "nav", root: Box(id: "home"), title: "Home")
        let w = try makeWindow(nav, width: 400, height: 400)
        nav.push(Box(id: "detail"), animated: false)
        w.frames(from: 0, to: 0.1)
        return (w, nav)
    }

    @Test func builtInWordsFollowTheWindowsLanguage() throws {
        let (w, nav) = try navigation()
        #expect(nav.bar.back.text == "Home")
        nav.push(Box(id: "more"), animated: false)
        w.frames(from: 0.1, to: 0.2)
        #expect(nav.bar.back.text == "Back")
        w.language = "de"
        w.frames(from: 0.2, to: 0.3)
        #expect(nav.bar.back.text == "Zurück")
        w.language = "ja-JP"
        w.frames(from: 0.3, to: 0.4)
        #expect(nav.bar.back.text == "戻る")
        // A language without a table reads English.
        w.language = "sw"
        w.frames(from: 0.4, to: 0.5)
        #expect(nav.bar.back.text == "Back")
    }

    @Test func aPageControlSaysItsPageInTheWindowsLanguage() throws {
        let pager = pagingScrollView(7)
        let control = PageControl(id: "dots", scrollView: pager)
        let w = try makeWindow(Stack(.vertical, children: [pager.frame(height: 300), control.frame(height: 40)]))
        w.frames(from: 0, to: 0.1)
        func value() -> String? { w.accessibilityElements().first { $0.role == .pageControl }?.value }
        #expect(value() == "Page 1 of 7")
        w.language = "fr"
        #expect(value() == "Page 1 sur 7")
        w.language = "de"
        #expect(value() == "Seite 1 von 7")
    }

    @Test func everyTableHasEveryWord() {
        #expect(
            BuiltInStrings.languages == [
                "ar", "de", "el", "en", "es", "fa", "fr", "he", "it", "ja", "nl", "pl", "pt", "ru", "tr", "uk",
            ])
        let english = BuiltInStrings(language: "en")
        for language in BuiltInStrings.languages {
            let strings = BuiltInStrings(language: language)
            #expect(strings.missingWords.isEmpty, "\(language) lacks \(strings.missingWords)")
            for word in BuiltInStrings.Word.allCases {
                #expect(strings[word].filter { $0 == "%" }.count == english[word].filter { $0 == "%" }.count, "\(language) \(word)")
            }
        }
        #expect(BuiltInStrings(language: "en").format(.rowsOf, 10, 18, 500) == "Rows 10 to 18 of 500")
        #expect(BuiltInStrings(language: "fr").format(.editing, "Nom") == "Modification de Nom")
    }

    /// Every table says "page 3 of 7" in its own words: both numbers, no placeholder left, and not
    /// the English sentence.
    @Test func everyLanguageSaysWhichPageOfHowMany() {
        #expect(BuiltInStrings.languages.count == 16)
        let english = BuiltInStrings(language: "en").format(.pageOf, 3, 7)
        for language in BuiltInStrings.languages {
            let page = BuiltInStrings(language: language).format(.pageOf, 3, 7)
            #expect(page.contains("3") && page.contains("7") && !page.contains("%"), "\(language): \(page)")
            #expect((page == english) == (language == "en"), "\(language): \(page)")
        }
    }

    @Test func theAccentReachesTheBackButton() throws {
        let (w, nav) = try navigation()
        #expect(nav.bar.back.color == .accent)
        w.accent = Color(rgb: 0xD00000)
        w.frames(from: 0.1, to: 0.2)
        #expect(nav.bar.back.environment.theme.resolve(nav.bar.back.color) == Color(rgb: 0xD00000))
    }

    @Test func aSubtreeChangesWhatItHandsDown() throws {
        let inner = Box(id: "inner")
        let outer = Box(id: "outer"), sibling = Box(id: "sibling")
        outer.add(inner)
        let w = try makeWindow(Stack(.vertical, children: [outer, sibling]))
        w.frames(from: 0, to: 0.1)
        #expect(inner.environment.theme.accent == Theme.light.accent)
        outer.transformEnvironment {
            $0.lightTheme.accent = Color(rgb: 0x00A000); $0.strings = BuiltInStrings(language: "ja")
        }
        #expect(inner.environment.theme.accent == Color(rgb: 0x00A000))
        #expect(inner.environment.strings[.back] == "戻る")
        // The window's own settings still reach the subtree through what it did not change.
        w.touchSlop = 12
        #expect(inner.environment.gestures.touchSlop == 12)
        #expect(sibling.environment.theme.accent == Theme.light.accent)
    }

    @Test func oneSlopAndOneDoubleTapIntervalReachTheScrollViews() throws {
        let sv = pagingScrollView(3)
        let wrapper = Box(id: "wrapper")
        wrapper.add(sv)
        let w = try makeWindow(wrapper)
        w.touchSlop = 11
        wrapper.transformEnvironment { $0.gestures.doubleTapInterval = 0.45 }
        w.frames(from: 0, to: 0.1)
        #expect(sv.configuration.touchSlop == 11)
        #expect(sv.configuration.doubleTapInterval == 0.45)
        #expect(sv.environment.gestures.touchSlop == 11)
    }

    /// Records what the drawing context hands it.
    final class Probe: View {
        var accents: [Color] = []
        var languages: [String] = []
        override func draw(in context: inout DrawContext) {
            accents.append(context.theme.accent)
            languages.append(context.environment.strings.language)
        }
    }

    @Test func drawingSeesTheWindowsEnvironmentAndASubtreesChange() throws {
        let plain = Probe(id: "plain"), changed = Probe(id: "changed")
        let wrapper = Box(id: "wrapper")
        wrapper.add(changed)
        let w = try makeWindow(Stack(.vertical, children: [plain.frame(height: 100), wrapper.frame(height: 100)]))
        w.accent = Color(rgb: 0xD00000)
        w.language = "fr"
        wrapper.transformEnvironment { $0.lightTheme.accent = Color(rgb: 0x00A000) }
        w.frames(from: 0, to: 0.1)
        #expect(plain.accents.last == Color(rgb: 0xD00000))
        #expect(plain.languages.last == "fr")
        #expect(changed.accents.last == Color(rgb: 0x00A000))
        #expect(changed.languages.last == "fr")
    }

    @Test func aScrollViewsContentDrawsWithItsOwnChange() throws {
        let probe = Probe(id: "probe")
        let content = Stack(.vertical, children: [probe.frame(height: 100)])
        content.transformEnvironment { $0.lightTheme.accent = Color(rgb: 0x00A000) }
        let w = try makeWindow(ScrollView(id: "list", content: content))
        w.frames(from: 0, to: 0.1)
        #expect(probe.accents.last == Color(rgb: 0x00A000))
    }

    @Test func aFieldInATappableRowSaysItsPlaceholder() throws {
        let row = Stack(.horizontal, children: [Label("Name"), TextField(id: "name", placeholder: "Your name")])
        row.onTap = {}
        let w = try makeWindow(Stack(.vertical, children: [row.frame(height: 60)]))
        w.frames(from: 0, to: 0.1)
        #expect(w.accessibilityElements().first?.label == "Name, Your name")
    }
}
