import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// The accessibility tree and the screen reader's gestures.
@Suite struct AccessibilityTests {
    final class Said: SpeechOutput {
        var lines: [Utterance] = []
        var stops = 0
        func speak(_ u: Utterance) { lines.append(u) }
        func stop(at t: Double) { stops += 1 }
    }

    static func screen(taps: @escaping (String) -> Void = { _ in }) -> View {
        let rows = LazyVStack(id: "rows", count: 500) { i in
            Stack(
                .horizontal, id: "row-\(i)", spacing: 8, padding: EdgeInsets(10),
                children: [
                    Label("Train \(i)", size: 17, maxLines: 1), Label("Platform \(i % 9 + 1)", size: 15, maxLines: 1),
                ]
            ).onTap { taps("row-\(i)") }
        }
        let list = ScrollView(id: "list", content: rows)
        let title = Label("Departures", size: 28)
        let icon = ImageView(nil, id: "logo", width: 40, height: 40).accessibilityLabel("Glide logo")
        let deco = ImageView(nil, id: "decoration", width: 40, height: 40)
        let close = Box(id: "close", fill: .black, width: 44, height: 44).onTap { taps("close") }
            .accessibilityLabel("Close").accessibilityHint("Back to the start")
        let hidden = Label("Debug 42", size: 12).accessibilityHidden()
        let header = Stack(.horizontal, spacing: 8, padding: EdgeInsets(8), children: [icon, deco, title, close, hidden])
        return Stack(.vertical, children: [header, list.flexible()])
    }

    @Test func treeFromContent() throws {
        let w = try makeWindow(Self.screen(), width: 480, height: 400)
        let tree = w.accessibilityElements()
        #expect(tree.first?.role == .image && tree.first?.label == "Glide logo")
        #expect(!tree.contains { $0.view.id == "decoration" })
        #expect(tree.contains { $0.role == .heading && $0.label == "Departures" })
        let close = tree.first { $0.view.id == "close" }
        #expect(close?.role == .button && close?.spokenText == "Close, button, Back to the start")
        #expect(!tree.contains { $0.label == "Debug 42" })
        let list = tree.first { $0.role == .scrollArea }
        #expect(list?.value?.hasPrefix("Rows 1 to ") == true && list?.value?.hasSuffix(" of 500") == true, "\(list?.value ?? "")")
        let row = tree.first { $0.view.id == "row-0" }
        #expect(row?.role == .listRow && row?.label == "Train 0, Platform 1")
        // Only the built rows are elements: the list's other 490-odd rows cost nothing.
        #expect(tree.filter { $0.view.id?.hasPrefix("row-") == true }.count < 20)
        let state = w.state(at: 0, frameNumber: 0)
        #expect(state.accessibility.count == tree.count)
        #expect(state.accessibility.contains { $0.role == "scroll area" && $0.frame[3] > 300 })
    }

    @Test func exploreDoubleTapAndStop() throws {
        var tapped: [String] = []
        let w = try makeWindow(Self.screen { tapped.append($0) }, width: 480, height: 400)
        _ = w.scheduler?.runDue(upTo: 0)  // the loop's clock starts at 0
        let said = Said()
        w.speech = said
        w.isScreenReaderEnabled = true
        let close = w.root.view(withID: "close")!.frameInWindow
        // One finger on the close button: it is said, nothing is pressed.
        w.touch(.down, close.midX, close.midY, at: 0.1)
        w.touch(.up, close.midX, close.midY, at: 0.15)
        _ = w.scheduler?.runDue(upTo: 0.6)  // no second tap came: it is said
        #expect(said.lines.last?.text == "Close, button, Back to the start")
        #expect(tapped.isEmpty)
        // A double tap anywhere activates it.
        w.tap(100, 300, at: 1.0)
        w.tap(100, 300, at: 1.2)
        #expect(tapped == ["close"])
        // A finger moving down the list says each row it crosses.
        let row = w.root.view(withID: "row-2")!.frameInWindow
        w.touch(.down, 100, 20, at: 2)
        w.touch(.move, 100, row.midY, at: 2.5)
        w.touch(.up, 100, row.midY, at: 2.6)
        #expect(said.lines.last?.text == "Train 2, Platform 3, list row")
        // Two fingers tap: silence.
        w.touch(.down, 100, 200, at: 3, slot: 0); w.touch(.down, 200, 200, at: 3, slot: 1)
        w.touch(.up, 100, 200, at: 3.1, slot: 0); w.touch(.up, 200, 200, at: 3.1, slot: 1)
        #expect(said.stops == 1)
        #expect(w.state(at: 3.2, frameNumber: 0).utterances.count == said.lines.count)
    }

