import Geometry
import ImageCodecs
import Raster
import Runtime
import Scrolling
import Testing
import TestSupport
import TextEditing
@testable import UI

/// Text fields, the on-screen keyboard and keyboard avoidance.
@Suite struct TextEntryTests {
    /// A form: a title, fields down a scroll view, a text area, more rows under them.
    static func form() -> View {
        let column = Stack(.vertical, id: "form", spacing: 12, padding: EdgeInsets(16))
        column.add(Label("Check-in", size: 28))
        column.add(TextField(id: "name", placeholder: "Full name"))
        let mail = TextField(id: "email", placeholder: "E-mail")
        mail.contentType = .email
        column.add(mail)
        let pin = TextField(id: "pin", placeholder: "PIN")
        pin.contentType = .pin
        pin.isSecure = true
        pin.maximumLength = 6
        column.add(pin)
        for i in 0..<6 { column.add(Box(id: "filler-\(i)", fill: Color(rgb: 0xDDE3EA), cornerRadius: 8, height: 60)) }
        column.add(TextArea(id: "notes", placeholder: "Notes"))
        column.add(TextField(id: "last", placeholder: "Last field"))
        return ScrollView(id: "page", content: column)
    }

    func field(_ w: Window, _ id: String) -> TextInputView { w.root.view(withID: id) as! TextInputView }

