// Drawing laid-out text: cache lookup per glyph (an array index), then a tinted mask blit
// (source-over of the premultiplied colour scaled by coverage) clipped to a rectangle.
import Geometry
import Raster

extension TextLayout {
    /// Draws the layout with its top-left corner at `origin` (rounded to whole pixels), in
    /// `color`, clipped to `clip` (and to the span).
    package func draw(in span: PixelSpan, at origin: Point, color: Color, clip: IntRect? = nil) {
        guard origin.isFinite, color.alpha > 0 else { return }
        guard abs(origin.x) < 1e9, abs(origin.y) < 1e9 else { return }
        let x0 = Int(origin.x.rounded()), y0 = Int(origin.y.rounded())
        font.draw(glyphs[...], in: span, originX: x0, originY: y0, color: color, clip: clip ?? span.bounds)
    }
}

extension TextLayout {
    /// Draws through `canvas.drawPixels` with the layout's top-left at whole device pixel
    /// (`x`, `y`): the canvas's clip rectangle applies, its translation and rounded clips do
    /// not. The glyphs are rasterised now, so a recorded drawing only reads the glyph caches
    /// when bands replay it on render threads.
    package func drawPixels(in canvas: Canvas, atDeviceX x: Int, y: Int, color: Color) {
        guard color.alpha > 0 else { return }
        font.forEachFaceRun(glyphs[...]) { table, run in table.ensureCached(run) }
        let font = self.font, glyphs = self.glyphs
        canvas.drawPixels { span, clip in font.draw(glyphs[...], in: span, originX: x, originY: y, color: color, clip: clip) }
    }
}

extension Font {
    /// Shapes and draws one line of `text` with its baseline starting at `baselineOrigin`
    /// (no wrapping). For text drawn every frame, build a `TextLayout` once and draw that.
    package func draw(_ text: String, in span: PixelSpan, baselineOrigin: Point, color: Color, clip: IntRect? = nil) {
        let layout = TextLayout(text: text, font: self)
        layout.draw(
            in: span, at: Point(x: baselineOrigin.x, y: baselineOrigin.y - (layout.lines.first?.baseline ?? 0)),
            color: color, clip: clip)
    }

    /// Draws positioned glyphs offset by (`originX`, `originY`).
    func draw(_ glyphs: ArraySlice<TextLayout.Glyph>, in span: PixelSpan, originX: Int, originY: Int, color: Color, clip: IntRect) {
        let bounds = clip.intersection(span.bounds)
        guard !bounds.isEmpty else { return }
        let premultiplied = color.premultiplied.argb
        // Within a run of one face the cache is read through a buffer pointer (no ARC or
        // exclusivity checks per glyph).
        forEachFaceRun(glyphs) { table, run in
            table.ensureCached(run)
            table.withEntries { slots, entries in
                for g in run {
                    guard Int(g.glyph) < slots.count else { continue }
                    let cached = entries[Int(slots[Int(g.glyph)])]
                    let w = cached.color?.width ?? cached.mask.width, h = cached.color?.height ?? cached.mask.height
                    let x = originX + Int(g.x) + Int(cached.left)
                    let y = originY + Int(g.y) - Int(cached.top)
                    if w == 0 || x >= bounds.maxX || y >= bounds.maxY || x + w <= bounds.x || y + h <= bounds.y { continue }
                    if let image = cached.color {
                        blendImage(image, into: span, x: x, y: y, opacity: color.alpha, clip: bounds)
                        continue
                    }
                    cached.mask.coverage.withUnsafeBufferPointer { coverage in
                        blendMask(
                            coverage.baseAddress!, width: w, height: h, into: span, x: x, y: y,
                            color: premultiplied, clip: bounds)
                    }
                }
            }
        }
    }

