import Testing
@testable import TextEditing

/// The limits count scalars and UTF-8 bytes as well as characters: one character may be any
/// number of scalars, so a limit on characters alone lets a 4-character PIN hold 48 KB.
@Suite struct TextEditorLimitTests {
    /// A digit and 16,000 zero-width joiners: 48,001 bytes, 16,001 scalars, one character.
    static let joinedDigit = "1" + String(repeating: "\u{200D}", count: 16_000)

    /// The counts the editor keeps against the text they count.
    static func expectCounted(_ e: TextEditor, _ sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(e.scalarCount == e.text.unicodeScalars.count, sourceLocation: sourceLocation)
        #expect(e.byteCount == e.text.utf8.count, sourceLocation: sourceLocation)
        #expect(e.count == e.text.count, sourceLocation: sourceLocation)
        #expect(e.count <= e.limit && e.scalarCount <= e.scalarLimit && e.byteCount <= e.byteLimit, sourceLocation: sourceLocation)
    }

    @Test func oneHugeCharacterDoesNotPassAShortLimit() {
        #expect(Self.joinedDigit.count == 1 && Self.joinedDigit.utf8.count == 48_001)
        var pin = TextEditor(text: "", singleLine: true, maximumLength: 4)
        #expect(pin.insert(Self.joinedDigit) == nil)
        #expect(pin.text.isEmpty)
        pin.insert("12" + Self.joinedDigit + "3")  // whole characters up to the one that does not fit
        #expect(pin.text == "12")
        Self.expectCounted(pin)
        // A family (7 scalars, 25 bytes) is a character a short field takes.
        pin.insert("👨‍👩‍👧‍👦")
        #expect(pin.count == 3)
        Self.expectCounted(pin)
    }

    @Test func theAbsoluteLimitBoundsScalarsAndBytes() {
        var e = TextEditor(text: "", singleLine: false)
        e.insert(Self.joinedDigit)
        #expect(e.count == 1)
        #expect(e.insert(Self.joinedDigit) == nil)  // 96,002 bytes would not fit
        // 10,000 joiners are one character of 30,000 bytes: it does not fit whole, so none go.
        #expect(e.insert(String(repeating: "\u{200D}", count: 10_000)) == nil)
        e.insert(String(repeating: "\u{200D}", count: 5_000))  // fits, and joins the digit's character
        #expect(e.count == 1)
        #expect(e.byteCount == 63_001)
        Self.expectCounted(e)
        var japanese = TextEditor(text: String(repeating: "日本語\n", count: 10_000), singleLine: false)
        #expect(japanese.byteCount <= TextEditor.absoluteMaximumLength)
        #expect(japanese.text.hasPrefix("日本語\n日本語"))
        Self.expectCounted(japanese)
        japanese.selectAll()
        japanese.insert(String(repeating: "e\u{301}", count: 40_000))
        #expect(japanese.count == TextEditor.absoluteMaximumLength / 3)
        Self.expectCounted(japanese)
    }

    @Test func scalarsPerCharacterBoundAField() {
        var e = TextEditor(text: "", singleLine: true, maximumLength: 10)
        let stacked = "e" + String(repeating: "\u{301}", count: 20)  // 21 scalars in one character
        e.insert(String(repeating: stacked, count: 5))
        #expect(e.count == 3)  // 63 of 80 scalars; a fourth would make 84
        Self.expectCounted(e)
        // Replacing a selection frees its scalars first.
        e.selectAll()
        e.insert(String(repeating: "ab", count: 20))
        #expect(e.text == "ababababab")
        Self.expectCounted(e)
    }

    @Test func countsFollowEveryEdit() {
        var e = TextEditor(text: "ä\nb👍🏽", singleLine: false, maximumLength: 40)
        Self.expectCounted(e)
        e.setCaret(TextPosition(paragraph: 0, offset: 1))
        e.insert("\r\nx\u{301}\u{302}\t")
        Self.expectCounted(e)
        e.deleteBackward(); e.deleteBackward()
        Self.expectCounted(e)
        e.setSelection(anchor: TextPosition(paragraph: 0, offset: 0), head: TextPosition(paragraph: 2, offset: 1))
        e.insert("日本\n")
        Self.expectCounted(e)
        e.move(.textEnd)
        e.transformCharacterBeforeCaret { _ in "が" }
        Self.expectCounted(e)
        e.setText(String(repeating: "ab\n", count: 100))
        #expect(e.count == 40)
        Self.expectCounted(e)
    }

    /// A paste into a field with little room left cleans only what fits.
    @Test func cleaningStopsAtTheRoom() {
        var e = TextEditor(text: "", singleLine: true, maximumLength: 3)
        #expect(e.cleaned("ab\tc\u{0}d", scalarsAtMost: 4) == "ab c")
        e.insert("ab\r\ncd")
        #expect(e.text == "ab ")
        Self.expectCounted(e)
    }
}
