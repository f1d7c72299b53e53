import Geometry
import Raster
import Text

/// Draws the reference "feed" scene (benchmark R1, `bench/feed-scene.md`) with `Canvas` and
/// `Text`: 200 cards (rounded rectangle with a 1 px inside border, an HSV circle, a 22 px
/// title and two 16 px body lines in DejaVu Sans), a scroll indicator and a page control.
///
/// `draw(scrollY:into:clip:)` redraws any whole-pixel rectangle of a frame and gives exactly
/// the pixels a full redraw gives there; `FeedRenderer` builds incremental frames on that.
/// Not thread-safe (it owns a `RasterCache` and glyph caches): one scene per render thread.
///
/// Measured with `Tests/Peers/cairo/compare.sh` (1280x800, frames 30-329 timed, 3 interleaved
/// runs, median of run medians; 2-core "Intel Xeon Processor" VM, `swift build -c release`,
/// cairo 1.16.0 with gcc -O2), 2026-11-22 03:05 UTC: full redraw Glide 0.469 ms vs cairo
/// 0.935 ms (0.50); incremental Glide 0.226 ms vs cairo 0.324 ms (0.70). On that machine a
/// `memset` of the frame takes 0.17 ms and a `memcpy` 0.35 ms, so incremental frames are
/// bound by the scroll memmove (75 % of their time). Profile of a full frame (perf): solid
/// span stores (background, card borders and interiors) ~45 %, glyph blending ~25 %,
/// anti-aliased edges of circles, corners and overlays (`blendSpan`) ~9 %, the rest shape
/// setup. `.reference` painting (every card pixel written three times) measured 0.63-0.73 ms
/// against 0.42-0.53 ms for `.singleWrite` in the same batch.
package final class FeedScene {
    /// How cards are painted. Both give identical pixels (a test checks it).
    package enum Painting: Sendable, Hashable {
        /// Straight `Canvas` calls: clear everything, fill each card's rounded rectangle in
        /// the border colour, then its inside in white (each card pixel written 3 times).
        case reference
        /// Each pixel written once where possible: background only outside the cards, border
        /// and white interior as solid spans, `Canvas` rounded-rectangle fills only inside
        /// the four 14 x 14 corner boxes (whose coverage `RasterCache` keeps).
        case singleWrite
    }

    package let layout: FeedLayout
    package let painting: Painting
    let cache = RasterCache()
    let titleFont: Font
    let bodyFont: Font
    let line1: PlacedText
    let line2: PlacedText
    /// "Item i" for each card, laid out (shaped, positioned) once at start-up, so that frame
    /// times measure drawing only.
    private let titles: [PlacedText]

    private let background = FeedLayout.background.premultiplied
    private let cardFill = FeedLayout.cardFill.premultiplied
    private let cardBorder = FeedLayout.cardBorder.premultiplied
    private let titleColor = FeedLayout.titleColor
    private let bodyColor = FeedLayout.bodyColor
    private let circleColors: [PremultipliedColor]

    /// Loads DejaVu Sans from `fontsDirectory` (the project's `Fonts/`) at 22 and 16 px with
    /// plain placement: one glyph per character, no kerning, whole-pixel advances and origins.
    package init(layout: FeedLayout, fontsDirectory: String, painting: Painting = .singleWrite) throws(FontError) {
        self.layout = layout
        self.painting = painting
        let library = try FontLibrary(directory: fontsDirectory)
        let face = try library.loadFace(named: FontLibrary.primaryFaceFile)
        titleFont = try Font(faces: [face], pixelSize: FeedLayout.titlePixelSize, options: .plain)
        bodyFont = try Font(faces: [face], pixelSize: FeedLayout.bodyPixelSize, options: .plain)
        line1 = PlacedText(FeedLayout.bodyLine1, font: bodyFont)
        line2 = PlacedText(FeedLayout.bodyLine2, font: bodyFont)
        let titleFont = self.titleFont
        titles = (0..<FeedLayout.cardCount).map { PlacedText("Item \($0)", font: titleFont) }
        circleColors = (0..<FeedLayout.cardCount).map { FeedLayout.circleColor($0).premultiplied }
    }

    /// Redraws frame `frame` completely.
    package func draw(frame: Int, into span: PixelSpan) {
        draw(scrollY: layout.scrollY(frame: frame), into: span, clip: layout.bounds)
    }

    /// Draws the scene at scroll offset `scrollY`, touching only the pixels inside `clip`
    /// (device pixels). The span must be the scene's size.
    package func draw(scrollY: Int, into span: PixelSpan, clip: IntRect) {
        precondition(span.width == layout.width && span.height == layout.height, "span size differs from the scene")
        let clip = clip.intersection(layout.bounds)
        guard !clip.isEmpty else { return }
        var canvas = Canvas(span: span, cache: cache)
        canvas.clip(toDeviceRect: clip)
        let visible = layout.cards(scrollY: scrollY, rows: clip.y..<clip.maxY).filter {
            !layout.card($0, scrollY: scrollY).intersection(clip).isEmpty
        }
        switch painting {
        case .reference:
            canvas.clear(color: background)
            for i in visible { paintCardReference(layout.card(i, scrollY: scrollY), canvas: canvas) }
        case .singleWrite:
            paintBackgroundAroundCards(visible.map { layout.card($0, scrollY: scrollY) }, span: span, clip: clip)
            for i in visible { paintCardSingleWrite(layout.card(i, scrollY: scrollY), canvas: canvas) }
        }
        for i in visible { drawCardContent(i, layout.card(i, scrollY: scrollY), canvas: canvas, clip: clip) }

        let thumb = layout.thumb(scrollY: scrollY)
        canvas.fill(roundedRect: thumb, radius: thumb.width / 2, color: FeedLayout.thumbColor.premultiplied)

        let control = layout.pageControl
        if !IntRect(enclosing: control).intersection(clip).isEmpty {
            canvas.fill(roundedRect: control, radius: control.height / 2, color: FeedLayout.pageControlBackground.premultiplied)
            for k in 0..<FeedLayout.pageCount {
                let color = k == FeedLayout.currentPage ? FeedLayout.currentDot : FeedLayout.otherDot
                canvas.fill(circleCenter: layout.dotCenter(k), radius: 4, color: color.premultiplied)
            }
        }
    }

    /// The card's rounded rectangle in the border colour, then its inside (inset 1 px, radius
    /// 13) in white, so each edge pixel gets its exact coverage of the 1 px band.
    private func paintCardReference(_ card: IntRect, canvas: Canvas) {
        let outer = Rect(card)
        canvas.fill(roundedRect: outer, radius: FeedLayout.cardRadius, color: cardBorder)
        canvas.fill(roundedRect: outer.insetBy(dx: 1, dy: 1), radius: FeedLayout.cardRadius - 1, color: cardFill)
    }

    /// The same pixels as `paintCardReference` over a background-cleared card, written once:
    /// outside the corner boxes the outer edge is a whole-pixel straight line (coverage 1 in
    /// the border row or column, 0 outside) and the inner edge one pixel further in, so those
    /// parts are solid spans. The 14 x 14 corner boxes (radius 14 outer, 13 inner starting
    /// 1 px in) go through the reference calls, clipped to the box.
    private func paintCardSingleWrite(_ card: IntRect, canvas: Canvas) {
        let r = Int(FeedLayout.cardRadius)
        let x = card.x, y = card.y, w = card.width, h = card.height
        let clip = canvas.clipBounds
        for (cx, cy) in [(x, y), (x + w - r, y), (x, y + h - r), (x + w - r, y + h - r)] {
            let box = IntRect(x: cx, y: cy, width: r, height: r)
            guard !box.intersection(clip).isEmpty else { continue }
            var corner = canvas
            corner.clip(toDeviceRect: box)
            corner.clear(color: background)
            paintCardReference(card, canvas: corner)
        }
        let span = canvas.span
        // Border: top and bottom rows, left and right columns, between the corner boxes.
        fillSolid(IntRect(x: x + r, y: y, width: w - 2 * r, height: 1), cardBorder, span, clip)
        fillSolid(IntRect(x: x + r, y: y + h - 1, width: w - 2 * r, height: 1), cardBorder, span, clip)
        fillSolid(IntRect(x: x, y: y + r, width: 1, height: h - 2 * r), cardBorder, span, clip)
        fillSolid(IntRect(x: x + w - 1, y: y + r, width: 1, height: h - 2 * r), cardBorder, span, clip)
        // White inside: the bands between the corner boxes and the middle.
        fillSolid(IntRect(x: x + r, y: y + 1, width: w - 2 * r, height: r - 1), cardFill, span, clip)
        fillSolid(IntRect(x: x + 1, y: y + r, width: w - 2, height: h - 2 * r), cardFill, span, clip)
        fillSolid(IntRect(x: x + r, y: y + h - r, width: w - 2 * r, height: r - 1), cardFill, span, clip)
    }

    /// Background everywhere in `clip` except inside the card rectangles (sorted by y, all
    /// spanning the same columns).
    private func paintBackgroundAroundCards(_ cards: [IntRect], span: PixelSpan, clip: IntRect) {
        var y = clip.y
        for card in cards {
            let top = max(card.y, clip.y), bottom = min(card.maxY, clip.maxY)
            fillSolid(IntRect(x: clip.x, y: y, width: clip.width, height: top - y), background, span, clip)
            fillSolid(IntRect(x: clip.x, y: top, width: card.x - clip.x, height: bottom - top), background, span, clip)
            fillSolid(IntRect(x: card.maxX, y: top, width: clip.maxX - card.maxX, height: bottom - top), background, span, clip)
            y = max(y, bottom)
        }
        fillSolid(IntRect(x: clip.x, y: y, width: clip.width, height: clip.maxY - y), background, span, clip)
    }

    /// Stores an opaque colour into `rect` ∩ `clip`.
    @inline(__always)
    private func fillSolid(_ rect: IntRect, _ color: PremultipliedColor, _ span: PixelSpan, _ clip: IntRect) {
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY { fillSpan(span.row(row) + r.x, count: r.width, color: color) }
    }

    private func drawCardContent(_ i: Int, _ card: IntRect, canvas: Canvas, clip: IntRect) {
        let x = Double(card.x), y = Double(card.y)
        let r = FeedLayout.circleDiameter / 2
        canvas.fill(circleCenter: Point(x: x + 20 + r, y: y + 20 + r), radius: r, color: circleColors[i])

        titles[i].draw(in: canvas.span, baselineX: card.x + 120, baselineY: card.y + 48, color: titleColor, clip: clip)
        line1.draw(in: canvas.span, baselineX: card.x + 120, baselineY: card.y + 80, color: bodyColor, clip: clip)
        line2.draw(in: canvas.span, baselineX: card.x + 120, baselineY: card.y + 104, color: bodyColor, clip: clip)
    }
}

