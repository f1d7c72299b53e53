import Testing
@testable import Text

/// Indices where a line may start, per `LineBreaker`.
func breaks(_ text: String) -> [Int] {
    let b = LineBreaker.breakOpportunities(in: Array(text.unicodeScalars))
    return b.indices.filter { b[$0] }
}

@Suite struct LineBreakTests {
    @Test func latinBreaksAfterSpacesAndHyphens() {
        #expect(breaks("hello world") == [6])
        #expect(breaks("a  b") == [3])  // not between the spaces
        #expect(breaks("well-known fact") == [5, 11])
        #expect(breaks("-5 x") == [3])  // a minus sign before a digit is not a hyphen break
        #expect(breaks("(hello) world.") == [8])
        #expect(breaks("word") == [])
    }

    @Test func japaneseBreaksBetweenCharacters() {
        // 日本語を読む: anywhere.
        #expect(breaks("日本語を読む") == [1, 2, 3, 4, 5])
    }

    @Test func kinsokuNoClosingPunctuationOrSmallKanaAtLineStart() {
        // 。、」 never start a line; 「 never ends one.
        // 日0 本1 。2 語3 、4 「5 引6 用7 」8 で9 す10
        #expect(breaks("日本。語、「引用」です") == [1, 3, 5, 7, 9, 10])
        // Small kana and the long vowel mark stay with the preceding character.
        #expect(breaks("チョコレート") == [2, 3, 5])  // no break before ョ (1), ー (4)
        #expect(breaks("ちょっと") == [3])
        // Latin inside Japanese: breaks on both sides of the ideographs, not inside the word.
        #expect(breaks("日本Swift言語") == [1, 2, 7, 8])
    }

    @Test func classes() {
        #expect(LineBreaker.lineBreakClass(of: "。") == .closing(wide: true))
        #expect(LineBreaker.lineBreakClass(of: "ゃ") == .nonStarter)
        #expect(LineBreaker.lineBreakClass(of: "「") == .opening)
        #expect(LineBreaker.lineBreakClass(of: "漢") == .ideographic)
        #expect(LineBreaker.lineBreakClass(of: "\n") == .mandatory)
        #expect(LineBreaker.lineBreakClass(of: "\u{301}") == .combining)
    }
}