    @Test func keypadMovesActivatesRepeatsAndToggles() throws {
        var tapped: [String] = []
        let w = try makeWindow(Self.screen { tapped.append($0) }, width: 480, height: 400)
        let said = Said()
        w.speech = said
        w.key(.keypadAsterisk, at: 0.1)  // the toggle works while the reader is off
        #expect(w.isScreenReaderEnabled && said.lines.last?.text == "Screen reader on")
        w.key(.keypad6, at: 0.2)
        #expect(said.lines.last?.text == "Glide logo, image")
        w.key(.keypad6, at: 0.3); w.key(.keypad6, at: 0.4)
        #expect(said.lines.last?.text == "Close, button, Back to the start")
        w.key(.keypad5, at: 0.5)
        #expect(tapped == ["close"])
        w.key(.keypadDot, at: 0.6)
        #expect(said.lines.last?.text == "Close, button, Back to the start" && said.lines.last?.t == 0.6)
        w.key(.keypadMinus, at: 0.7)
        #expect(said.lines.last?.text == "Volume 90 percent")
        w.key(.keypad4, at: 0.8)
        #expect(said.lines.last?.text == "Departures, heading")
        // On through the list's rows (the elements on screen, in reading order).
        for i in 0..<4 { w.key(.keypad2, at: 1 + Double(i) * 0.1) }
        #expect(said.lines.last?.text == "Train 1, Platform 2, list row")
        w.key(.keypadAsterisk, at: 3)
        #expect(!w.isScreenReaderEnabled && said.lines.last?.text == "Screen reader off")
        #expect(
            KeypadMapping.parse("next:KP6 previous:KP4,toggle:KPAsterisk")
                == .success(KeypadMapping(actions: [.keypad6: .next, .keypad4: .previous, .keypadAsterisk: .toggle])))
        #expect(KeypadMapping.parse("next:KP66") == .failure(KeypadMapping.ParseFailure(item: "next:KP66")))
    }

    /// An app's own adjustable view: a swipe up or down calls it and says its new value.
    @Test func adjustableViewsTakeSwipes() throws {
        var level = 3
        let knob = Box(id: "volume", fill: .black, width: 200, height: 100)
        knob.accessibilityLabel("Volume").accessibilityValue("3 of 5")
        knob.accessibilityAdjustable { step in
            level = max(0, min(5, level + step))
            knob.accessibilityValue("\(level) of 5")
        }
        let w = try makeWindow(Stack(.vertical, padding: EdgeInsets(20), children: [knob, Spacer()]), width: 400, height: 400)
        let said = Said()
        w.speech = said
        w.isScreenReaderEnabled = true
        #expect(w.accessibilityElements().first?.role == .adjustable)
        w.touch(.down, 100, 90, at: 0.1); w.touch(.move, 100, 80, at: 0.3); w.touch(.up, 100, 80, at: 0.35)
        #expect(said.lines.last?.text == "Volume, 3 of 5, adjustable")
        w.touch(.down, 100, 90, at: 1); w.touch(.move, 100, 30, at: 1.1); w.touch(.up, 100, 30, at: 1.15)
        #expect(level == 4 && said.lines.last?.text == "4 of 5")
        w.touch(.down, 100, 30, at: 2); w.touch(.move, 100, 95, at: 2.1); w.touch(.up, 100, 95, at: 2.15)
        #expect(level == 3 && said.lines.last?.text == "3 of 5")
        // An ordinary swipe: 80 points up in a quarter of a second (320 points a second), in
        // the steps a touchscreen reports, adjusts; the same path over a second explores.
        func swipe(from t: Double, seconds: Double) {
            w.touch(.down, 100, 90, at: t)
            for i in 1...16 { w.touch(.move, 100, 90 - Double(i) * 5, at: t + seconds * Double(i) / 16) }
            w.touch(.up, 100, 10, at: t + seconds + 0.01)
        }
        swipe(from: 3, seconds: 0.25)
        #expect(level == 4)
        swipe(from: 4, seconds: 1)
        #expect(level == 4)
    }

    /// A finger that lands on an element and rests there, still (no motion from the sensor),
    /// hears it without moving; a quick tap still waits for a second one.
    @Test func aRestingFingerHearsTheElementAtOnce() throws {
        let w = try makeWindow(Self.screen(), width: 480, height: 400)
        _ = w.scheduler?.runDue(upTo: 0)  // the loop's clock starts at 0
        let said = Said()
        w.speech = said
        w.isScreenReaderEnabled = true
        let close = try #require(w.root.view(withID: "close")).frameInWindow
        w.touch(.down, close.midX, close.midY, at: 0.1)
        _ = w.scheduler?.runDue(upTo: 0.3)
        #expect(said.lines.last?.text == "Close, button, Back to the start")
        w.touch(.up, close.midX, close.midY, at: 0.5)
    }

    /// The back button says what it does and where it goes, not its chevron; a scroll view of
    /// paragraphs is not a list of rows.
    @Test func theBackButtonAndAnArticleSayWhatTheyAre() throws {
        let nav = NavigationStack(id: "nav", root: Label("Wayfinder", size: 20), title: "Wayfinder")
        let article = ScrollView(
            id: "article",
            content: Stack(.vertical, children: (0..<2).map { Label(String(repeating: "Words and more words. ", count: 40), id: "p\($0)") })
        )
        let w = try makeWindow(nav, width: 400, height: 400)
        nav.push(article, title: "Opening hours")
        w.frames(from: 0, to: 1)
        let back = w.accessibilityElements().first { $0.view.id == "nav-back" }
        #expect(back?.spokenText == "Back, Wayfinder, button")
        let scroll = w.accessibilityElements().first { $0.view.id == "article" }
        #expect(scroll?.value?.hasPrefix("Rows") == false)
    }

    @Test func threeFingersScrollAPageAndSayWhere() throws {
        let w = try makeWindow(Self.screen(), width: 480, height: 400)
        let said = Said()
        w.speech = said
        w.isScreenReaderEnabled = true
        for (slot, x) in [100.0, 200, 300].enumerated() { w.touch(.down, x, 300, at: 0.1, slot: slot) }
        for (slot, x) in [100.0, 200, 300].enumerated() { w.touch(.move, x, 200, at: 0.2, slot: slot) }
        for (slot, x) in [100.0, 200, 300].enumerated() { w.touch(.up, x, 200, at: 0.25, slot: slot) }
        let screen = PixelBuffer(width: 480, height: 400)
        _ = w.frames(from: 0.3, to: 2, into: screen)
        let list = w.scrollView("list")
        #expect(list.sampledOffset.y > 200)
        #expect(said.lines.last?.text.hasPrefix("Rows ") == true && said.lines.last?.text.hasSuffix(" of 500") == true)
        #expect(said.lines.last?.text != "Rows 1 to 8 of 500")
    }
}

