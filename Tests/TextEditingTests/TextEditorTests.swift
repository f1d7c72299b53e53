import Testing
@testable import TextEditing

/// The editing model: characters (grapheme clusters), paragraphs, limits and cleaning.
@Suite struct TextEditorTests {
    @Test func typingAndDeletingByCharacters() {
        var e = TextEditor(text: "")
        e.insert("cafe")
        e.insert("\u{301}")  // a combining acute joins the e
        #expect(e.text == "cafe\u{301}")
        #expect(e.count == 4)
        #expect(e.head == TextPosition(paragraph: 0, offset: 4))
        e.deleteBackward()
        #expect(e.text == "caf")
        e.insert("👩‍👩‍👧 x")
        #expect(e.count == 6)
        e.move(.left); e.move(.left); e.move(.left)
        #expect(e.head.offset == 3)
        e.deleteBackward()  // the whole family emoji is one character
        #expect(e.text == "ca👩‍👩‍👧 x")
        e.deleteForward()
        #expect(e.text == "ca x")
    }

    @Test func japaneseAndSelection() {
        var e = TextEditor(text: "東京駅 まで")
        e.selectWord(at: TextPosition(paragraph: 0, offset: 1))
        #expect(e.selectedText == "東京駅")
        e.insert("新宿")
        #expect(e.text == "新宿 まで")
        e.selectWord(at: TextPosition(paragraph: 0, offset: 4))
        #expect(e.selectedText == "まで")
        e.selectAll()
        #expect(e.selectedText == "新宿 まで")
        e.move(.left)
        #expect(!e.hasSelection && e.head.offset == 0)
    }

    @Test func singleLineAndParagraphs() {
        let one = TextEditor(text: "a\r\nb\tc\u{0}d\u{7}", singleLine: true)
        #expect(one.text == "a b cd")
        #expect(one.paragraphs.count == 1)
        var area = TextEditor(text: "", singleLine: false)
        area.insert("one\r\ntwo\rthree\nfour")
        #expect(area.paragraphs == ["one", "two", "three", "four"])
        #expect(area.count == 18)
        #expect(area.offset(of: area.head) == 18)
        #expect(area.position(atOffset: 8) == TextPosition(paragraph: 2, offset: 0))
        area.setSelection(anchor: TextPosition(paragraph: 0, offset: 2), head: TextPosition(paragraph: 2, offset: 1))
        #expect(area.selectedText == "e\ntwo\nt")
        let change = area.insert("X")
        #expect(area.paragraphs == ["onXhree", "four"])
        #expect(change == ParagraphChange(replaced: 0..<3, inserted: 1))
        area.setCaret(TextPosition(paragraph: 1, offset: 0))
        area.deleteBackward()  // joins the paragraphs
        #expect(area.paragraphs == ["onXhreefour"])
        #expect(area.head == TextPosition(paragraph: 0, offset: 7))
    }

    @Test func limitsAndFilters() {
        var pin = TextEditor(text: "", singleLine: true, maximumLength: 4)
        pin.filter = { $0.isNumber }
        pin.insert("12a3-45678")
        #expect(pin.text == "1234")
        #expect(pin.insert("9") == nil)
        // A megabyte paste keeps the absolute limit and a valid text.
        var big = TextEditor(text: "", singleLine: false)
        big.insert(String(repeating: "0123456789\n", count: 100_000))
        #expect(big.count == TextEditor.absoluteMaximumLength)
        #expect(big.text.count == TextEditor.absoluteMaximumLength)
        // Replacing a selection frees its room first.
        var f = TextEditor(text: "abcd", singleLine: true, maximumLength: 4)
        f.setSelection(anchor: TextPosition(paragraph: 0, offset: 1), head: TextPosition(paragraph: 0, offset: 3))
        f.insert("XYZ")
        #expect(f.text == "aXYd")
    }

    @Test func scalarAndCharacterOffsets() {
        let e = TextEditor(text: "e\u{301}x👍🏽y")
        #expect(e.scalarOffset(of: 1, inParagraph: 0) == 2)
        #expect(e.scalarOffset(of: 3, inParagraph: 0) == 5)
        #expect(e.characterOffset(ofScalar: 1, inParagraph: 0) == 0)  // inside é: nearer its start
        #expect(e.characterOffset(ofScalar: 2, inParagraph: 0) == 1)
        #expect(e.characterOffset(ofScalar: 99, inParagraph: 0) == 4)
    }

    @Test func kanaKeys() {
        #expect(Kana.addingDakuten("か") == "が")
        #expect(Kana.addingDakuten("が") == "か")
        #expect(Kana.addingDakuten("ぱ") == "ば")
        #expect(Kana.addingHandakuten("は") == "ぱ")
        #expect(Kana.addingHandakuten("ば") == "ぱ")
        #expect(Kana.addingHandakuten("ぱ") == "は")
        #expect(Kana.toggledSmall("つ") == "っ")
        #expect(Kana.toggledSmall("っ") == "つ")
        #expect(Kana.addingDakuten("a") == nil)
        #expect(Kana.katakana("とうきょう!") == "トウキョウ!")
        var e = TextEditor(text: "は")
        e.transformCharacterBeforeCaret(Kana.addingHandakuten)
        #expect(e.text == "ぱ")
    }

