import Geometry
import Raster
import Runtime
import Testing
import TextEditing
@testable import TextInput
@testable import UI

/// The Arabic and Hebrew on-screen keyboards type their scripts, their digits and, a page away,
/// Latin letters: "أحمد 12 Ahmed" on one keyboard.
extension TextEntryTests {
    @Test func arabicKeyboardTypesArabicDigitsAndLatin() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        w.layoutDirection = .rightToLeft
        let name = field(w, "name")
        name.keyboardLayout = "ar"
        let p = center(w, "name")
        w.tap(p.x, p.y, at: 0.1)
        _ = w.frames(from: 0.2, to: 0.5)
        #expect(w.state(at: 0.5, frameNumber: 0).keyboard?.layout == "ar")
        // Alef with hamza is on the page of hamza forms, the Western digits on the second symbols page.
        let keys = ["أ إ آ", "أ", "أ ب ج", "ح", "م", "د", "مسافة", "123", "#+=", "1", "2", "مسافة", "ABC", "⇧", "A", "h", "m", "e", "d"]
        for (i, k) in keys.enumerated() { tapKey(w, k, at: 0.6 + 0.2 * Double(i)) }
        #expect(name.text == "أحمد 12 Ahmed")
        #expect(w.state(at: 4.5, frameNumber: 0).keyboard?.page == "latin")
        // The number page has Arabic-Indic digits.
        tapKey(w, "أ ب ج", at: 5)
        tapKey(w, "123", at: 5.2)
        tapKey(w, "٣", at: 5.4)
        #expect(name.text == "أحمد 12 Ahmed٣")
    }

    /// The arrows walk "أحمد 12 Ahmed" as it shows: from the right edge leftwards through the
    /// Arabic, the digits left to right, "Ahmed" from its end, and stop at the left edge; the
    /// right arrow walks back. Shift-arrows select what they pass, drawn where it stands.
    @Test func arrowsWalkMixedTextAsItShows() throws {
        let (w, name) = try focusedName(text: "أحمد 12 Ahmed")
        name.editor.setCaret(TextPosition(paragraph: 0, offset: 0))
        var walk: [Int] = [], xs: [Double] = []
        for i in 0..<14 {
            w.key(.left, at: 0.6 + 0.01 * Double(i))
            walk.append(name.editor.head.offset)
            xs.append(name.caretRect(at: name.editor.head).minX)
        }
        #expect(walk == [1, 2, 3, 4, 7, 6, 5, 13, 12, 11, 10, 9, 8, 8])
        #expect(zip(xs, xs.dropFirst()).dropLast().allSatisfy { $0 > $1 })
        var back: [Int] = []
        for i in 0..<13 {
            w.key(.right, at: 0.8 + 0.01 * Double(i))
            back.append(name.editor.head.offset)
        }
        #expect(back == [9, 10, 11, 12, 13, 5, 6, 7, 4, 3, 2, 1, 0])
        // Shift-left from "2|" over the digits and the space before them: "12" and a space.
        name.editor.setCaret(TextPosition(paragraph: 0, offset: 7))
        w.handle(InputEvent(.key(.leftShift, pressed: true), time: 1))
        w.key(.left, at: 1)
        w.key(.left, at: 1.01)
        w.handle(InputEvent(.key(.leftShift, pressed: false), time: 1.02))
        #expect(name.editor.selectedText == "12")
    }

    @Test func hebrewKeyboardTypesHebrew() throws {
        let (w, name) = try focusedName(layout: "he")
        for (i, k) in ["ש", "ל", "ו", "ם", "רווח", "123", "₪"].enumerated() { tapKey(w, k, at: 0.6 + 0.2 * Double(i)) }
        #expect(name.text == "שלום ₪")
    }

    @Test(arguments: ["ar", "he"])
    func everyPageOfARightToLeftKeyboardLeadsBack(_ name: String) throws {
        let layout = try #require(KeyboardLayout.named(name))
        for (index, page) in layout.pages.enumerated() {
            let targets = page.joined().compactMap { key -> Int? in if case let .page(p) = key.action { return p } else { return nil } }
            #expect(targets.allSatisfy { layout.pages.indices.contains($0) && $0 != index }, "page \(index): \(targets)")
            #expect(index == 0 || targets.contains(0), "page \(index) has no way back to the letters")
            #expect(page.joined().contains { $0.action == .backspace })
        }
    }
}

extension TextEntryTests {
    /// A field's text starts at the edge its script starts at: Arabic at the right in either
    /// layout direction, Latin at the left; an empty field at the layout's leading edge.
    @Test func aFieldsTextStartsWhereItsScriptStarts() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name")
        let inner = name.frameInWindow.insetBy(dx: 12, dy: 0)
        func caretX() -> Double { name.caretRect(at: name.editor.head).minX + name.textOrigin().x + name.frameInWindow.minX }
        w.focus(name)
        name.text = "مرحبا"
        _ = w.frames(from: 0, to: 0.2)
        // The caret after the last Arabic letter is at the text's left end, the text ends at the right.
        #expect(name.textOrigin().x + name.frameInWindow.minX + name.lineWidth(ofParagraph: 0) == inner.maxX)
        #expect(caretX() < inner.maxX - 30)
        name.text = "Ahmed"
        _ = w.frames(from: 0.2, to: 0.4)
        #expect(name.textOrigin().x + name.frameInWindow.minX == inner.minX)
        name.text = ""
        w.layoutDirection = .rightToLeft
        _ = w.frames(from: 0.4, to: 0.6)
        #expect(abs(caretX() - inner.maxX) <= 2)
    }
}

extension TextEntryTests {
    /// In an Arabic field the left arrow goes on through the text (it runs leftwards) and the
    /// right arrow back; in a Latin one as always.
    @Test func arrowKeysFollowTheParagraphsDirection() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name")
        w.focus(name)
        for (text, leftGoesForward) in [("مرحبا", true), ("Hello", false)] {
            name.text = text
            name.editor.setCaret(TextPosition(paragraph: 0, offset: 2))
            w.key(.left, at: 1)
            #expect(name.editor.head.offset == (leftGoesForward ? 3 : 1), "\(text)")
            w.key(.right, at: 1.1)
            w.key(.right, at: 1.2)
            #expect(name.editor.head.offset == (leftGoesForward ? 1 : 3), "\(text)")
        }
    }
}
