import Testing
import Geometry
import Raster
@testable import FeedScene

@Suite struct FeedLayoutTests {
    let layout = FeedLayout(width: 1280, height: 800)!

    @Test func figuresFromTheSpec() {
        #expect(FeedLayout.contentHeight == 27232)
        #expect(layout.scrollRange == 26432)
        #expect(layout.scrollY(frame: 0) == 0)
        #expect(layout.scrollY(frame: 100) == 3700)
        #expect(layout.scrollY(frame: 715) == (37 * 715) % 26432)
        #expect(layout.thumbLength == 36)  // 800 * 800 / 27232 = 23.5 < 36
        #expect(layout.thumb(scrollY: 0) == Rect(x: 1272, y: 3, width: 5, height: 36))
        #expect(layout.thumb(scrollY: 26432).maxY == 797)
        #expect(layout.pageControl == Rect(x: 576, y: 746, width: 128, height: 28))
        #expect(layout.dotCenter(3) == Point(x: 640, y: 760))
        #expect(layout.dotCenter(0).x == 592 && layout.dotCenter(6).x == 688)
        #expect(layout.card(3, scrollY: 100) == IntRect(x: 24, y: 24 + 408 - 100, width: 1232, height: 120))
        #expect(FeedLayout.thumbColor.alpha == 89 && FeedLayout.pageControlBackground.alpha == 77 && FeedLayout.otherDot.alpha == 115)
        let small = FeedLayout(width: 640, height: 480)!
        #expect(small.card(0, scrollY: 0).width == 592)
        #expect(small.pageControl.midX == 320 && small.pageControl.midY == 440)
        #expect(FeedLayout(width: 100, height: 800) == nil && FeedLayout(width: 1280, height: 30000) == nil)
    }

    @Test func hsvColours() {
        #expect(FeedLayout.circleColor(0) == Color(red: 230, green: 115, blue: 115))  // hue 0
        #expect(FeedLayout.hsv(hue: 120, saturation: 0.5, value: 0.9) == Color(red: 115, green: 230, blue: 115))
        #expect(FeedLayout.hsv(hue: 240, saturation: 0.5, value: 0.9) == Color(red: 115, green: 115, blue: 230))
        #expect(FeedLayout.circleColor(10) == FeedLayout.hsv(hue: 10, saturation: 0.5, value: 0.9))  // 370 mod 360
    }

    /// The visible-card range agrees with testing every card against the rows.
    @Test func visibleCardsMatchBruteForce() {
        for scrollY in [0, 1, 37, 119, 120, 135, 136, 3700, 26431] {
            for rows in [0..<800, 0..<1, 799..<800, 763..<800, 100..<101, 143..<145, 24..<25, 23..<24] {
                let expected = (0..<FeedLayout.cardCount).filter { i in
                    let c = layout.card(i, scrollY: scrollY)
                    return c.y < rows.upperBound && c.maxY > rows.lowerBound
                }
                #expect(Array(layout.cards(scrollY: scrollY, rows: rows)) == expected, "scrollY \(scrollY) rows \(rows)")
            }
        }
    }
}
