import Geometry
import ImageCodecs
import Raster
import Runtime
import Scrolling
import Testing
import TestSupport
import TextEditing
@testable import UI

/// Text fields, the on-screen keyboard and keyboard avoidance (TXT-1 … TXT-3).
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

    @Test func explore() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let screen = PixelBuffer(width: 800, height: 480)
        // Scroll so "last" is visible, then tap it.
        w.scrollView("page").scroll(to: Point(x: 0, y: 400), animated: false)
        _ = w.frames(from: 0.0, to: 0.05, into: screen)
        let m = center(w, "last")
        w.tap(m.x, m.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 0.6, into: screen)
        type(w, "End of form", at: 0.7)
        let b = w.frames(from: 0.8, to: 0.9, into: screen)
        try PNG.write(b, to: "/tmp/te-2.png")
        let n = center(w, "notes")
        w.tap(n.x, n.y, at: 1.0)
        _ = w.frames(from: 1.1, to: 1.5, into: screen)
        type(w, "Line one\nLine two is longer and wraps around the edge of the text area, see it wrap.\nThree\nFour\nFive\nSix\nSeven", at: 1.6)
        let c = w.frames(from: 1.7, to: 2.0, into: screen)
        try PNG.write(c, to: "/tmp/te-3.png")
        w.touch(.down, n.x, n.y - 20, at: 2.1)
        _ = w.frames(from: 2.1, to: 2.7, into: screen)
        w.touch(.up, n.x, n.y - 20, at: 2.7)
        let d = w.frames(from: 2.8, to: 2.9, into: screen)
        try PNG.write(d, to: "/tmp/te-4.png")
        print(w.state(at: 2.9, frameNumber: 1).textFields)
    }
}
