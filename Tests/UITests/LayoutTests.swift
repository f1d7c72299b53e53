@_spi(Hooks) import ViewCore
import Geometry
import Logging
@testable import Raster
import Runtime
import Scrolling
import TestSupport
import Testing
import Text
@testable import UI

@Suite struct LayoutTests {
    @Test func verticalStackPlacesChildrenWithSpacingPaddingAndAlignment() throws {
        let a = Box(id: "a", height: 20), b = Box(id: "b", height: 30)
        let c = Box(id: "c", width: 50, height: 10)
        let stack = Stack(
            .vertical, spacing: 10, padding: EdgeInsets(top: 5, leading: 7, bottom: 9, trailing: 11),
            children: [a, b, c])
        let w = try makeWindow(stack, width: 200, height: 200)
        #expect(a.frame == Rect(x: 7, y: 5, width: 182, height: 20))
        #expect(b.frame == Rect(x: 7, y: 35, width: 182, height: 30))
        // A fixed width wins over .fill.
        #expect(c.frame == Rect(x: 7, y: 75, width: 50, height: 10))
        #expect(stack.sizeThatFits(Size(width: 200, height: .infinity)) == Size(width: 200, height: 5 + 20 + 10 + 30 + 10 + 10 + 9))

        stack.alignment = .center
        w.layoutIfNeeded()
        #expect(c.frame.minX == 7 + (182 - 50) / 2)
        stack.alignment = .trailing
        w.layoutIfNeeded()
        #expect(c.frame.minX == 7 + 182 - 50)
        stack.alignment = .leading
        w.layoutIfNeeded()
        #expect(c.frame.minX == 7)
    }

    @Test func horizontalStackSharesSpaceBetweenFixedFlexibleAndSpacers() throws {
        let a = Box(id: "a", width: 40, height: 20), gap = Spacer(), b = Box(id: "b", width: 60, height: 30)
        let row = Stack(.horizontal, spacing: 5, padding: EdgeInsets(10), alignment: .center, children: [a, gap, b])
        let column = Stack(.vertical, children: [row, Box(id: "below", height: 10)])
        _ = try makeWindow(column, width: 300, height: 200)
        // Natural height: the tallest child plus padding.
        #expect(row.frame == Rect(x: 0, y: 0, width: 300, height: 50))
        #expect(a.frame == Rect(x: 10, y: 15, width: 40, height: 20))
        #expect(gap.frame.minX == 55 && gap.frame.width == 170)
        #expect(b.frame == Rect(x: 230, y: 10, width: 60, height: 30))

        // Flexible children share what the fixed ones leave.
        let f1 = Box(id: "f1", height: 10), f2 = Box(id: "f2", height: 10), fixed = Box(width: 100, height: 10)
        let shared = Stack(.horizontal, spacing: 10, alignment: .leading, children: [f1, fixed, f2])
        _ = try makeWindow(Stack(.vertical, children: [shared]), width: 320, height: 100)
        #expect(f1.frame == Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(fixed.frame.minX == 110)
        #expect(f2.frame == Rect(x: 220, y: 0, width: 100, height: 10))
    }