/// One line of text laid out once, drawn at a whole-pixel baseline origin.
struct PlacedText {
    let layout: TextLayout
    /// Distance from the layout's top to its baseline, whole pixels.
    let baseline: Int

    init(_ text: String, font: Font) {
        layout = TextLayout(text: text, font: font)
        baseline = Int((layout.lines.first?.baseline ?? 0).rounded())
    }

    func draw(in span: PixelSpan, baselineX: Int, baselineY: Int, color: Color, clip: IntRect) {
        layout.draw(in: span, at: Point(x: Double(baselineX), y: Double(baselineY - baseline)), color: color, clip: clip)
    }
}

/// Incremental frames: keeps the previous frame's scroll offset, moves the pixels that stay
/// visible by the scroll delta (a memmove blit) and redraws only the newly exposed strip plus
/// the overlays that sit on top of moving content (page control, scroll indicator), where
/// their old pixels moved to and where they are now. The result equals a full redraw pixel
/// for pixel.
package struct FeedRenderer {
    package let scene: FeedScene
    /// The scroll offset the span holds, or nil when its contents are unknown.
    package private(set) var previousScrollY: Int?

    package init(scene: FeedScene) { self.scene = scene }

    /// Forgets the span's contents: the next frame is drawn in full.
    package mutating func invalidate() { previousScrollY = nil }

    /// Draws `frame` into `span`, which must hold the frame this renderer drew last (or
    /// anything, after `invalidate()` or on first use). Returns the redrawn rectangles
    /// (disjoint; the rest of the span was moved, not drawn). `draw` draws them (at the
    /// frame's scroll offset) when given, e.g. in bands on several threads with a scene
    /// each; otherwise this renderer's scene does.
    @discardableResult
    package mutating func render(
        frame: Int, into span: PixelSpan,
        drawing draw: ((_ scrollY: Int, _ rects: [IntRect]) -> Void)? = nil
    ) -> [IntRect] {
        let layout = scene.layout
        let scrollY = layout.scrollY(frame: frame)
        defer { previousScrollY = scrollY }
        let rects: [IntRect]
        if let previous = previousScrollY, abs(scrollY - previous) < layout.height {
            let d = scrollY - previous
            if d == 0 { return [] }
            FeedRenderer.scroll(span, by: d)
            rects = FeedRenderer.damage(layout: layout, from: previous, to: scrollY)
        } else {
            rects = [layout.bounds]
        }
        if let draw {
            draw(scrollY, rects)
        } else {
            for rect in rects { scene.draw(scrollY: scrollY, into: span, clip: rect) }
        }
        return rects
    }

    /// Moves the rows up by `d` (down for negative `d`). Rows of a tightly packed span are
    /// one contiguous block, moved with a single memmove (as cairo's peer does); otherwise
    /// row by row.
    static func scroll(_ span: PixelSpan, by d: Int) {
        guard span.stride == span.width else {
            span.move(span.bounds, dx: 0, dy: -d)
            return
        }
        let rows = span.height - abs(d)
        guard rows > 0 else { return }
        let bytes = rows * span.stride * MemoryLayout<UInt32>.stride
        let base = UnsafeMutableRawPointer(span.base)
        let rowBytes = span.stride * MemoryLayout<UInt32>.stride
        if d > 0 {
            base.copyMemory(from: base + d * rowBytes, byteCount: bytes)  // memmove
        } else {
            (base + (-d) * rowBytes).copyMemory(from: base, byteCount: bytes)
        }
    }

    /// What a scroll from offset `previous` to `scrollY` leaves to redraw after the blit: the
    /// exposed strip, and for each overlay (page control, scroll indicator) the place its old
    /// pixels moved to with the content and its new place. Disjoint.
    static func damage(layout: FeedLayout, from previous: Int, to scrollY: Int) -> [IntRect] {
        let d = scrollY - previous
        let exposed =
            d > 0
            ? IntRect(x: 0, y: layout.height - d, width: layout.width, height: d)
            : IntRect(x: 0, y: 0, width: layout.width, height: -d)
        // Rows outside the strip (the strip is redrawn at full width already).
        let kept = d > 0 ? 0..<(layout.height - d) : (-d)..<layout.height
        func outsideStrip(_ r: IntRect) -> IntRect {
            r.intersection(IntRect(x: 0, y: kept.lowerBound, width: layout.width, height: kept.count))
        }
        func movedAndNew(_ old: Rect, _ new: Rect) -> IntRect {
            let moved = IntRect(enclosing: old)
            return IntRect(x: moved.x, y: moved.y - d, width: moved.width, height: moved.height).union(IntRect(enclosing: new))
        }
        let control = movedAndNew(layout.pageControl, layout.pageControl)
        let thumb = movedAndNew(layout.thumb(scrollY: previous), layout.thumb(scrollY: scrollY))
        return [exposed, outsideStrip(control), outsideStrip(thumb)]
            .map { $0.intersection(layout.bounds) }
            .filter { !$0.isEmpty }
    }
}
