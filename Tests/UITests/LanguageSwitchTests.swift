import Controls
import Geometry
import Localization
import Observation
import Raster
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

@Observable final class TicketModel {
    var count = 3
    var size = 1
    var confirming = false
}

/// An app with a string catalog switches language in place (issue 60): every literal-made text,
/// option, title and alert follows at the next frame, the layout mirrors when it follows the
/// language, and the model, the scroll position and the views stay what they were.
@Suite struct LanguageSwitchTests {
    static let catalog = #"""
        {"sourceLanguage": "en", "strings": {
          "Tickets": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "التذاكر"}}}},
          "Buy": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "اشترِ"}}}},
          "Reserve": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "احجز"}}}},
          "Small": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "صغير"}}}},
          "Large": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "كبير"}}}},
          "Size": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "الحجم"}}}},
          "Pay now?": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "الدفع الآن؟"}}}},
          "Cancel": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "إلغاء"}}}},
          "%lld tickets": {"localizations": {
            "en": {"variations": {"plural": {
              "one": {"stringUnit": {"state": "translated", "value": "%lld ticket"}},
              "other": {"stringUnit": {"state": "translated", "value": "%lld tickets"}}}}},
            "ar": {"variations": {"plural": {
              "zero": {"stringUnit": {"state": "translated", "value": "لا تذاكر"}},
              "one": {"stringUnit": {"state": "translated", "value": "تذكرة واحدة"}},
              "two": {"stringUnit": {"state": "translated", "value": "تذكرتان"}},
              "few": {"stringUnit": {"state": "translated", "value": "%lld تذاكر"}},
              "many": {"stringUnit": {"state": "translated", "value": "%lld تذكرة"}},
              "other": {"stringUnit": {"state": "translated", "value": "%lld تذكرة"}}}}}}}
        }}
        """#

    func setup() throws -> (Window, TicketModel) {
        let model = TicketModel()
        let rows = VStack(id: "rows") {}
        for i in 0..<30 { rows.add(Label("Reserve", id: "row-\(i)")) }
        let root = VStack(spacing: 8, padding: EdgeInsets(16)) {
            Label("Tickets", id: "heading", size: 28)
            Label("", id: "count").follow { $0.setText("\(model.count) tickets") }
            Button("Buy", id: "buy") { model.confirming = true }
            Label(verbatim: "Dubai Marina", id: "place")
            Picker("Size", id: "size", selection: Binding(model, \.size), options: ["Small", "Large"])
            ScrollView(id: "list", axes: .vertical, content: rows).frame(height: 200)
        }
        .alert("Pay now?", id: "pay", isPresented: Binding(model, \.confirming), buttons: [AlertButton("Cancel", role: .cancel)])
        let w = try makeWindow(root, width: 480, height: 800)
        w.stringCatalog = try StringCatalog(json: Array(Self.catalog.utf8))
        w.followsLanguageDirection = true
        _ = w.timers.runDue(upTo: 0)
        return (w, model)
    }

    func text(_ w: Window, _ id: String) -> String? { (w.holder.view(withID: id) as? Label)?.text }

    @Test func everyTextFollowsTheLanguageAtTheNextFrame() throws {
        let (w, model) = try setup()
        _ = w.frames(from: 0, to: 0.5)
        #expect(text(w, "heading") == "Tickets" && text(w, "count") == "3 tickets")
        let list = try #require(w.holder.view(withID: "list") as? ScrollView)
        list.scroll(to: Point(x: 0, y: 120), animated: false)
        _ = w.frames(from: 0.5, to: 0.55)
        let frame = PixelBuffer(width: w.pixelWidth, height: w.pixelHeight)
        w.language = "ar"
        _ = w.render(into: frame, at: 0.6)  // one frame
        #expect(text(w, "heading") == "التذاكر" && text(w, "count") == "3 تذاكر" && text(w, "row-7") == "احجز")
        #expect(text(w, "place") == "Dubai Marina")  // verbatim: never looked up
        #expect(w.layoutDirection == .rightToLeft)
        let buy = try #require(w.holder.view(withID: "buy"))
        #expect(buy.accessibilityDescription?.label == "اشترِ")
        let picker = try #require(w.holder.view(withID: "size"))
        #expect(picker.accessibilityDescription?.label == "الحجم" && picker.accessibilityDescription?.value?.hasPrefix("كبير") == true)
        // The model and the scroll position stayed.
        #expect(model.size == 1 && list.sampledOffset.y == 120)
        // Plurals: two, eleven; back to English.
        model.count = 2
        _ = w.timers.runDue(upTo: 0.65)
        _ = w.frames(from: 0.65, to: 0.7)
        #expect(text(w, "count") == "تذكرتان")
        model.count = 11
        _ = w.timers.runDue(upTo: 0.75)
        _ = w.frames(from: 0.75, to: 0.8)
        #expect(text(w, "count") == "11 تذكرة")
        w.language = "en"
        _ = w.render(into: frame, at: 0.9)
        #expect(text(w, "count") == "11 tickets" && w.layoutDirection == .leftToRight)
        model.count = 1
        _ = w.timers.runDue(upTo: 0.95)
        _ = w.frames(from: 0.95, to: 1.0)
        #expect(text(w, "count") == "1 ticket")
    }

    @Test func anAlertOnScreenSwitchesToo() throws {
        let (w, model) = try setup()
        model.confirming = true
        _ = w.timers.runDue(upTo: 0.1)
        _ = w.frames(from: 0.1, to: 1)
        #expect(w.state(at: 1, frameNumber: 0).modal?.title == "Pay now?")
        w.language = "ar-AE"
        _ = w.timers.runDue(upTo: 1.05)
        _ = w.frames(from: 1.05, to: 1.1)
        #expect(w.state(at: 1.1, frameNumber: 0).modal?.title == "الدفع الآن؟")
        #expect(text(w, "pay.button-0") == nil)  // a button, its title inside
        let cancel = try #require(w.holder.view(withID: "pay.button-0"))
        #expect(cancel.accessibilityDescription?.label == "إلغاء")
    }

    /// A navigation stack's titles are keys: the bar's title and the back button's words (and
    /// what the screen reader says for it) follow the language, and the pushed screen stays.
    @Test func navigationTitlesSwitchToo() throws {
        let nav = NavigationStack(id: "nav", root: Label("Reserve"), title: "Tickets")
        let w = try makeWindow(nav, width: 480, height: 800)
        w.stringCatalog = try StringCatalog(json: Array(Self.catalog.utf8))
        let place = "Dubai Marina"
        nav.push(Label("Buy"), title: "Buy", animated: false)
        nav.push(Label(verbatim: place), title: place, animated: false)
        _ = w.frames(from: 0, to: 0.1)
        func bar() -> (title: String?, back: String?, spoken: String?) {
            let back = w.holder.view(withID: "nav-back") as? Label
            let spoken = w.accessibilityElements().first { $0.view.id == "nav-back" }?.spokenText
            return ((w.holder.view(withID: "nav-bar")?.children.first as? Label)?.text, back?.text, spoken)
        }
        #expect(bar().title == place && bar().back == "Buy")
        nav.pop(animated: false)
        _ = w.frames(from: 0.1, to: 0.2)
        #expect(bar().title == "Buy" && bar().back == "Tickets")
        w.language = "ar"
        _ = w.frames(from: 0.2, to: 0.22)
        let now = bar()
        #expect(now.title == "اشترِ" && now.back == "التذاكر", "\(now)")
        #expect(now.spoken?.hasPrefix("رجوع, التذاكر") == true, "\(now)")
        #expect(nav.screens.count == 2)
    }
}
