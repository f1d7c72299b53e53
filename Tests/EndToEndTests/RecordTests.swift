import Geometry
import Runtime
import Testing

/// Every input event a board records is a script line that parses back to the same event.
@Suite struct RecordTests {
    @Test func recordedLinesParseBackToTheSameEvents() throws {
        let events: [InputEvent.Kind] = [
            .touch(.down, slot: 0, position: Point(x: 640.5, y: 600)),
            .touch(.down, slot: 1, position: Point(x: 100, y: 200.25)),
            .touch(.move, slot: 0, position: Point(x: 640.5, y: 560.125)),
            .touch(.up, slot: 0, position: .zero),
            .touch(.cancel, slot: 1, position: .zero),
            .wheel(delta: Point(x: 0, y: -120), position: Point(x: 10, y: 20)),
            .fingerScroll(delta: Point(x: 1.5, y: 14), position: Point(x: 10, y: 20)),
            .fingerScroll(delta: .zero, position: Point(x: 10, y: 20)),
            .pointerMotion(position: Point(x: 3, y: 4)),
            .pointerButton(code: 0x110, pressed: true, position: Point(x: 3, y: 4)),
            .pointerButton(code: 0x110, pressed: false, position: Point(x: 3, y: 4)),
        ]
        var text = ""
        for (i, kind) in events.enumerated() {
            text += try #require(InputScript.line(for: InputEvent(kind, time: 0), milliseconds: Double(i) * 16.5)) + "\n"
        }
        // A key press is a line (press and release); its release and frame markers are not.
        text += try #require(InputScript.line(for: InputEvent(.key(.pageDown, pressed: true), time: 0), milliseconds: 500)) + "\n"
        #expect(InputScript.line(for: InputEvent(.key(.pageDown, pressed: false), time: 0), milliseconds: 501) == nil)
        #expect(InputScript.line(for: InputEvent(.touchFrame, time: 0), milliseconds: 501) == nil)

        let script = try InputScript.parse(text)
        #expect(script.entries.count == events.count + 1)
        for (i, kind) in events.enumerated() {
            #expect(script.entries[i].t == Double(i) * 16.5)
            #expect(script.entries[i].action == .input(kind), "line \(i + 1): \(script.entries[i].action)")
        }
        #expect(script.entries.last?.action == .key(.pageDown))
    }

    @Test func aBadScrollLineIsNamed() {
        func error(_ text: String) -> InputScript.ParseError? {
            do { _ = try InputScript.parse(text); return nil } catch { return error }
        }
        let far = error("{\"t\":0,\"key\":\"End\"}\n{\"t\":1,\"scroll\":{\"dy\":1e9},\"x\":1,\"y\":1}")
        #expect(far?.line == 2 && far?.message == "scroll delta out of range")
        let nowhere = error("{\"t\":1,\"scroll\":{\"dy\":3}}")
        #expect(nowhere?.line == 1 && nowhere?.message == "needs \"x\" and \"y\" (pixels)")
    }
}
