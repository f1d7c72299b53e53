/// Raster: a software rasteriser into 32-bit pixels (premultiplied 0xAARRGGBB, which is also
/// DRM's XRGB8888 when the top byte is ignored), with a stride.
///
/// `Canvas` draws anti-aliased rectangles at fractional positions, rounded rectangles, circles,
/// general paths (non-zero and even-odd), rounded-rectangle strokes, bilinear/nearest images
/// and tinted alpha masks (glyphs), clipped to a rectangle and any number of rounded
/// rectangles. All compositing is integer source-over on premultiplied colour (`div255`), and
/// geometry uses only + − × ÷ and √, so the same drawing gives the same bits on x86 and ARM.
///
/// How it stays fast: every primitive describes itself one pixel row at a time as a
/// `CoverageRow` (a solid middle run plus a few per-pixel coverage bytes); the solid run of an
/// opaque colour is a store (`fillSpan`, libc's `wmemset` for all but short runs), partial
/// pixels go through `blendSpan`. Dispatch is per row, never per pixel, except in the corner
/// boxes of rounded rectangles, which are blended a whole box per call (`blendRows`, as glyphs
/// are); inner loops run over raw pointers; what repeats (corner and circle coverage) is cached
/// in a `RasterCache` that the caller owns.
///
/// Measured before the stores went through `wmemset` (a quick release build: `swiftc -O -wmo` of
/// Geometry + Raster + a timing main, on the shared 2-core "Intel Xeon Processor" VM, Swift 6.3.1;
/// median of 300 repetitions, five runs): filling a whole 1280x800 frame with an opaque colour
/// through `fill(rect:color:)` takes 0.22-0.23 ms and `clear(color:)` 0.21-0.23 ms, against
/// 0.19-0.20 ms for `memset` of the same 4 MB in the same process: within about 15 % of memset. A
/// 30 % black full-frame blend takes 0.95-1.06 ms; the reference feed scene without its text
/// (clear, six 1232x120 cards with border and circle, thumb, page control) 0.49-0.52 ms; a 2x
/// bilinear image over the whole frame 3.9-4.1 ms (nearest: 1.0 ms). These were taken with the
/// machine otherwise quiet; with other builds running (load average 4 on 2 cores) the same binary
/// measured memset 0.19-0.24, opaque fill 0.22-0.31, feed scene 0.61-0.80 and bilinear 7.5-15 ms:
/// compare within one run.
///
/// Cross-module policy: the per-span kernels (`fillSpan`, `blendSpan`, `lerpPixel`,
/// `scalePixel`, `div255`, `sourceOver`) are `@inlinable` for modules that write spans
/// themselves (FeedScene, Text); `Canvas` methods are ordinary calls, one per shape, whose row
/// loops are specialised inside Raster.
import Geometry

/// How an image is sampled when drawn scaled.
package enum ImageFilter: Sendable, Hashable {
    /// Nearest pixel (sharp, blocky when zoomed).
    case nearest
    /// Bilinear interpolation of the four nearest pixels (8-bit weights, integer math).
    case bilinear
}

/// Where a stroke lies relative to the outline it follows.
package enum StrokeAlignment: Sendable, Hashable {
    /// Half inside, half outside.
    case center
    /// Entirely inside (a border drawn inside a card's edge).
    case inside
    /// Entirely outside.
    case outside
}

