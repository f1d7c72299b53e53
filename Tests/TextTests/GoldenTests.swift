import Testing
@testable import Text
import Raster
import TestSupport

/// Text golden images, compared exactly. They were made with FreeType 2.12.1 and HarfBuzz
/// 6.0 (Debian 12); another FreeType may hint differently and move whole pixels, which no
/// small channel tolerance would hide, so a mismatch there means "look at the diff image".
@Suite struct TextGoldenTests {
    @Test func englishParagraphWrapped() throws {
        assertGolden(try TextScenes.englishWrapped(repositoryFonts()), suite: "Text", name: "english-wrapped")
    }

    @Test func japaneseParagraphWithKinsoku() throws {
        assertGolden(try TextScenes.japaneseKinsoku(repositoryFonts()), suite: "Text", name: "japanese-kinsoku")
    }

    @Test func mixedLineUsesFallback() throws {
        assertGolden(try TextScenes.mixedFallback(repositoryFonts()), suite: "Text", name: "mixed-fallback")
    }

    @Test func leadingCentredTrailing() throws {
        assertGolden(try TextScenes.alignment(repositoryFonts()), suite: "Text", name: "alignment")
    }

    @Test func ellipsisLabels() throws {
        assertGolden(try TextScenes.ellipsisLabels(repositoryFonts()), suite: "Text", name: "ellipsis-labels")
    }
}