extension AccessibilityTests {
    /// Arabic and Hebrew words are spoken with their own voices, known by their script; a view
    /// may name its language; the rest speaks the window's language, role words included.
    @Test func eachLabelIsSpokenInItsLanguage() throws {
        let labels: [(String, String?)] = [("مرحبا بكم", nil), ("ברוכים הבאים", nil), ("Ausgang", "de"), ("Exit", nil), ("12", nil)]
        let column = Stack(.vertical, spacing: 10, padding: EdgeInsets(10))
        for (i, (text, language)) in labels.enumerated() {
            let label = Label(text, id: "label-\(i)", size: 20)
            if let language { label.accessibilityLanguage(language) }
            column.add(label)
        }
        let w = try makeWindow(column, width: 400, height: 400)
        _ = w.scheduler?.runDue(upTo: 0)
        let said = Said()
        w.speech = said
        w.isScreenReaderEnabled = true
        for i in labels.indices {
            let f = w.root.view(withID: "label-\(i)")!.frameInWindow
            let t = 0.5 + Double(i)
            w.touch(.down, f.midX, f.midY, at: t)
            w.touch(.up, f.midX, f.midY, at: t + 0.05)
            _ = w.scheduler?.runDue(upTo: t + 0.5)
        }
        #expect(said.lines.map(\.lang) == ["ar", "he", "de", "en", "en"])
        // An Arabic window speaks what has no language of its own in Arabic.
        w.language = "ar"
        let f = w.root.view(withID: "label-3")!.frameInWindow
        w.touch(.down, f.midX, f.midY, at: 6)
        w.touch(.up, f.midX, f.midY, at: 6.05)
        _ = w.scheduler?.runDue(upTo: 6.5)
        #expect(said.lines.last?.lang == "ar")
    }
}