    /// A row that cannot give every child an equal share it fits in gives short children their
    /// ideal width and the rest to the others, as SwiftUI does: a title next to a clock.
    @Test func aRowGivesChildrenTheirIdealWidthFirst() throws {
        let title = Label("Departures to Amsterdam", size: 20, maxLines: 1)
        let clock = Label("12:45", size: 20, maxLines: 1)
        let row = Stack(.horizontal, spacing: 10, children: [title, clock])
        let w1 = try makeWindow(Stack(.vertical, children: [row]), width: 400, height: 100)
        let clockWidth = clock.sizeThatFits(Size(width: .infinity, height: .infinity)).width
        #expect(clock.frame.width == clockWidth)
        #expect(title.frame.width == 390 - clockWidth)
        // Equal halves would cut the title; its ideal width fits beside the clock.
        #expect(title.sizeThatFits(Size(width: .infinity, height: .infinity)).width > 195)
        #expect(title.frame.width >= title.sizeThatFits(Size(width: .infinity, height: .infinity)).width)

        // A higher priority is served first; a fixed-size child keeps its ideal width; a
        // spacer keeps its minimum length.
        let low = Label("Low priority text that is long", size: 20, maxLines: 1)
        let high = Label("High priority text, also long", size: 20, maxLines: 1).layoutPriority(1)
        let prioritised = Stack(.horizontal, children: [low, high])
        let fixed = Label("Fixed", size: 20, maxLines: 1).fixedSize()
        let gap = Spacer(minLength: 30)
        let squeezed = Stack(.horizontal, children: [Label(String(repeating: "wide ", count: 40), size: 20, maxLines: 1), gap, fixed])
        let w2 = try makeWindow(Stack(.vertical, children: [prioritised, squeezed]), width: 400, height: 100)
        defer { withExtendedLifetime((w1, w2)) {} }
        #expect(high.frame.width == high.sizeThatFits(Size(width: .infinity, height: .infinity)).width)
        #expect(low.frame.width == 400 - high.frame.width)
        #expect(fixed.frame.width == fixed.sizeThatFits(Size(width: .infinity, height: .infinity)).width)
        #expect(gap.frame.width == 30)
        #expect(fixed.frame.maxX == 400)
    }