/// Draws into a borrowed `PixelSpan`. A value: copying a canvas copies its clip and
/// translation state, not the pixels. A recording canvas (`init(recordingInto:span:cache:)`)
/// keeps its drawing in a `DisplayList` instead and leaves the span's pixels alone: every
/// primitive is one `DisplayList.Operation` that the canvas either records or rasterises
/// (`perform`), and code that writes pixels itself goes through `drawPixels(_:)`.
package struct Canvas {
    /// The pixels drawn into (a recording canvas only measures against them).
    package let span: PixelSpan
    package let cache: RasterCache
    /// Where drawing goes instead of the span, when recording.
    let recorder: DisplayList?

    struct State {
        var clip: IntRect
        var roundClips: [RoundedRectShape]
        var translation: Point
    }
    var state: State
    var saved: [State] = []

    /// A canvas over `span`; the clip starts as the whole span, the translation as zero.
    /// The span's memory must stay valid while the canvas draws.
    package init(span: PixelSpan, cache: RasterCache) {
        self.init(span: span, cache: cache, owner: nil, recorder: nil)
    }

    /// A canvas over a buffer's pixels; the canvas keeps the buffer alive.
    package init(_ buffer: PixelBuffer, cache: RasterCache) {
        self.init(span: buffer.span, cache: cache, owner: buffer, recorder: nil)
    }

    /// A canvas that appends what it draws to `list`, with the clip starting as `span`'s
    /// bounds; `cache` serves what is decided while recording (a picture's halvings, rounded
    /// clips). Replay the list on canvases over `span`.
    package init(recordingInto list: DisplayList, span: PixelSpan, cache: RasterCache) {
        self.init(span: span, cache: cache, owner: nil, recorder: list)
    }

    private init(span: PixelSpan, cache: RasterCache, owner: PixelBuffer?, recorder: DisplayList?) {
        self.span = span
        self.cache = cache
        self.owner = owner
        self.recorder = recorder
        state = State(clip: span.bounds, roundClips: [], translation: .zero)
    }
    private let owner: PixelBuffer?

    /// This canvas with its state, drawing into its span.
    var drawingDirectly: Canvas {
        var c = Canvas(span: span, cache: cache, owner: owner, recorder: nil)
        c.state = state
        return c
    }

    /// Draws with a function that writes the span's pixels itself, only inside the clip
    /// rectangle it is given (already translated: device pixels). Rounded clips do not apply.
    /// When recording, `body` is kept and called at replay, once per band its clip reaches,
    /// possibly on another thread: it must read only what stays unchanged until then.
    package func drawPixels(_ body: @escaping (_ span: PixelSpan, _ clip: IntRect) -> Void) {
        perform(.pixels(body))
    }

    func drawPixelsDirectly(_ body: @escaping (_ span: PixelSpan, _ clip: IntRect) -> Void) {
        guard !state.clip.isEmpty else { return }
        body(span, state.clip)
    }

    /// Every primitive comes here, as the operation a display list keeps: a recording canvas
    /// appends it, any other draws it. One path for both, so a recorded frame replays exactly
    /// what direct drawing would have drawn.
    func perform(_ operation: DisplayList.Operation) {
        if let recorder { recorder.append(operation, in: state) } else { rasterise(operation) }
    }

    /// Draws `operation` into the span, whatever the canvas is.
    func rasterise(_ operation: DisplayList.Operation) {
        switch operation {
        case let .clear(color): clearDirectly(color: color)
        case let .fillRect(rect, color): fillDirectly(rect: rect, color: color)
        case let .fillRoundedRect(rect, radius, color): fillDirectly(roundedRect: rect, radius: radius, color: color)
        case let .strokeRoundedRect(rect, radius, lineWidth, color, alignment):
            strokeDirectly(roundedRect: rect, radius: radius, lineWidth: lineWidth, color: color, alignment: alignment)
        case let .fillCircle(center, radius, color): fillDirectly(circleCenter: center, radius: radius, color: color)
        case let .fillPath(path, rule, color, tolerance): fillDirectly(path: path, rule: rule, color: color, tolerance: tolerance)
        case let .strokePath(path, lineWidth, color, roundCaps, tolerance):
            strokeDirectly(path: path, lineWidth: lineWidth, color: color, roundCaps: roundCaps, tolerance: tolerance)
        case let .blend(mask, x, y, color): blendDirectly(mask: mask, x: x, y: y, color: color)
        case let .image(image, rect, filter, opacity, extendingEdges):
            drawDirectly(image: image, in: rect, filter: filter, opacity: opacity, extendingEdges: extendingEdges)
        case let .turnedImage(image, degrees, center, opacity):
            drawDirectly(image: image, turnedBy: degrees, around: center, opacity: opacity)
        case let .pixels(body): drawPixelsDirectly(body)
        }
    }

    // MARK: State

    /// The current clip rectangle in device pixels (always inside the span).
    package var clipBounds: IntRect { state.clip }
    /// The offset added to every drawing coordinate.
    package var translation: Point { state.translation }
    /// Number of active rounded-rectangle clips.
    package var roundedClipCount: Int { state.roundClips.count }

    /// Saves clip and translation; `restore()` brings them back.
    package mutating func save() { saved.append(state) }
    /// Restores the state of the matching `save()` (does nothing when nothing is saved).
    package mutating func restore() { if let s = saved.popLast() { state = s } }

    /// Moves the origin by (`dx`, `dy`) pixels (may be fractional).
    package mutating func translate(dx: Double, dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        state.translation = Point(state.translation.x + dx, state.translation.y + dy)
    }

    /// Intersects the clip with `rect` (translated, then each edge rounded to the nearest whole
    /// pixel: the rectangle clip is hard-edged).
    package mutating func clip(to rect: Rect) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            state.clip = .zero; return
        }
        let t = state.translation
        let x0 = pixelFloor((rect.minX + t.x + 0.5)), y0 = pixelFloor((rect.minY + t.y + 0.5))
        let x1 = pixelFloor((rect.maxX + t.x + 0.5)), y1 = pixelFloor((rect.maxY + t.y + 0.5))
        guard x1 > x0, y1 > y0 else {
            state.clip = .zero; return
        }
        state.clip = state.clip.intersection(IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// Intersects the clip with a whole-pixel device rectangle (the translation does not apply).
    package mutating func clip(toDeviceRect rect: IntRect) {
        state.clip = state.clip.intersection(rect)
    }

    /// Intersects the clip with an anti-aliased rounded rectangle (translated).
    package mutating func clip(toRoundedRect rect: Rect, radius: Double) {
        let shape = RoundedRectShape(device(rect), radius: radius, cache: cache, clip: span.bounds, visible: state.clip)
        state.clip = state.clip.intersection(shape.pixelBounds)
        state.roundClips.append(shape)
    }

    @inline(__always) func device(_ r: Rect) -> Rect { r.offsetBy(dx: state.translation.x, dy: state.translation.y) }

    // MARK: Drawing

    /// Sets every pixel inside the clip rectangle to `color` (a copy, not a blend; rounded clips
    /// do not apply).
    package func clear(color: PremultipliedColor) { perform(.clear(color)) }

    func clearDirectly(color: PremultipliedColor) {
        let c = state.clip
        guard !c.isEmpty else { return }
        for y in c.y..<c.maxY { storeSpan(span.row(y) + c.x, count: c.width, color: color.argb) }
    }

    /// Fills a rectangle; edges at fractional positions get partial coverage (area, rounded:
    /// a pixel half covered gets 128).
    package func fill(rect: Rect, color: PremultipliedColor) { perform(.fillRect(rect, color)) }

    func fillDirectly(rect: Rect, color: PremultipliedColor) {
        fillShape(RectShape(device(rect)), color: color)
    }

    /// Fills a rounded rectangle (radius clamped to half the shorter side; coordinates snapped
    /// to 1/64 pixel).
    package func fill(roundedRect rect: Rect, radius: Double, color: PremultipliedColor) {
        perform(.fillRoundedRect(rect, radius: radius, color))
    }

    func fillDirectly(roundedRect rect: Rect, radius: Double, color: PremultipliedColor) {
        let shape = RoundedRectShape(device(rect), radius: radius, cache: cache, clip: span.bounds, visible: state.clip)
        if state.roundClips.isEmpty, fillCornerBands(shape, color: color) { return }
        fillShape(shape, color: color)
    }

    /// Strokes the outline of a rounded rectangle with a band `lineWidth` wide.
    package func stroke(
        roundedRect rect: Rect, radius: Double, lineWidth: Double, color: PremultipliedColor,
        alignment: StrokeAlignment = .center
    ) {
        perform(.strokeRoundedRect(rect, radius: radius, lineWidth: lineWidth, color, alignment))
    }

    func strokeDirectly(
        roundedRect rect: Rect, radius: Double, lineWidth: Double, color: PremultipliedColor,
        alignment: StrokeAlignment = .center
    ) {
        guard lineWidth.isFinite, lineWidth > 0 else { return }
        let outset: Double
        switch alignment {
        case .center: outset = lineWidth / 2
        case .inside: outset = 0
        case .outside: outset = lineWidth
        }
        let outerRect = device(rect).insetBy(dx: -outset, dy: -outset)
        let outer = RoundedRectShape(outerRect, radius: radius + outset, cache: cache, clip: span.bounds, visible: state.clip)
        let innerRect = outerRect.insetBy(dx: lineWidth, dy: lineWidth)
        let inner =
            innerRect.isEmpty
            ? nil
            : RoundedRectShape(innerRect, radius: max(0, radius + outset - lineWidth), cache: cache, clip: span.bounds, visible: state.clip)
        fillShape(RingShape(outer: outer, inner: inner), color: color)
    }

    /// Fills a circle. Coverage for radii up to 256 px is cached per (radius, sub-pixel phase).
    package func fill(circleCenter center: Point, radius: Double, color: PremultipliedColor) {
        perform(.fillCircle(center, radius: radius, color))
    }

    func fillDirectly(circleCenter center: Point, radius: Double, color: PremultipliedColor) {
        guard radius.isFinite, radius > 0, center.isFinite else { return }
        let cx = center.x + state.translation.x, cy = center.y + state.translation.y
        let r64 = Int((min(radius, coordinateLimit) * 64).rounded())
        guard r64 > 0 else { return }
        let r = Double(r64) / 64
        // Large circles, and centres past the coordinate limit (whose sub-pixel phase is not a
        // number of 64ths any more), go through the path filler, which clamps.
        guard r <= RasterCache.maximumCachedRadius, abs(cx) < coordinateLimit, abs(cy) < coordinateLimit else {
            fill(
                path: {
                    var p = Path(); p.addCircle(center: center, radius: radius); return p
                }(), color: color)
            return
        }
        let left = ((cx - r) * 64).rounded() / 64, top = ((cy - r) * 64).rounded() / 64
        let ox = pixelFloor(left), oy = pixelFloor(top)
        let px = Int(((left - Double(ox)) * 64).rounded()) & 63, py = Int(((top - Double(oy)) * 64).rounded()) & 63
        let mask = cache.circleMask(radius64: r64, phaseX: px, phaseY: py)
        withExtendedLifetime(mask) { fillShape(MaskShape(mask, x: ox, y: oy), color: color) }
    }

    /// Fills a path (translated) with the given fill rule; curves are flattened to within
    /// `tolerance` pixels.
    package func fill(path: Path, rule: FillRule = .nonZero, color: PremultipliedColor, tolerance: Double = 0.05) {
        perform(.fillPath(path, rule, color, tolerance: tolerance))
    }

    func fillDirectly(path: Path, rule: FillRule, color: PremultipliedColor, tolerance: Double) {
        let t = state.translation
        var lines = path.flattened(tolerance: tolerance)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in lines.indices {
            for j in lines[i].indices {
                let p = Point(lines[i][j].x + t.x, lines[i][j].y + t.y)
                lines[i][j] = p
                if p.isFinite {
                    minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
                }
            }
        }
        guard minX <= maxX, minY <= maxY else { return }
        let box = IntRect(
            x: pixelFloor(minX), y: pixelFloor(minY),
            width: pixelCeil(maxX) - pixelFloor(minX), height: pixelCeil(maxY) - pixelFloor(minY)
        )
        .intersection(span.bounds)
        // Scan converted over the span, not the clip, so a partial redraw (damage) produces the
        // same bits as a full one; the clip applies when compositing.
        guard !box.isEmpty, !box.intersection(state.clip).isEmpty else { return }
        let mask = ScanConverter.mask(lines, box: box, rule: rule, cache: cache)
        withExtendedLifetime(mask) { fillShape(MaskShape(mask, x: box.x, y: box.y), color: color) }
    }

    /// Strokes a path (translated) with a band `lineWidth` wide centred on it, with round joins
    /// and butt (default) or round caps. Coverage comes from the distance of each pixel centre
    /// to the nearest flattened segment (clamp(w/2 − d + ½, 0, 1), the union taken as the
    /// maximum, so overlapping segments never darken edges); lines thinner than 1 px are drawn
    /// 1 px wide at proportionally lower coverage. Use it for icons and hairlines; rounded
    /// rectangles have the exact `stroke(roundedRect:)`.
    package func stroke(
        path: Path, lineWidth: Double, color: PremultipliedColor, roundCaps: Bool = false,
        tolerance: Double = 0.05
    ) {
        perform(.strokePath(path, lineWidth: lineWidth, color, roundCaps: roundCaps, tolerance: tolerance))
    }

    func strokeDirectly(path: Path, lineWidth: Double, color: PremultipliedColor, roundCaps: Bool, tolerance: Double) {
        guard lineWidth.isFinite, lineWidth > 0 else { return }
        let t = state.translation
        let h = max(lineWidth, 1) / 2, scale = min(lineWidth, 1)
        var subpaths = path.flattenedSubpaths(tolerance: tolerance)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in subpaths.indices {
            var points: [Point] = []
            for p in subpaths[i].points {
                let q = Point(p.x + t.x, p.y + t.y)
                guard q.isFinite, points.last != q else { continue }
                points.append(q)
                minX = min(minX, q.x); minY = min(minY, q.y); maxX = max(maxX, q.x); maxY = max(maxY, q.y)
            }
            subpaths[i].points = points
        }
        guard minX <= maxX, minY <= maxY else { return }
        let box = IntRect(
            x: pixelFloor(minX - h - 1), y: pixelFloor(minY - h - 1),
            width: pixelCeil(maxX + h + 1) - pixelFloor(minX - h - 1),
            height: pixelCeil(maxY + h + 1) - pixelFloor(minY - h - 1)
        )
        .intersection(span.bounds)  // not the clip: partial redraws give the same bits
        guard !box.isEmpty, !box.intersection(state.clip).isEmpty else { return }
        let mask = CoverageMask(width: box.width, height: box.height)
        for sub in subpaths {
            let pts = sub.points
            if pts.count <= 1 {  // a dot, or nothing left once points that are not finite went
                if roundCaps, let dot = pts.first {
                    Canvas.stampSegment(mask, box: box, dot, dot, h: h, scale: scale, cutStart: false, cutEnd: false)
                }
                continue
            }
            let closed = sub.closed && pts.count > 2
            let count = closed ? pts.count : pts.count - 1
            for i in 0..<count {
                Canvas.stampSegment(
                    mask, box: box, pts[i], pts[(i + 1) % pts.count], h: h, scale: scale,
                    cutStart: !closed && !roundCaps && i == 0,
                    cutEnd: !closed && !roundCaps && i == count - 1)
            }
        }
        mask.computeRuns()
        withExtendedLifetime(mask) { fillShape(MaskShape(mask, x: box.x, y: box.y), color: color) }
    }

    /// Max-combines the coverage of one thick segment (a capsule; ends cut flat when asked).
    static func stampSegment(
        _ mask: CoverageMask, box: IntRect, _ a: Point, _ b: Point, h: Double, scale: Double,
        cutStart: Bool, cutEnd: Bool
    ) {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        let ux = length > 0 ? dx / length : 0, uy = length > 0 ? dy / length : 0
        let x0 = max(pixelFloor(min(a.x, b.x) - h - 1), box.x), x1 = min(pixelCeil(max(a.x, b.x) + h + 1), box.maxX)
        let y0 = max(pixelFloor(min(a.y, b.y) - h - 1), box.y), y1 = min(pixelCeil(max(a.y, b.y) + h + 1), box.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let reach = h + 1
        for y in y0..<y1 {
            let row = mask.bytes + (y - box.y) * mask.width - box.x
            let cy = Double(y) + 0.5 - a.y
            // Only the columns within reach of the part of the segment near this row: a long
            // diagonal segment costs its length, not the area of its bounding box.
            var xs = x0, xe = x1
            if dy != 0 {
                let s0 = max(min((cy - reach) / dy, (cy + reach) / dy), 0)
                let s1 = min(max((cy - reach) / dy, (cy + reach) / dy), 1)
                guard s0 <= s1 else { continue }
                let xa = a.x + s0 * dx, xb = a.x + s1 * dx
                xs = max(x0, pixelFloor(min(xa, xb) - reach)); xe = min(x1, pixelCeil(max(xa, xb) + reach))
                guard xs < xe else { continue }
            }
            for x in xs..<xe {
                let cx = Double(x) + 0.5 - a.x
                let along = cx * ux + cy * uy
                let s = min(max(along, 0), length)
                let ex = cx - s * ux, ey = cy - s * uy
                var coverage = min(max(h - (ex * ex + ey * ey).squareRoot() + 0.5, 0), 1)
                if cutStart { coverage *= min(max(along + 0.5, 0), 1) }
                if cutEnd { coverage *= min(max(length - along + 0.5, 0), 1) }
                if coverage <= 0 { continue }
                let byte = coverageByte(coverage * scale)
                if byte > row[x] { row[x] = byte }
            }
        }
    }

    /// Blends an alpha mask (a glyph) tinted with `color`, its top-left at whole pixel
    /// (`x`, `y`) plus the translation rounded to whole pixels.
    package func blend(mask: AlphaMask, x: Int, y: Int, color: PremultipliedColor) { perform(.blend(mask, x: x, y: y, color)) }

    func blendDirectly(mask: AlphaMask, x: Int, y: Int, color: PremultipliedColor) {
        guard mask.width > 0, mask.height > 0 else { return }
        let ox = x + pixelFloor(state.translation.x + 0.5), oy = y + pixelFloor(state.translation.y + 0.5)
        mask.coverage.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            fillShape(MaskShape(bytes: base, runs: nil, width: mask.width, height: mask.height, x: ox, y: oy), color: color)
        }
    }

    /// Moves the pixels of a device rectangle by (`dx`, `dy`) (a scroll blit, memmove semantics,
    /// overlapping allowed). The translation does not apply; the destination is clipped to the
    /// clip rectangle (rounded clips do not apply). Done at once even when recording: a move
    /// reads pixels that bands of a replay would be drawing.
    package func copy(rect: IntRect, dx: Int, dy: Int) {
        span.move(rect, dx: dx, dy: dy, clip: state.clip)
    }

    // MARK: Pipeline

    /// Draws any shape row by row: shape coverage × rounded clips, then span compositing;
    /// within `clip` when given (inside the canvas's clip), else within the canvas's clip.
    func fillShape<S: CoverageShape>(_ shape: S, color: PremultipliedColor, clip: IntRect? = nil) {
        let b = shape.pixelBounds.intersection(clip ?? state.clip)
        guard !b.isEmpty, color.argb != 0 else { return }
        eachCoveredRow(of: shape, in: b) { y, r in Canvas.composite(r, into: span.row(y), color: color, end: b.maxX) }
    }

    /// Calls `body` with each row of `shape` within `b` that keeps some coverage once the
    /// rounded clips are applied.
    @inline(__always)
    func eachCoveredRow<S: CoverageShape>(of shape: S, in b: IntRect, _ body: (_ y: Int, _ row: CoverageRow) -> Void) {
        let scratch = cache.scratchRows(width: span.width)
        let clips = state.roundClips
        for y in b.y..<b.maxY {
            var r = shape.row(y, b.x, b.maxX, scratch)
            if r.isEmpty { continue }
            if !clips.isEmpty {
                r = Canvas.applyClips(clips, to: r, y: y, scratch: scratch)
                if r.isEmpty { continue }
            }
            body(y, r)
        }
    }

    /// `fillShape` of a rounded rectangle with cached corners and no rounded clip, with each
    /// corner box blended in one `blendRows` call over its mask (as a glyph is) instead of a
    /// shape row and a `blendSpan` per row; everything outside the boxes is the straight-edged
    /// rectangle's coverage, filled by `fillShape` of `shape.edges`. Same pixels as `fillShape`
    /// of the whole shape (the parts are disjoint, and the extra lanes of a group write back
    /// what they read). False, drawing nothing, when the shape has no corner masks.
    func fillCornerBands(_ shape: RoundedRectShape, color: PremultipliedColor) -> Bool {
        guard shape.hasCorners else { return false }
        let b = shape.pixelBounds.intersection(state.clip)
        guard !b.isEmpty, color.argb != 0 else { return true }
        for i in 0..<4 {
            let box = shape.cornerBox(i), part = box.intersection(b)
            guard !part.isEmpty else { continue }
            let mask = shape.cornerMask(i)
            guard let bytes = mask.bytes else { continue }
            blendRows(
                span.row(part.y) + part.x, stride: span.stride,
                coverage: bytes + (part.y - box.y) * mask.width + (part.x - box.x), coverageStride: mask.width,
                count: part.width, rows: part.height, color: color, writable: b.maxX - part.x)
        }
        // Between the boxes: their columns in the top and bottom rows, then the rows between.
        let p = shape.pixelBounds
        func rest(x: Int, maxX: Int, y: Int, maxY: Int) {
            let piece = IntRect(x: x, y: y, width: maxX - x, height: maxY - y).intersection(b)
            if !piece.isEmpty { fillShape(shape.edges, color: color, clip: piece) }
        }
        rest(x: shape.xl, maxX: shape.xr, y: p.y, maxY: shape.yt)
        rest(x: p.x, maxX: p.maxX, y: shape.yt, maxY: shape.yb)
        rest(x: shape.xl, maxX: shape.xr, y: shape.yb, maxY: p.maxY)
        return true
    }

    static func applyClips(_ clips: [RoundedRectShape], to row: CoverageRow, y: Int, scratch: ScratchRows) -> CoverageRow {
        var r = row
        var target = 4
        for clip in clips {
            let c = clip.row(y, r.x0, r.x1, scratch.offset(by: 3))
            r = r.multiplied(by: c, into: scratch.row(target))
            if r.isEmpty { return r }
            // Write the next product into the other row only if this one landed in `target`.
            if UnsafeMutablePointer(mutating: r.bytes) == scratch.row(target) { target = target == 4 ? 5 : 4 }
        }
        return r
    }

    /// Composites a coverage row; the edges' last groups of four may rewrite pixels up to
    /// `end` (the clip's right edge), unchanged.
    @inline(__always)
    static func composite(_ r: CoverageRow, into row: UnsafeMutablePointer<UInt32>, color: PremultipliedColor, end: Int) {
        if r.s0 > r.x0 { blendSpan(row + r.x0, coverage: r.bytes, count: r.s0 - r.x0, color: color, writable: end - r.x0) }
        if r.s1 > r.s0 && r.alpha != 0 {
            fillSpan(row + r.s0, count: r.s1 - r.s0, color: r.alpha == 255 ? color : color.scaled(by: UInt8(r.alpha)))
        }
        if r.x1 > r.s1 {
            blendSpan(row + r.s1, coverage: r.bytes + (r.s1 - r.x0), count: r.x1 - r.s1, color: color, writable: end - r.s1)
        }
    }
}