    @Test func layouts() throws {
        for name in KeyboardLayout.names {
            let l = try #require(KeyboardLayout.named(name))
            let frames = l.keyFrames(page: 0, width: 800, height: 200, gap: 5)
            for (r, row) in frames.enumerated() {
                #expect(row.count == l.pages[0][r].count)
                for f in row { #expect(f.x >= 0 && f.x + f.width <= 800.0001 && f.width > 0, "\(name) row \(r)") }
                // Keys of a row never overlap.
                for (a, b) in zip(row, row.dropFirst()) { #expect(a.x + a.width <= b.x + 1e-9) }
            }
        }
        #expect(KeyboardLayout.named("xx") == nil)
        #expect(KeyboardLayout.named("de")!.pages[0][0].map(\.label).joined() == "qwertzuiopü")
        #expect(KeyboardLayout.named("fr")!.pages[0][0].map(\.label).joined() == "azertyuiop")
        #expect(KeyboardLayout.named("ja")!.pages[0][0].map(\.label).joined() == "あかさたなはまやらわ、")
        #expect(KeyboardLayout.named("en", contentType: .pin)!.isPad)
        #expect(KeyboardLayout.named("en", contentType: .email)!.pages[0][3].contains { $0.label == "@" })
        #expect(KeyboardLayout.named("ja", submit: .search)!.pages[0].last!.last!.label == "検索")
        // The widest row fills the width exactly: 800 less the outer gaps.
        let en = KeyboardLayout.named("en")!.keyFrames(page: 0, width: 800, height: 200, gap: 5)
        #expect(abs(en[3].first!.x - 5) < 1e-9 && abs(en[3].last!.x + en[3].last!.width - 795) < 1e-9)
    }

    /// Every layout, for each kind of field: every page has rows of keys that fit, leads back
    /// to the letters and can delete; the page names cover the pages; each language's own
    /// letters are there (issue 60).
    @Test func everyLanguagesKeyboard() throws {
        for name in KeyboardLayout.names {
            for type in TextContentType.allCases {
                let l = try #require(KeyboardLayout.named(name, contentType: type))
                #expect(!l.pages.isEmpty, "\(name)")
                for (index, page) in l.pages.enumerated() {
                    #expect(!page.isEmpty && page.allSatisfy { !$0.isEmpty }, "\(name) \(type) page \(index)")
                    let targets = page.joined().compactMap { key -> Int? in
                        if case let .page(p) = key.action { return p } else { return nil }
                    }
                    #expect(targets.allSatisfy { l.pages.indices.contains($0) && $0 != index }, "\(name) page \(index): \(targets)")
                    #expect(index == 0 || targets.contains(0), "\(name) page \(index) has no way back to the letters")
                    #expect(page.joined().contains { $0.action == .backspace }, "\(name) page \(index)")
                    for row in l.keyFrames(page: index, width: 480, height: 240, gap: 5) {
                        for f in row { #expect(f.x >= 0 && f.x + f.width <= 480.0001 && f.width > 0, "\(name) page \(index)") }
                    }
                }
                // Every page has its own name.
                let pageNames = l.pages.indices.map(l.pageName)
                #expect(Set(pageNames).count == l.pages.count, "\(name): \(pageNames)")
            }
        }
        func letters(_ name: String, page: String = "letters") throws -> [String] {
            let l = try #require(KeyboardLayout.named(name))
            let index = try #require(l.pages.indices.first { l.pageName($0) == page }, "\(name) has no \(page) page")
            return l.pages[index].joined().compactMap { key in if case let .text(s) = key.action { return s } else { return nil } }
        }
        #expect(KeyboardLayout.names.filter { KeyboardLayout.named($0)!.isRightToLeft } == ["ar", "he", "fa"])
        #expect(try letters("es").contains("ñ") && letters("es", page: "accents").contains("á"))
        #expect(try letters("pt").contains("ç") && letters("pt", page: "accents").contains("ã"))
        #expect(try letters("it", page: "accents").contains("è") && letters("nl", page: "accents").contains("ë"))
        #expect(try Set("ąćęłńóśźż".map(String.init)).isSubset(of: letters("pl", page: "accents")))
        #expect(try Set(["ç", "ğ", "ı", "i", "ö", "ş", "ü"]).isSubset(of: letters("tr")))
        #expect(KeyboardLayout.named("tr")!.pages[0][0].map(\.label).joined() == "qwertyuıopğü")
        #expect(try letters("ru").contains("й") && KeyboardLayout.named("ru")!.pages[0][0].map(\.label).joined() == "йцукенгшщзхъ")
        #expect(try Set(["ї", "і", "є", "ґ"]).isSubset(of: letters("uk")))
        #expect(try letters("el").contains("ω") && KeyboardLayout.named("el")!.pages[0][0].map(\.label).joined() == ";ςερτυθιοπ")
        #expect(try letters("el", page: "accents").contains("ή"))
        #expect(try Set(["پ", "چ", "ژ", "گ", "ک", "ی"]).isSubset(of: letters("fa")))
        #expect(try letters("fa", page: "symbols").contains("۱") && letters("fa", page: "marks").contains("\u{200C}"))
        for name in ["ru", "uk", "el", "fa", "ar", "he"] { #expect(try letters(name, page: "latin").contains("q"), "\(name)") }
        // The layouts that were there keep their pages.
        #expect(KeyboardLayout.named("en")!.pages.count == 3 && KeyboardLayout.named("de")!.pages.count == 3)
        #expect(
            KeyboardLayout.named("ar")!.pages.indices.map(KeyboardLayout.named("ar")!.pageName) == [
                "letters", "symbols", "more", "marks", "latin",
            ])
    }
}