    /// Children that run past their stack's edge are cut off where a person sees it: said once
    /// in the window's log, naming the stack and them; a row that fits says nothing.
    @Test func aRowThatOverflowsIsReportedOnce() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        let row = Stack(
            .horizontal, id: "prices", spacing: 10,
            children: [
                Box(id: "a", width: 200, height: 20), Box(id: "b", width: 150, height: 20), Box(id: "c", width: 100, height: 20),
            ])
        let fits = Stack(.horizontal, id: "fits", children: [Box(width: 100, height: 20), Label("Short", maxLines: 1)])
        let w = Window(width: 400, height: 100, typography: try makeTypography(), root: Stack(.vertical, children: [row, fits]))
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.layoutIfNeeded()
        w.setNeedsLayoutForOverflow()
        w.layoutIfNeeded()
        #expect(
            lines.lines == [
                "Stack 'prices' is 400 points wide inside its padding but its children need 470: 'c' is cut off (let text wrap, give fixed sizes less, or put the stack in a scroll view) view=prices"
            ])
    }

    /// A one-line label cut short while a sibling has room it does not need (a view that takes
    /// what it is given) is said once; a title, a spacer and a clock that fit say nothing.
    @Test func aLabelCutWhileASiblingHasRoomIsReportedOnce() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        let title = Label("Departures to every city in the region", id: "title", maxLines: 1)
        let row = Stack(.horizontal, id: "header", children: [title, Box(id: "filler", fill: .black, height: 20)])
        let fine = Stack(.horizontal, id: "fine", children: [Label("Departures", maxLines: 1), Spacer(), Label("12:45", maxLines: 1)])
        let w = Window(width: 400, height: 100, typography: try makeTypography(), root: Stack(.vertical, children: [row, fine]))
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.layoutIfNeeded()
        w.setNeedsLayoutForOverflow()
        w.layoutIfNeeded()
        #expect(title.frame.width == 200)
        #expect(lines.lines.count == 1)
        #expect(lines.lines.first?.hasPrefix("Stack 'header' cuts label 'title' to 200 of the ") == true)
        #expect(
            lines.lines.first?.hasSuffix(
                "points it needs while 'filler' has room it does not need (give the label layoutPriority(1) or fixedSize(), or the other view a width) view=title"
            ) == true)
        // The app's fix: the label first.
        title.layoutPriority(1)
        w.layoutIfNeeded()
        #expect(title.frame.width > 300)
    }

    /// The first layout that fits the width shows; the others are out of the tree. A wider
    /// window, or smaller text, brings the first back.
    @Test func viewThatFitsShowsTheFirstLayoutThatFits() throws {
        func pair(_ axis: Stack.Axis) -> Stack {
            Stack(axis, children: [Box(id: "a", width: 300, height: 40), Box(id: "b", width: 300, height: 40)])
        }
        let fits = ViewThatFits(id: "header", pair(.horizontal), pair(.vertical))
        let w = try makeWindow(Stack(.vertical, children: [fits, Box(id: "rest")]), width: 480, height: 300)
        w.layoutIfNeeded()
        #expect(fits.frame.height == 80 && fits.children.first === fits.candidates[1])
        #expect(w.root.view(withID: "b")?.frameInWindow == Rect(x: 0, y: 40, width: 300, height: 40))
        w.resize(width: 700, height: 300)
        w.layoutIfNeeded()
        #expect(fits.frame.height == 40 && fits.children.first === fits.candidates[0])
        #expect(w.root.view(withID: "b")?.frameInWindow == Rect(x: 300, y: 0, width: 300, height: 40))
    }

    /// A view shown again takes its place in its stack (a spinner shown while paying).
    @Test func showingAHiddenViewLaysItsStackOutAgain() throws {
        let spinner = Box(id: "spinner", fill: .black, width: 40, height: 40)
        spinner.isHidden = true
        let row = Stack(.horizontal, spacing: 10, children: [Box(width: 100, height: 40), spinner])
        let w = try makeWindow(Stack(.vertical, children: [row]), width: 400, height: 100)
        #expect(spinner.frame == .zero)
        spinner.isHidden = false
        w.layoutIfNeeded()
        #expect(spinner.frame == Rect(x: 110, y: 0, width: 40, height: 40))
    }

    @Test func labelsWrapToTheirWidth() throws {
        let text = "Flick the feed: it keeps your finger's speed and slows down the way a phone does."
        let oneLine = Label("Flick", size: 20)
        let wrapped = Label(text, size: 20)
        let japanese = Label(String(repeating: "日本語の長い記事です。", count: 4), size: 20)
        let limited = Label(text, size: 20, maxLines: 2)
        let column = Stack(
            .vertical, spacing: 0, alignment: .leading,
            children: [
                oneLine, wrapped.frame(width: 200), japanese.frame(width: 200), limited.frame(width: 200),
            ])
        _ = try makeWindow(column, width: 400, height: 600)
        let line = oneLine.frame.height
        #expect(line >= 20 && line <= 30)
        #expect(wrapped.frame.width == 200)
        #expect(wrapped.frame.height >= 4 * line, "wrapped to \(wrapped.frame.height) (one line is \(line))")
        #expect(japanese.frame.height >= 3 * line)
        #expect(approx(limited.frame.height, 2 * line, 1))
        // Wider is shorter.
        let wide = Label(text, size: 20)
        _ = try makeWindow(Stack(.vertical, children: [wide]), width: 800, height: 600)
        #expect(wide.frame.height < wrapped.frame.height)
    }

    @Test func overlayAlignsChildrenInsideItsInset() throws {
        let badge = Box(id: "badge", width: 30, height: 20)
        let centre = Box(id: "centre", width: 40, height: 10)
        let overlay = Overlay(alignment: .bottomTrailing, inset: EdgeInsets(10), children: [Box(fill: .white), badge])
        let centred = Overlay(alignment: .center, children: [Box(), centre])
        let column = Stack(.vertical, children: [overlay.frame(height: 100), centred.frame(height: 60)])
        _ = try makeWindow(column, width: 200, height: 200)
        #expect(overlay.children[0].frame == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(badge.frame == Rect(x: 160, y: 70, width: 30, height: 20))
        #expect(centre.frame == Rect(x: 80, y: 25, width: 40, height: 10))
    }

    @Test func tenThousandRowsLayOutAndAFrameDrawsOnlyVisibleRows() throws {
        let counter = Counter()
        let stack = Stack(.vertical, id: "rows", spacing: 1)
        for i in 0..<10_000 { stack.add(CountingBox(id: "row-\(i)", counter: counter, height: 44)) }
        let sv = ScrollView(id: "list", content: stack)
        let w = try makeWindow(sv, width: 400, height: 400)
        #expect(sv.content.frame.height == 10_000 * 44 + 9_999)
        let buffer = PixelBuffer(width: 400, height: 400)
        _ = w.render(into: buffer, at: 0)
        // 400 / 45 ≈ 9 rows on screen, plus the partly visible one.
        #expect(counter.count <= 11 && counter.count >= 9, "drew \(counter.count) rows")
        #expect(counter.ids.contains("row-0") && counter.ids.contains("row-8"))

        counter.count = 0; counter.ids = []
        sv.scroll(to: Point(x: 0, y: 200_000), animated: false)
        _ = w.render(into: buffer, at: 1 / 60)
        #expect(counter.count <= 11, "drew \(counter.count) rows")
        // 200000 / 45 = 4444.4: rows 4444 … 4453 are visible.
        #expect(counter.ids.contains("row-4444") && counter.ids.contains("row-4453"))
        #expect(!counter.ids.contains("row-4442") && !counter.ids.contains("row-4455"))
        // Hit testing uses the same search.
        #expect(w.root.hitTest(Point(x: 200, y: 10))?.id == "row-4444")
        #expect(sv.reportedID == "row-4444")

        // A frame with nothing changed draws nothing.
        counter.count = 0
        _ = w.render(into: buffer, at: 2 / 60)
        #expect(counter.count == 0)
    }

    @Test func aCardRendersAsItsGolden() throws {
        let image = PixelBuffer(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { image[x, y] = Color(red: UInt8(x * 6), green: UInt8(y * 8), blue: 160).premultiplied.argb } }
        let card = Stack(
            .horizontal, spacing: 12, padding: EdgeInsets(12), alignment: .leading,
            children: [
                ImageView(image, width: 64, height: 64, cornerRadius: 8),
                Stack(
                    .vertical, spacing: 4,
                    children: [
                        Label("Evening at the lake", size: 17, maxLines: 1),
                        Label(
                            "Flick the feed: it keeps your finger's speed and slows down.", size: 13,
                            color: Color(rgb: 0x3A3A3C), maxLines: 3),
                    ]),
            ])
        card.background(.white, cornerRadius: 12, border: Color(rgb: 0xD1D1D6))
        let root = Stack(.vertical, padding: EdgeInsets(10), children: [card])
        let w = try makeWindow(root, width: 640, height: 280, scale: 2)
        let frame = w.fullRedraw(at: 0)
        assertGolden(frame, suite: "UI", name: "layout-card")
    }

    /// Shrunk to a third, one-pixel stripes would alias to black and white stripes under plain
    /// bilinear sampling (each destination pixel samples one source pixel); drawn from a
    /// halved copy they are the grey a person sees.
    @Test func aStronglyShrunkImageIsFilteredNotAliased() throws {
        let stripes = PixelBuffer(width: 48, height: 48)
        for y in 0..<48 { for x in 0..<48 { stripes[x, y] = x % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF } }
        let view = ImageView(stripes, id: "stripes", width: 16, height: 16)
        let w = try makeWindow(Stack(.vertical, alignment: .leading, children: [view]), width: 64, height: 64)
        let frame = w.frames(from: 0, to: 0)
        var greens: Set<UInt32> = []
        for y in 2..<14 { for x in 2..<14 { greens.insert((frame[x, y] >> 8) & 0xFF) } }
        #expect(greens.allSatisfy { (126...129).contains($0) }, "\(greens.sorted())")
        // Halvings are made once, kept by the window's raster cache and shared.
        let cache = w.rasterCache
        let again = cache.source(for: Size(width: 16, height: 16), from: stripes)
        #expect(again === cache.source(for: Size(width: 16, height: 16), from: stripes) && again.width == 24)
        #expect(cache.source(for: Size(width: 11, height: 11), from: stripes).width == 12)
        #expect(cache.source(for: Size(width: 30, height: 30), from: stripes) === stripes)
    }

    /// Many views of one image hold one set of halvings, and the halvings of many images stay
    /// within the cache's byte budget, the least recently drawn dropped first.
    @Test func halvingsAreSharedAndBounded() throws {
        let photo = PixelBuffer(width: 400, height: 400, fill: PremultipliedColor(argb: 0xFF33_6699))
        let views = (0..<50).map { ImageView(photo, id: "p\($0)", width: 50, height: 50) }
        let w = try makeWindow(Flow(spacing: 0, children: views), width: 500, height: 250)
        w.frames(from: 0, to: 0)
        #expect(w.rasterCache.halvings.count == 1)
        #expect(w.rasterCache.halvingBytes == (200 * 200 + 100 * 100) * 4)
        let cache = RasterCache()
        cache.maximumHalvingBytes = 1 << 20
        let images = (0..<10).map { _ in PixelBuffer(width: 512, height: 512) }
        for image in images { _ = cache.source(for: Size(width: 100, height: 100), from: image) }
        // Each keeps 256² and 128² (327,680 bytes): the three drawn last fit in 1 MiB.
        #expect(cache.halvingBytes == 3 * 327_680 && cache.halvings.count == 3)
        #expect((7...9).allSatisfy { cache.halvings[ObjectIdentifier(images[$0])] != nil })
    }
}

