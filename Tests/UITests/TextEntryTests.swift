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
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 0.6)
        tapKey(w, "h", at: 0.7)
        tapKey(w, "i", at: 0.9)
        type(w, " there, Grüße 東京", at: 1.0)
        let b = w.frames(from: 1.1, to: 1.2)
        try PNG.write(b, to: "/tmp/te-1.png")
        let m = center(w, "last")
        w.tap(m.x, 400, at: 1.5)
        _ = w.frames(from: 1.6, to: 1.7)
        print(w.stateJSON(at: 1.7, frameNumber: 1))
    }
}
