import Geometry
import Raster
import Testing
import TextEditing
@testable import UI

/// Fields under hostile typing: the limits bound scalars and bytes, not only characters, and a
/// 64 KiB paste (the most one typed line holds) does not hold the loop.
extension TextEntryTests {
    /// A digit and 16,000 zero-width joiners: 48,001 bytes in one character.
    static let joinedDigit = "1" + String(repeating: "\u{200D}", count: 16_000)

    @Test func aFieldsLimitsBoundScalarsAndBytes() throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let pin = field(w, "pin")
        w.focus(pin)
        type(w, Self.joinedDigit, at: 0.1)
        #expect(pin.text.isEmpty)
        type(w, "12", at: 0.2)
        #expect(pin.text == "12")
        let name = field(w, "name")
        w.focus(name)
        for n in 0..<3 { type(w, Self.joinedDigit, at: 0.3 + Double(n) / 10) }
        #expect(name.text.utf8.count <= TextEditor.absoluteMaximumLength)
        #expect(name.text.unicodeScalars.count <= TextEditor.absoluteMaximumLength)
        _ = w.frames(from: 0.7, to: 0.8)
    }

    /// One 64 KiB paste into a field of no limit of its own, and a keystroke after it: the field
    /// takes the whole paste and the key after it. How long that takes is the benchmark's to say
    /// (`glide bench`), not a test's: under emulation (the aarch64 suites run under qemu-user) a
    /// debug-sized bound fails for want of a fast machine, not for a slow field.
    @Test(arguments: ["a", "日本語 ", "e\u{301}", Self.joinedDigit])
    func aLongPasteIsTakenWhole(_ piece: String) throws {
        let w = try makeWindow(Self.form(), width: 800, height: 480)
        let name = field(w, "name")
        w.focus(name)
        _ = w.frames(from: 0, to: 0.5)
        let paste = String(repeating: piece, count: TextEditor.absoluteMaximumLength / piece.utf8.count)
        type(w, paste, at: 0.6)
        _ = w.frames(from: 0.6, to: 0.65)
        #expect(name.text == paste)
        type(w, "x", at: 1.1)
        _ = w.frames(from: 1.1, to: 1.15)
        // The key fits unless the paste filled every byte (65,536 of "a").
        #expect(name.text == (paste.utf8.count < TextEditor.absoluteMaximumLength ? paste + "x" : paste))
    }
}
