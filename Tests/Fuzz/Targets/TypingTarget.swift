// Text entry under any input: typed bytes of any kind (cut into UTF-8 as a board's keymap or
// the remote API would pass them, some pasted thousands of times over), keys, taps on the
// fields and on the on-screen keyboard, focus moving between a field, a PIN field and a text
// area. Whatever comes, each field holds valid text within its limits (characters, scalars and
// bytes) and without control characters, its selection lies inside it, and once focus leaves,
// the keyboard goes and the window comes to rest.
import Geometry
import Raster
import Runtime
import Text
import TextEditing
import UI

func fuzzTyping(_ bytes: UnsafeRawBufferPointer, context: TextFuzzContext) {
    var input = FuzzInput(bytes)
    let name = TextField(id: "name", placeholder: "Name")
    let pin = TextField(id: "pin", placeholder: "PIN")
    pin.contentType = .pin
    pin.isSecure = true
    pin.maximumLength = 6
    pin.filter = { $0.isNumber }
    let notes = TextArea(id: "notes")
    notes.height = 160
    let rows = Stack(
        .vertical, id: "rows", spacing: 8, padding: EdgeInsets(8),
        children: [name, pin, notes] + (0..<10).map { Box(id: "box-\($0)", fill: .white, height: 60) })
    let window = Window(
        width: 480, height: 640, typography: Typography(library: context.library), root: ScrollView(id: "page", content: rows))
    window.keyboardLayout = input.pick(KeyboardLayout.names)
    let fields: [TextInputView] = [name, pin, notes]
    let keys: [Key] = [
        .backspace, .delete, .left, .right, .home, .end, .up, .down, .enter, .tab, .escape, .leftShift, .leftControl, .a, .c, .v, .x,
    ]
    let frame = PixelBuffer(width: 480, height: 640)
    var t = 0.0
    var steps = 0
    while !input.isAtEnd && steps < 2000 {
        steps += 1
        t += Double(input.byte() % 16) / 1000
        switch input.byte() % 7 {
        case 0:
            let n = Int(input.byte() % 24)
            let raw = (0..<n).map { _ in input.byte() }
            // The longest pieces come 3,000 times over: a paste past every limit, or one
            // character of thousands of scalars when they are joiners or marks.
            let piece = String(decoding: raw, as: UTF8.self)
            window.handle(InputEvent(.text(n == 23 ? String(repeating: piece, count: 3_000) : piece), time: t))
        case 1: window.handle(InputEvent(.key(input.pick(keys), pressed: input.bool()), time: t))
        case 2: window.focus(input.pick(fields + [nil]))
        case 3, 4:
            // A tap anywhere, mostly on the keyboard's half of the screen.
            let p = Point(x: input.finiteCoordinate(limit: 480), y: 320 + input.finiteCoordinate(limit: 320))
            window.handle(InputEvent(.touch(.down, slot: 0, position: p), time: t))
            window.handle(InputEvent(.touch(.up, slot: 0, position: p), time: t + Double(input.byte()) / 200))
            t += Double(input.byte()) / 200
        case 5: input.pick(fields).selection = input.int(in: 0...40)..<input.int(in: 40...80)
        default: _ = window.scheduler?.runDue(upTo: t); _ = window.render(into: frame, at: t)
        }
        for f in fields {
            let text = f.text
            expect(text.count <= (f.maximumLength ?? TextEditor.absoluteMaximumLength), "\(f.id ?? ""): \(text.count) characters")
            // A limit bounds scalars and bytes too: one character may be thousands of scalars.
            let scalars = text.unicodeScalars.count
            let scalarLimit = min(TextEditor.absoluteMaximumLength, (f.maximumLength ?? .max / 8) * TextEditor.scalarsPerCharacter)
            expect(scalars <= scalarLimit, "\(f.id ?? ""): \(scalars) scalars")
            expect(text.utf8.count <= TextEditor.absoluteMaximumLength, "\(f.id ?? ""): \(text.utf8.count) bytes")
            expect(
                !text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
                "\(f.id ?? ""): a control character in the text")
            expect(f !== pin || text.allSatisfy(\.isNumber), "the PIN holds \(text)")
            expect(
                f.selection.lowerBound >= 0 && f.selection.upperBound <= text.count,
                "\(f.id ?? ""): selection \(f.selection) in \(text.count)")
        }
    }
    window.focus(nil)
    let rested = comesToRest(window, into: frame, after: t, within: 2)
    expect(rested, "not at rest 2 s after focus left")
    expect(window.keyboardFrame == nil, "the keyboard stayed after focus left")
}
