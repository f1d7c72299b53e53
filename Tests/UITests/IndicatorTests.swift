import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Geometry, transient opacity, the always-shown track, page-control axes, scrubbing.
@Suite struct IndicatorTests {
    /// 400×400 window over 40 rows of 50 pt: content 2000 pt, thumb length 400²/2000 = 80 pt.
    func setup(rows: Int = 40) throws -> (Window, ScrollView) {
        let sv = list(rows)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0)
        return (w, sv)
    }

    func verticalThumb(_ sv: ScrollView, at t: Double) -> Rect? {
        sv.indicatorGeometry(at: t).first { $0.axis == .vertical }?.thumb
    }

    @Test func thumbLengthAndPositionAtTopMiddleAndEnd() throws {
        let (w, sv) = try setup()
        // Track: 400 − 2·3 inset = 394; thumb 5 pt wide, 3 pt from the right edge.
        #expect(verticalThumb(sv, at: 0) == Rect(x: 392, y: 3, width: 5, height: 80))
        #expect(sv.indicatorGeometry(at: 0).count == 1)  // no horizontal indicator
        sv.scroll(to: Point(x: 0, y: 800), animated: false)  // middle of 0 … 1600
        w.frames(from: 0.02, to: 0.02)
        #expect(verticalThumb(sv, at: 0.02) == Rect(x: 392, y: 3 + (394 - 80) / 2, width: 5, height: 80))
        sv.scroll(to: Point(x: 0, y: 1600), animated: false)
        w.frames(from: 0.04, to: 0.04)
        #expect(verticalThumb(sv, at: 0.04) == Rect(x: 392, y: 3 + 394 - 80, width: 5, height: 80))
        sv.scroll(to: Point(x: 0, y: 400), animated: false)
        w.frames(from: 0.06, to: 0.06)
        #expect(verticalThumb(sv, at: 0.06)!.minY == 3 + (394 - 80) * 0.25)
    }

    @Test func longContentHasTheMinimumLength() throws {
        let (w, sv) = try setup(rows: 400)  // 20000 pt: 400²/20000 = 8 → 36
        #expect(verticalThumb(sv, at: 0)?.height == 36)
        sv.scroll(to: Point(x: 0, y: 19_600), animated: false)
        w.frames(from: 0.02, to: 0.02)
        #expect(verticalThumb(sv, at: 0.02) == Rect(x: 392, y: 3 + 394 - 36, width: 5, height: 36))
        // Content that fits shows no indicator.
        let (_, short) = try setup(rows: 8)
        #expect(short.indicatorGeometry(at: 0).isEmpty)
    }

    @Test func theThumbShrinksWhileOverscrolledAndStaysOnTheTrack() throws {
        let (w, sv) = try setup()
        w.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 160), at: 0.1, duration: 0.2, lift: false)
        w.frames(from: 0.1, to: 0.3)
        let o = sv.sampledOffset.y
        #expect(o < -20 && o > -75)
        let thumb = try #require(verticalThumb(sv, at: 0.3))
        #expect(thumb.minY == 3)
        #expect(approx(thumb.height, max(5, 80 + o)))
        w.touch(.up, 200, 160, at: 0.31)
        w.frames(from: 0.31, to: 2)
        #expect(sv.sampledOffset.y == 0)
        #expect(verticalThumb(sv, at: 2) == nil || verticalThumb(sv, at: 2)?.height == 80)

        // At the end: the thumb keeps to the bottom of the track.
        sv.scroll(to: Point(x: 0, y: 1600), animated: false)
        w.frames(from: 3, to: 3)
        w.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 240), at: 3.1, duration: 0.2, lift: false)
        w.frames(from: 3.1, to: 3.3)
        let over = sv.sampledOffset.y - 1600
        #expect(over > 20 && over < 75)
        let end = try #require(verticalThumb(sv, at: 3.3))
        #expect(approx(end.maxY, 397))
        #expect(approx(end.height, max(5, 80 - over)))
        // A very long pull never shrinks it below its thickness.
        w.touch(.move, 200, -5000, at: 3.4)
        w.frames(from: 3.4, to: 3.4)
        #expect(verticalThumb(sv, at: 3.4)!.height >= 5)
        #expect(approx(verticalThumb(sv, at: 3.4)!.maxY, 397))
    }

    @Test func transientOpacityFlashesOnAppearingShowsWhileScrollingThenFades() throws {
        let (w, sv) = try setup()
        // Flash: shown for 1 s after the view first appears, then a 0.3 s fade.
        #expect(sv.indicatorGeometry(at: 0).first?.opacity == 1)
        #expect(sv.indicatorGeometry(at: 0.99).first?.opacity == 1)
        #expect(approx(sv.indicatorGeometry(at: 1.15).first!.opacity, 0.5))
        #expect(sv.indicatorGeometry(at: 1.31).isEmpty)
        w.frames(from: 0, to: 2)
        #expect(w.isAtRest(at: 2))

        // Scrolling shows it; it lingers 0.5 s after the last movement, then fades over 0.3 s.
        let end = w.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 200), at: 3, duration: 0.2, lift: false)
        w.frames(from: 3, to: end)
        #expect(sv.indicatorGeometry(at: end).first?.opacity == 1)
        // Hold still, then lift without speed.
        let lift = end + 0.2
        w.frames(from: end, to: lift - 0.01)
        w.touch(.up, 200, 200, at: lift)
        #expect(sv.controller.state(at: lift).phase == .idle)
        w.frames(from: lift, to: lift + 0.45)
        #expect(sv.indicatorGeometry(at: lift + 0.45).first?.opacity == 1)
        #expect(approx(sv.indicatorGeometry(at: lift + 0.65).first!.opacity, 0.5, 1e-9))
        #expect(sv.indicatorGeometry(at: lift + 0.81).isEmpty)
        w.frames(from: lift + 0.45, to: lift + 1)
        #expect(w.isAtRest(at: lift + 1))
        // Never: nothing at any time.
        sv.indicators = .never
        #expect(sv.indicatorGeometry(at: end).isEmpty)
    }

    @Test func alwaysShownIndicatorsHaveA15Or11PointTrackAndDoNotMoveContent() throws {
        let (w, sv) = try setup()
        let before = w.fullRedraw(at: 5)
        sv.indicators = .always(small: false)
        let g = try #require(sv.indicatorGeometry(at: 100).first)
        #expect(g.opacity == 1)
        #expect(g.track == Rect(x: 385, y: 0, width: 15, height: 400))
        #expect(g.thumb == Rect(x: 390, y: 3, width: 5, height: 80))
        sv.indicators = .always(small: true)
        let small = try #require(sv.indicatorGeometry(at: 100).first)
        #expect(small.track == Rect(x: 389, y: 0, width: 11, height: 400))
        #expect(small.thumb == Rect(x: 392, y: 3, width: 5, height: 80))
        // Content is not moved or narrowed: pixels left of the track are unchanged.
        let after = w.fullRedraw(at: 100)
        for y in stride(from: 0, to: 400, by: 7) { for x in stride(from: 0, to: 385, by: 5) { #expect(before[x, y] == after[x, y]) } }
        #expect(sv.content.frame.width == 400)
        // The track is drawn (a faint band) and the thumb over it.
        #expect(after[390, 200] != before[390, 200])
        #expect(after[394, 20] != after[390, 20])
    }

    @Test func anAxisWithAPageControlHasNoIndicator() throws {
        let pager = pagingScrollView(5)
        let plain = ScrollView(
            id: "plain", axes: .horizontal, content: Stack(.horizontal, children: (0..<5).map { row($0).frame(width: 400) }))
        let control = PageControl(id: "dots", scrollView: pager)
        let root = Stack(.vertical, children: [Overlay(children: [pager, control]).frame(height: 200), plain.frame(height: 200)])
        let w = try makeWindow(root)
        w.frames(from: 0, to: 0.1)
        #expect(pager.pageCount == 5)
        #expect(pager.hiddenIndicatorAxes == .horizontal)
        #expect(pager.indicatorGeometry(at: 0.1).isEmpty)
        #expect(plain.indicatorGeometry(at: 0.1).map(\.axis) == [.horizontal])
    }

    @Test func draggingTheIndicatorOfLongContentScrubs() throws {
        let (w, sv) = try setup(rows: 200)  // 10000 pt: 25 viewports; thumb 36 pt
        let thumb = try #require(verticalThumb(sv, at: 0.1))
        #expect(thumb == Rect(x: 392, y: 3, width: 5, height: 36))
        // Grab the thumb 18 pt below its top, move it half of its travel (394 − 36)/2 = 179.
        w.touch(.down, 395, 21, at: 0.1)
        w.touch(.move, 395, 21 + 179, at: 0.15)
        w.frames(from: 0.15, to: 0.15)
        #expect(sv.sampledOffset.y == 4800)
        #expect(verticalThumb(sv, at: 0.15)!.minY == 3 + 179)
        // Past the end: the last row; the content never bounces.
        w.touch(.move, 395, 900, at: 0.2)
        w.frames(from: 0.2, to: 0.2)
        #expect(sv.sampledOffset.y == 9600)
        w.touch(.move, 395, -100, at: 0.25)
        w.frames(from: 0.25, to: 0.25)
        #expect(sv.sampledOffset.y == 0)
        w.touch(.move, 395, 200, at: 0.3)
        w.touch(.up, 395, 200, at: 0.35)
        w.frames(from: 0.3, to: 1)
        #expect(sv.sampledOffset.y == 4800)

        // Short content (under four viewports): the same touch drags the content instead.
        let (w2, short) = try setup(rows: 30)
        w2.touch(.down, 395, 40, at: 0.1)
        w2.touch(.move, 395, 140, at: 0.15)
        w2.frames(from: 0.15, to: 0.15)
        #expect(short.sampledOffset.y <= 0)
    }
}
