import Testing
@testable import LinuxInput

/// Physical keyboards through libxkbcommon: keymaps from xkeyboard-config, dead keys.
@Suite struct KeymapTests {
    func type(_ k: Keymap, _ codes: [(Int, Bool)]) -> String {
        codes.compactMap { k.text(forKey: $0.0, pressed: $0.1) }.joined()
    }
    func tap(_ code: Int) -> [(Int, Bool)] { [(code, true), (code, false)] }
    static let leftShift = 42, y = 21, z = 44, two = 3, equal = 13, e = 18, a = 30, q = 16, leftCtrl = 29, c = 46

    @Test func usAndGerman() throws {
        let us = try Keymap(layout: "us")
        #expect(type(us, tap(Self.y) + tap(Self.z)) == "yz")
        #expect(type(us, [(Self.leftShift, true)] + tap(Self.two) + [(Self.leftShift, false)] + tap(Self.two)) == "@2")
        let de = try Keymap(layout: Keymap.xkbName(forKeyboardLayout: "de"))
        #expect(type(de, tap(Self.y) + tap(Self.z)) == "zy")  // QWERTZ
        #expect(type(de, [(Self.leftShift, true)] + tap(Self.two) + [(Self.leftShift, false)]) == "\"")
        let fr = try Keymap(layout: "fr")
        #expect(type(fr, tap(Self.q) + tap(Self.a)) == "aq")  // AZERTY
    }

    /// Every on-screen keyboard layout names a keymap xkeyboard-config has (issue 60).
    @Test func everyKeyboardLayoutHasAKeymap() throws {
        for name in ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "ru", "uk", "el", "ja", "ar", "he", "fa", "number", "pin"] {
            #expect(throws: Never.self, "\(name)") { try Keymap(layout: Keymap.xkbName(forKeyboardLayout: name)) }
        }
        #expect(Keymap.xkbName(forKeyboardLayout: "uk") == "ua" && Keymap.xkbName(forKeyboardLayout: "fa") == "ir")
        // ЙЦУКЕН: Q types й.
        #expect(type(try Keymap(layout: Keymap.xkbName(forKeyboardLayout: "ru")), tap(Self.q)) == "й")
    }

    @Test func deadKeysCompose() throws {
        let de = try Keymap(layout: "de")
        try #require(de.hasCompose, "the X11 compose table (libx11-data) is missing")
        // KEY_EQUAL is dead_acute on a German keyboard: ´ then e types é.
        #expect(type(de, tap(Self.equal) + tap(Self.e)) == "é")
        #expect(type(de, tap(Self.equal)) == "")
    }

    @Test func controlTypesNothing() throws {
        let us = try Keymap(layout: "us")
        #expect(type(us, [(Self.leftCtrl, true)] + tap(Self.c) + [(Self.leftCtrl, false)]) == "")
        #expect(us.text(forKey: 28, pressed: true) == nil)  // Enter is a key, not text
        #expect(us.text(forKey: -5, pressed: true) == nil)
        #expect(us.text(forKey: 1 << 20, pressed: true) == nil)
    }

    @Test func unknownKeymapIsAClearError() {
        #expect(throws: KeymapError.unknownLayout("nosuchlayout")) { try Keymap(layout: "nosuchlayout") }
        #expect(throws: KeymapError.self) { try Keymap(layout: "../../etc/passwd") }
        #expect(throws: KeymapError.self) { try Keymap(layout: "") }
    }
}