    /// The form at 800x480 with the name field holding `text`, tapped, and its keyboard (of
    /// `layout`) up at 0.5 s.
    func focusedName(layout: String? = nil, text: String? = nil) throws -> (Window, TextInputView) {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name")
        if let layout { name.keyboardLayout = layout }
        if let text { name.text = text }
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 0.5)
        return (w, name)
    }

    func center(_ w: Window, _ id: String) -> Point {
        let f = w.root.view(withID: id)!.frameInWindow
        return Point(x: f.midX * w.scaleFactor, y: f.midY * w.scaleFactor)
    }

    func type(_ w: Window, _ s: String, at t: Double) { w.handle(InputEvent(.text(s), time: t)) }

    /// Taps the on-screen key labelled `label` where the state JSON says it is.
    func tapKey(_ w: Window, _ label: String, at t: Double) {
        let state = w.state(at: t, frameNumber: 0)
        guard let key = state.keyboard?.keys.first(where: { $0.label == label }) else {
            Issue.record("no key \(label) in \(state.keyboard?.keys.map(\.label) ?? [])"); return
        }
        w.tap(key.frame[0] + key.frame[2] / 2, key.frame[1] + key.frame[3] / 2, at: t)
    }

    /// Frames at 60 Hz from `from` to `to`, running the window's timers first, as a loop does.
    func run(_ w: Window, from: Double, to: Double) {
        var t = from
        while t <= to + 1e-9 {
            _ = w.scheduler?.runDue(upTo: t)
            _ = w.frames(from: t, to: t)
            t += 1.0 / 60
        }
    }

    func keyboardTop(_ w: Window) -> Double { w.keyboardFrame.map { $0.minY } ?? Double(w.pixelHeight) / w.scaleFactor }

    @Test func typingOnTheKeys() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        var submitted: [String] = []
        var changes = 0
        let name = field(w, "name")
        name.onSubmit = { submitted.append($0) }
        name.onChange = { _ in changes += 1 }
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 0.5)
        #expect(w.state(at: 0.5, frameNumber: 0).keyboard?.visible == true)
        tapKey(w, "⇧", at: 0.6)
        tapKey(w, "H", at: 0.8)  // shifted once: the labels are capitals
        tapKey(w, "i", at: 1.0)
        tapKey(w, "123", at: 1.2)
        tapKey(w, "!", at: 1.4)
        tapKey(w, "ABC", at: 1.6)
        tapKey(w, "space", at: 1.8)
        tapKey(w, "⌫", at: 2.0)
        #expect(name.text == "Hi!")
        #expect(changes == 5)
        tapKey(w, "return", at: 2.2)
        #expect(submitted == ["Hi!"])
        #expect(w.focusedView == nil)  // a field's return gives up focus
        _ = w.frames(from: 2.3, to: 2.8)
        #expect(w.state(at: 2.8, frameNumber: 0).keyboard?.visible == false)
        #expect(w.keyboardFrame == nil)
    }

    @Test func holdingDeleteRepeats() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        type(w, "abcdefghij", at: 0.2)
        _ = w.frames(from: 0.3, to: 0.5)
        let key = w.state(at: 0.5, frameNumber: 0).keyboard!.keys.first { $0.label == "⌫" }!
        w.touch(.down, key.frame[0] + 10, key.frame[1] + 10, at: 0.6)
        run(w, from: 0.6, to: 1.35)  // once at once, after 0.5 s every 0.1 s
        w.touch(.up, key.frame[0] + 10, key.frame[1] + 10, at: 1.35)
        #expect(field(w, "name").text == "abcdefghij".dropLast(1 + 3).description)
    }

    /// A finger holding delete while another turns to the symbols page (whose rows are shorter):
    /// the held key is looked up on the new page safely, and typing goes on.
    @Test func aHeldKeyAcrossAPageChange() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        type(w, "abc", at: 0.2)
        run(w, from: 0.3, to: 0.5)
        let keys = w.state(at: 0.5, frameNumber: 0).keyboard!.keys
        let delete = keys.first { $0.label == "⌫" }!, page = keys.first { $0.label == "123" }!
        w.touch(.down, delete.frame[0] + 5, delete.frame[1] + 5, at: 0.6, slot: 0)
        w.touch(.down, page.frame[0] + 5, page.frame[1] + 5, at: 0.7, slot: 1)
        w.touch(.up, page.frame[0] + 5, page.frame[1] + 5, at: 0.75, slot: 1)
        run(w, from: 0.76, to: 1.4)
        w.touch(.up, delete.frame[0] + 5, delete.frame[1] + 5, at: 1.4, slot: 0)
        #expect(w.state(at: 1.5, frameNumber: 0).keyboard?.page == "symbols")
        tapKey(w, "7", at: 1.6)
        #expect(field(w, "name").text.hasSuffix("7"))
    }

    @Test func kanaAndPinPad() throws {
        let (w, name) = try focusedName(layout: "ja")
        #expect(w.state(at: 0.5, frameNumber: 0).keyboard?.layout == "ja")
        for (i, k) in ["か", "゛", "つ", "小", "は", "゜", "カナ", "マ"].enumerated() { tapKey(w, k, at: 0.6 + 0.2 * Double(i)) }
        #expect(name.text == "がっぱマ")
        let pin = center(w, "pin")
        w.tap(pin.x, pin.y, at: 3)
        _ = w.frames(from: 3.1, to: 3.5)
        let state = w.state(at: 3.5, frameNumber: 0)
        #expect(state.keyboard?.layout == "pin" && state.keyboard?.page == "pad")
        for (i, k) in ["1", "2", "3", "4", "5", "6", "7"].enumerated() { tapKey(w, k, at: 3.6 + 0.2 * Double(i)) }
        let shown = w.state(at: 5, frameNumber: 0).textFields.first { $0.id == "pin" }!
        #expect(shown.text == "••••••" && shown.secure)  // six at most, shown as dots
        #expect(field(w, "pin").text == "123456")
        tapKey(w, "C", at: 5.2)
        #expect(field(w, "pin").text == "")
    }

    /// The field just above the keys, scrolled the minimal amount; when the keyboard goes, the
    /// content follows it down without a jump.
    @Test func avoidanceInsetsTheScrollView() throws {
        for (width, height) in [(800, 480), (1280, 800), (480, 800), (1024, 600)] {
            let w = try makeWindow(Self.form(), width: width, height: height)
            let page = w.scrollView("page")
            page.scroll(to: Point(x: 0, y: 1000), animated: false)  // the end: "last" on screen
            _ = w.frames(from: 0, to: 0.05)
            let before = page.sampledOffset.y
            let p = center(w, "last")
            w.tap(p.x, p.y, at: 0.1)
            _ = w.frames(from: 0.2, to: 1.0)
            let f = w.root.view(withID: "last")!.frameInWindow
            let top = keyboardTop(w)
            #expect(f.maxY <= top + 0.5 && f.maxY >= top - 4.5, "\(width)x\(height): field ends at \(f.maxY), keys at \(top)")
            #expect(page.keyboardInset > 0)
            #expect(page.sampledOffset.y > before)
            // The keyboard goes: the content follows the keys down, never faster than they move.
            field(w, "last").window?.focus(nil)
            var last = page.sampledOffset.y, lastTop = keyboardTop(w)
            for n in 1...30 {
                _ = w.frames(from: 1.0 + Double(n) / 60, to: 1.0 + Double(n) / 60)
                let moved = abs(page.sampledOffset.y - last), keys = abs(keyboardTop(w) - lastTop)
                #expect(moved <= keys + 0.001, "\(width)x\(height): frame \(n): the content moved \(moved), the keys \(keys)")
                last = page.sampledOffset.y; lastTop = keyboardTop(w)
            }
            #expect(abs(last - before) < 0.5)
            #expect(page.keyboardInset == 0)
        }
    }

    /// A field in no scroll view moves up with the screen, just enough, and back.
    @Test func fieldOutsideScrollViewsPansTheScreen() throws {
        let column = Stack(.vertical, id: "column", spacing: 8, padding: EdgeInsets(8))
        column.add(list(30))
        column.add(TextField(id: "bottom", placeholder: "At the bottom"))
        let w = try makeWindow(column, width: 800, height: 480)
        let p = center(w, "bottom")
        w.tap(p.x, p.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 1.0)
        let f = w.root.view(withID: "bottom")!.frameInWindow
        #expect(abs(f.maxY + 8 - keyboardTop(w)) < 0.5)
        #expect(w.root.frame.minY < 0)
        w.focus(nil)
        _ = w.frames(from: 1.1, to: 1.6)
        #expect(w.root.frame.minY == 0)
    }

    /// Typing while a list flings in the same window changes nothing of the fling.
    @Test func typingLeavesMotionAlone() throws {
        func run(typing: Bool) throws -> Double {
            let column = Stack(.vertical, id: "column", spacing: 8, padding: EdgeInsets(8))
            let search = TextField(id: "search", placeholder: "Search")
            column.add(search)
            column.add(list(200))
            let w = try makeWindow(column, width: 800, height: 800)
            w.focus(search)
            _ = w.frames(from: 0, to: 0.5)
            w.drag(from: Point(x: 400, y: 300), to: Point(x: 400, y: 100), at: 0.6, duration: 0.08)
            for n in 0..<120 {
                let t = 0.7 + Double(n) / 60
                if typing, n % 6 == 0 { type(w, "x", at: t) }
                _ = w.frames(from: t, to: t)
            }
            if typing { #expect(search.text.count == 20) }
            return w.scrollView("list").sampledOffset.y
        }
        let plain = try run(typing: false), typed = try run(typing: true)
        #expect(plain > 500)
        #expect(plain == typed)
    }

    /// A barcode scanner: 13 digits and Enter in 20 ms, as key presses with their text.
    @Test func scannerFillsAndSubmits() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        w.hasHardwareKeyboard = true
        let name = field(w, "name")
        var submitted: String?
        name.onSubmit = { submitted = $0 }
        w.focus(name)
        #expect(w.state(at: 0, frameNumber: 0).keyboard?.visible == false)  // a keyboard is attached
        let code = "4006381333931"
        for (i, c) in code.enumerated() {
            let t = 0.1 + Double(i) * 0.0014
            let digit = Int(String(c))!
            let key = Key(code: digit == 0 ? 11 : 1 + digit)  // KEY_1 … KEY_0
            w.handle(InputEvent(.key(key, pressed: true), time: t))
            w.handle(InputEvent(.text(String(c)), time: t))
            w.handle(InputEvent(.key(key, pressed: false), time: t + 0.0005))
        }
        w.key(.enter, at: 0.12)
        #expect(submitted == code)
    }

    @Test func badInputKeepsAValidText() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        type(w, "nobody listens", at: 0.05)  // no field has focus: dropped
        #expect(field(w, "name").text.isEmpty)
        let notes = field(w, "notes")
        w.focus(notes)
        let mega = String(repeating: "ab\u{0}c\u{1B}\r\n", count: 200_000)
        type(w, mega, at: 0.1)
        #expect(notes.text.count == TextEditor.absoluteMaximumLength)
        #expect(!notes.text.contains("\u{0}") && !notes.text.contains("\u{1B}") && !notes.text.contains("\r"))
        _ = w.frames(from: 0.2, to: 0.3)
        w.focus(field(w, "name"))
        type(w, "\u{202E}evil\u{0}", at: 0.4)  // an override mark is kept, NUL is not
        #expect(field(w, "name").text == "\u{202E}evil")
        _ = w.frames(from: 0.5, to: 0.6)
    }

    func tapElement(_ w: Window, _ id: String, at t: Double) {
        guard let e = w.state(at: t, frameNumber: 0).elements.first(where: { $0.id == id }) else {
            Issue.record("no element \(id)"); return
        }
        w.tap(e.frame[0] + e.frame[2] / 2, e.frame[1] + e.frame[3] / 2, at: t)
    }

    /// Long press selects a word and shows the menu; Copy, then Paste at the end of another field.
    @Test func copyAndPasteThroughTheEditMenu() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name"), mail = field(w, "email")
        name.text = "Ada Lovelace"
        let f = name.frameInWindow
        w.touch(.down, f.minX + 30, f.midY, at: 0.1)  // on "Ada"
        _ = w.frames(from: 0.1, to: 0.7)
        w.touch(.up, f.minX + 30, f.midY, at: 0.7)
        #expect(name.selection == 0..<3)
        #expect(w.state(at: 0.8, frameNumber: 0).elements.contains { $0.id == "edit-menu-copy" })
        tapElement(w, "edit-menu-copy", at: 0.9)
        #expect(w.pasteboard == "Ada")
        let m = center(w, "email")
        w.tap(m.x, m.y, at: 1.2)
        mail.text = "countess@"
        w.touch(.down, m.x, m.y, at: 1.5)
        _ = w.frames(from: 1.5, to: 2.1)
        w.touch(.up, m.x, m.y, at: 2.1)
        tapElement(w, "edit-menu-select-all", at: 2.3)
        #expect(mail.selection == 0..<9)
        tapElement(w, "edit-menu-paste", at: 2.5)
        #expect(mail.text == "Ada")
        // Secure text is never copied.
        let pin = field(w, "pin")
        pin.text = "1234"
        w.focus(pin)
        pin.selection = 0..<4
        w.key(.leftControl, at: 3)
        w.handle(InputEvent(.key(.leftControl, pressed: true), time: 3.1))
        w.key(.c, at: 3.1)
        w.handle(InputEvent(.key(.leftControl, pressed: false), time: 3.1))
        #expect(w.pasteboard == "Ada")
    }

    /// A selection handle held below a text area's edge scrolls the text and extends the
    /// selection as the text moves under the finger.
    @Test func handleDraggedPastTheEdgeAutoscrolls() throws {
        let area = TextArea(id: "notes")
        area.text = (1...60).map { "Line \($0)" }.joined(separator: "\n")
        let column = Stack(.vertical, spacing: 8, padding: EdgeInsets(8), children: [area, Spacer()])
        area.height = 200
        let w = try makeWindow(column, width: 480, height: 400)
        w.onScreenKeyboard = .never
        w.focus(area)
        area.selection = 0..<4
        _ = w.frames(from: 0, to: 0.1)
        let handle = area.handles.end.frameInWindow
        let start = Point(x: handle.midX, y: handle.midY)
        w.touch(.down, start.x, start.y, at: 0.2)
        w.touch(.move, start.x, 230, at: 0.25)  // 30 points below the area's edge
        run(w, from: 0.26, to: 1.5)
        w.touch(.up, start.x, 230, at: 1.5)
        #expect(area.scroller.sampledOffset.y > 100)
        #expect(area.selection.lowerBound == 0 && area.selection.upperBound > 100, "\(area.selection)")
    }

    @Test func rightToLeftAndReadOnlyKeepTheirText() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name")
        w.focus(name)
        type(w, "שלום עולם مرحبا", at: 0.1)
        for k in [Key.right, .right, .backspace, .home, .delete, .end] { w.key(k, at: 0.2) }
        // The paragraph runs right to left (its first letter is Hebrew): the right arrow goes
        // back, two characters from the end; delete the one before (ح), then the first
        // character of the text.
        #expect(name.text == "לום עולם مربا")
        _ = w.frames(from: 0.3, to: 0.4)
        let notes = field(w, "notes")
        notes.isReadOnly = true
        notes.text = "Read me"
        w.focus(notes)
        type(w, "no", at: 0.5)
        w.key(.backspace, at: 0.5)
        #expect(notes.text == "Read me")
        _ = w.frames(from: 0.6, to: 1.0)
        #expect(w.state(at: 1.0, frameNumber: 0).keyboard?.visible == false)
    }

    /// Every frame while the keyboard slides in and out, with a list scrolling under it, equals
    /// a full redraw.
    /// Tab to a field low in a form: while the keyboard slides up and the form scrolls the field
    /// above it, the field's focus ring is covered by the keys as the field is, never drawn over
    /// them.
    @Test func theRingOfAFieldUnderTheKeyboardIsCoveredByIt() throws {
        let field = TextField(id: "low", placeholder: "Name")
        let form = Stack(.vertical, padding: EdgeInsets(8), children: [Spacer(length: 330), field, Spacer(length: 400)])
        let w = try makeWindow(ScrollView(id: "form", content: form), width: 480, height: 400)
        let frame = PixelBuffer(width: 480, height: 400)
        _ = w.render(into: frame, at: 0)
        w.key(.tab, at: 0.1)
        #expect(w.focusedView === field)
        var ringOverKeys = 0
        for n in 7...30 {
            let t = Double(n) / 60
            _ = w.render(into: frame, at: t)
            guard w.keyboardHost.keyboard != nil else { continue }
            // The keyboard's rows: its grey at the left edge, under the keys.
            let grey = frame[1, 399], accent = w.accent.premultiplied.argb
            for y in 0..<400 where frame[1, y] == grey {
                for x in 0..<480 where frame[x, y] == accent { ringOverKeys += 1 }
            }
        }
        #expect(ringOverKeys == 0)
    }

    @Test func keyboardFramesEqualFullRedraws() throws {
        let scene = { () -> View in
            let column = Stack(.vertical, id: "column", spacing: 8, padding: EdgeInsets(8))
            column.add(TextField(id: "search", placeholder: "Search"))
            column.add(list(60))
            return column
        }
        try DamageTests().check("keyboard", width: 480, height: 400, seconds: 3, scene: scene) { w in
            [
                DamageTests.touch(.down, Point(x: 200, y: 30), 0.1), DamageTests.touch(.up, Point(x: 200, y: 30), 0.15),
                InputEvent(.text("query"), time: 0.5),
            ]
                + DamageTests.drag(from: Point(x: 240, y: 200), to: Point(x: 240, y: 80), at: 0.8, duration: 0.1)
                + [InputEvent(.key(.escape, pressed: true), time: 2.0)]
        }
    }
}