    /// Calls `body` with each run of consecutive glyphs from one face and that face's table.
    func forEachFaceRun(_ glyphs: ArraySlice<TextLayout.Glyph>, _ body: (GlyphTable, ArraySlice<TextLayout.Glyph>) -> Void) {
        var start = glyphs.startIndex
        while start < glyphs.endIndex {
            let face = glyphs[start].face
            var end = start + 1
            while end < glyphs.endIndex && glyphs[end].face == face { end += 1 }
            body(glyphTables[Int(face)], glyphs[start..<end])
            start = end
        }
    }
}

/// Draws a colour glyph's premultiplied pixels over `span` with their top-left at (`x`, `y`),
/// faded by the text colour's `opacity` (0-255), limited to `clip` (already inside the span).
func blendImage(_ image: PixelBuffer, into span: PixelSpan, x: Int, y: Int, opacity: UInt8, clip: IntRect) {
    let left = max(x, clip.x), right = min(x + image.width, clip.maxX)
    let top = max(y, clip.y), bottom = min(y + image.height, clip.maxY)
    guard left < right, top < bottom else { return }
    let fade = UInt32(opacity)
    for row in top..<bottom {
        let source = image.pixels + (row - y) * image.stride + (left - x)
        let target = span.base + row * span.stride + left
        for i in 0..<(right - left) {
            let p = fade == 255 ? source[i] : scalePixel(source[i], by: fade)
            target[i] = sourceOver(p, target[i])
        }
    }
}

/// Blends an 8-bit coverage mask tinted with a premultiplied colour into `span` with its
/// top-left at (`x`, `y`), limited to `clip` (already inside the span).
@inline(__always)
func blendMask(
    _ mask: UnsafePointer<UInt8>, width: Int, height: Int, into span: PixelSpan, x: Int, y: Int,
    color: UInt32, clip: IntRect
) {
    let left = max(x, clip.x), right = min(x + width, clip.maxX)
    let top = max(y, clip.y), bottom = min(y + height, clip.maxY)
    guard left < right, top < bottom else { return }
    blendRows(
        span.base + top * span.stride + left, stride: span.stride, coverage: mask + (top - y) * width + (left - x),
        coverageStride: width, count: right - left, rows: bottom - top, color: PremultipliedColor(argb: color),
        writable: clip.maxX - left)
}

extension TextLayout {
    /// Draws through a `Canvas`, with the layout's top-left at `origin` in the canvas's
    /// coordinates: the canvas's translation (rounded to whole pixels), clip rectangle and
    /// rounded clips apply. Without rounded clips this is the fast path of
    /// `draw(in:at:color:clip:)`; with them each glyph goes through `Canvas.blend(mask:)`.
    /// Both give the same pixels where both apply.
    package func draw(in canvas: Canvas, at origin: Point, color: Color) {
        guard origin.isFinite, abs(origin.x) < 1e9, abs(origin.y) < 1e9, color.alpha > 0 else { return }
        let x0 = Int(origin.x.rounded()), y0 = Int(origin.y.rounded())
        if canvas.roundedClipCount == 0 {
            let t = canvas.translation
            guard t.isFinite, abs(t.x) < 1e9, abs(t.y) < 1e9 else { return }
            let dx = Int((t.x + 0.5).rounded(.down)), dy = Int((t.y + 0.5).rounded(.down))
            return drawPixels(in: canvas, atDeviceX: x0 + dx, y: y0 + dy, color: color)
        }
        let premultiplied = color.premultiplied
        for g in glyphs {
            let table = font.glyphTables[Int(g.face)]
            let cached = table.glyph(g.glyph)
            let x = x0 + Int(g.x) + Int(cached.left), y = y0 + Int(g.y) - Int(cached.top)
            if let image = cached.color {
                let rect = Rect(x: Double(x), y: Double(y), width: Double(image.width), height: Double(image.height))
                canvas.draw(image: image, in: rect, opacity: Double(color.alpha) / 255)
            } else {
                canvas.blend(mask: cached.mask, x: x, y: y, color: premultiplied)
            }
        }
    }
}
