import Testing
@testable import Text

/// A paragraph's direction in context (issue 60, item 4): the layout's for text that starts with
/// no letter or mixes scripts, its first strong letter's otherwise.
@Suite struct ParagraphDirectionTests {
    @Test func mixedOrNeutralTextFollowsTheLayout() {
        let mixed = "Dubai Marina · المنطقة 3"
        #expect(TextDirection.contextual(for: mixed, layout: .rightToLeft) == .rightToLeft)
        #expect(TextDirection.contextual(for: mixed, layout: .leftToRight) == .leftToRight)
        #expect(TextDirection.contextual(for: "12:30 · 3", layout: .rightToLeft) == .rightToLeft)
        // Letters of one direction: theirs, so "Hello!" keeps its "!" at the end and "36 pages"
        // its number first on a right-to-left screen, "3 تذاكر" right to left on any.
        #expect(TextDirection.contextual(for: "Hello!", layout: .rightToLeft) == nil)
        #expect(TextDirection.contextual(for: "36 pages, shrinking dots", layout: .rightToLeft) == nil)
        #expect(TextDirection.contextual(for: "3 تذاكر", layout: .leftToRight) == nil)
        #expect(TextDirection.contextual(for: "", layout: .rightToLeft) == .rightToLeft)
    }

    @Test func aMixedLineOnARightToLeftScreenRunsFromTheRight() throws {
        let font = try repositoryFonts().standardFont(pixelSize: 16)
        let text = "Dubai Marina · المنطقة 3"
        let contextual = TextLayout(text: text, font: font, baseDirection: .contextual(for: text, layout: .rightToLeft))
        let firstStrong = TextLayout(text: text, font: font)
        #expect(contextual.lines.first?.isRightToLeft == true)
        #expect(firstStrong.lines.first?.isRightToLeft == false)
    }
}