/// Goldens of every keyboard layout at three sizes (exact: the same pixels on every run and
/// architecture, as every golden here).
@Suite struct KeyboardGoldenTests {
    static let sizes = [(800, 480), (1280, 800), (480, 800)]

    @Test(arguments: KeyboardLayout.names)
    func layout(_ name: String) throws {
        for (width, height) in Self.sizes {
            let column = Stack(.vertical, id: "column", spacing: 12, padding: EdgeInsets(16))
            let f = TextField(id: "field", text: "Glide ", placeholder: "")
            f.keyboardLayout = name
            if name == "pin" { f.contentType = .pin; f.isSecure = true; f.text = "1234" }
            if name == "number" { f.contentType = .number; f.text = "42.5" }
            if name == "ja" { f.text = "とうきょう"; f.submitLabel = .search }
            if name == "ar" { f.text = "مرحبا " }
            if name == "he" { f.text = "שלום " }
            column.add(Label("Keyboard \(name)", size: 22))
            column.add(f)
            let w = try makeWindow(column, width: width, height: height, scale: width >= 1280 ? 1.5 : 1)
            w.layoutDirection = LayoutDirection(language: name)
            w.focus(f)
            let screen = PixelBuffer(width: width, height: height)
            _ = w.frames(from: 0, to: 0.4, into: screen)  // slid in; the caret shows at 0.4
            assertGolden(screen, suite: "Keyboard", name: "\(name)-\(width)x\(height)")
        }
    }
}