/// Adaptive layouts: limits, wrapping rows, a layout chosen by size.
@Suite struct AdaptiveLayoutTests {
    @Test func flowWrapsChildrenThatDoNotFit() throws {
        let tags = (0..<5).map { Box(id: "tag-\($0)", fill: Color(rgb: 0x2A9D8F), width: 90, height: 30) }
        let flow = Flow(id: "tags", spacing: 10, lineSpacing: 6, padding: EdgeInsets(5), children: tags)
        let w = try makeWindow(Stack(.vertical, alignment: .fill, children: [flow]), width: 300, height: 200)
        // 290 points inside the padding: two tags of 90 and a gap of 10 fit, a third does too
        // (90 + 10 + 90 + 10 + 90 = 290), the fourth wraps.
        #expect(w.root.view(withID: "tag-2")!.frameInWindow == Rect(x: 205, y: 5, width: 90, height: 30))
        #expect(w.root.view(withID: "tag-3")!.frameInWindow == Rect(x: 5, y: 41, width: 90, height: 30))
        #expect(flow.frame.height == 5 + 30 + 6 + 30 + 5)
    }

    @Test func stacksKeepChildrenWithinTheirLimits() throws {
        let wide = Box(id: "wide", fill: .white)
        wide.maxWidth = 120
        let tall = Box(id: "tall", fill: .white, height: 10)
        tall.minHeight = 44
        let w = try makeWindow(Stack(.vertical, alignment: .fill, children: [wide.frame(height: 20), tall]), width: 300, height: 200)
        #expect(w.root.view(withID: "wide")!.frame.width == 120)
        #expect(w.root.view(withID: "tall")!.frame.height == 44)
    }

    @Test func adaptiveChoosesALayoutBySize() throws {
        let row = Stack(.horizontal, children: [Box(fill: .white, width: 50, height: 50), Box(fill: .white, width: 50, height: 50)])
        var seen: [Double] = []
        let adaptive = Adaptive(content: row) { size in
            seen.append(size.width)
            row.axis = size.width < 400 ? .vertical : .horizontal
        }
        let w = try makeWindow(adaptive, width: 300, height: 300)
        #expect(row.axis == .vertical && seen.last == 300)
        w.resize(width: 600, height: 300)
        w.layoutIfNeeded()
        #expect(row.axis == .horizontal && seen.last == 600)
        #expect(!w.needsLayout)
    }
}

extension Window {
    /// Lays the tree out again (a test that reads what layout reports, twice).
    func setNeedsLayoutForOverflow() { needsLayout = true }
}
