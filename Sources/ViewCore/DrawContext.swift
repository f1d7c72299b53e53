import AppContract
import Geometry
import Raster
import Text

/// Fonts for the UI at any pixel size, built once per size from the shipped `Fonts/`.
public final class Typography {
    package let library: FontLibrary
    private var fonts: [FontKey: Font] = [:]
    private struct FontKey: Hashable {
        var quarterPixels: Int
        var style: FontStyle
    }

    package init(library: FontLibrary) {
        self.library = library
        // A damaged font file goes to the process's log like every other warning.
        library.report = { report($0, level: .warning) }
    }

    /// Loads the fonts shipped in `directory` (DejaVu Sans with VL PGothic as fallback).
    public convenience init(fontsDirectory: String) throws {
        self.init(library: try FontLibrary(directory: fontsDirectory))
        _ = try font(pixelSize: 16)  // fail now, not at the first draw, if the fonts are unusable
    }

    /// The fonts tried for each character, in order: file names in the fonts folder or absolute
    /// paths. By default the shipped DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew), VL
    /// PGothic (Japanese), then the system's Noto Color Emoji where it is installed. Put a
    /// brand's face first, or add a face for a script the shipped ones lack:
    ///
    /// ```swift
    /// typography.fontChain = ["/usr/share/fonts/truetype/brand/Brand.ttf"] + typography.fontChain
    /// ```
    ///
    /// The first face that loads sets the lines' height; bold and italic come from DejaVu
    /// Sans's own faces, other faces are widened for weights. A file that is missing or damaged
    /// is logged once and left out. A chain in which no face can draw text is refused with a
    /// logged error, and the chain stays as it was. Text is laid out again in the new fonts.
    public var fontChain: [String] {
        get { library.chain }
        set {
            let old = library.chain
            library.chain = newValue
            do { _ = try library.standardFont(pixelSize: 16) } catch {
                library.chain = old
                processLog.error(
                    "the font chain \(newValue.joined(separator: ", ")) cannot draw text (\(error)); the fonts stay as they were")
                return
            }
            fonts.removeAll()
            generation += 1
            for hear in changeObservers { hear() }
        }
    }

    /// The icons of `Icon(_:)`, from the icon font in the fonts folder (read at the first icon).
    package private(set) lazy var icons = IconSet(library: library)

    /// Whether the icon font has an icon called `name` ("arrow_back"): check names an app reads
    /// from a file before it shows them.
    public func hasIcon(named name: String) -> Bool { icons.hasIcon(named: name) }

    /// Told when `fontChain` changes: a window lays its text out again and redraws.
    package var changeObservers: [() -> Void] = []

    /// Counts changes of `fontChain`: text laid out in an earlier chain is laid out again.
    package private(set) var generation = 0

    /// The standard font at `pixelSize` for drawing: nil when the fonts cannot give one (a font
    /// file damaged after start), which is logged once, so text goes missing with a reason and
    /// the app keeps running.
    package func usableFont(pixelSize: Double, style: FontStyle = .regular) -> Font? {
        do { return try font(pixelSize: pixelSize, style: style) } catch {
            if !reportedFailure {
                reportedFailure = true
                processLog.error("text cannot be drawn, the fonts failed: \(error)")
            }
            return nil
        }
    }
    private var reportedFailure = false

    /// The standard font at `pixelSize`, quantised to quarter pixels so a pinch does not
    /// create a font per frame.
    package func font(pixelSize: Double, style: FontStyle = .regular) throws -> Font {
        let quarters = Int((max(1, min(pixelSize.isFinite ? pixelSize : 16, 1000)) * 4).rounded())
        let key = FontKey(quarterPixels: quarters, style: style)
        if let f = fonts[key] { return f }
        if fonts.count > 64 { fonts.removeAll() }
        let f = try library.standardFont(pixelSize: Double(quarters) / 4, style: style)
        fonts[key] = f
        return f
    }
}

/// What a view draws with: a canvas (pixels, with clip and translation), the points-to-pixels
/// scale at this depth (the window's scale factor times any zoom), fonts and the frame time.
public struct DrawContext {
    package var canvas: Canvas
    /// The window's fonts, for measuring or laying out text yourself.
    public let typography: Typography
    /// Pixels per point here.
    public var scale: Double
    /// The frame's time in seconds.
    package let time: Double
    /// The high-contrast setting of the theme in force: views draw text black or white and
    /// backgrounds with stronger edges.
    public var isHighContrast: Bool { theme.isHighContrast }
    /// What the tree hands down at this depth: the window's, changed by the ancestors drawn.
    package private(set) var environment: ViewEnvironment
    /// The theme in force here: the colours a role (`Color.primaryText`) is drawn in.
    public private(set) var theme: Theme

    package init(canvas: Canvas, typography: Typography, scale: Double, time: Double, environment: ViewEnvironment = ViewEnvironment()) {
        self.canvas = canvas; self.typography = typography; self.scale = scale; self.time = time
        self.environment = environment
        theme = environment.theme
    }

    /// A local rectangle in points as canvas pixels (the canvas adds its translation).
    package func pixels(_ r: Rect) -> Rect {
        Rect(x: r.minX * scale, y: r.minY * scale, width: r.width * scale, height: r.height * scale)
    }

    /// The part of local space that is still inside the clip, in points.
    package var visibleLocalRect: Rect {
        let c = canvas.clipBounds, t = canvas.translation
        return Rect(
            x: (Double(c.x) - t.x) / scale, y: (Double(c.y) - t.y) / scale,
            width: Double(c.width) / scale, height: Double(c.height) / scale)
    }

    /// Draws `child` (its content, children and overlay) translated to its frame, skipping it
    /// when it lies entirely outside the clip: views off screen cost nothing.
    /// A view moved, scaled or faded (its effects, or an animation of them) is drawn where and as
    /// its effects say at the frame's time; a faded one as one layer.
    package mutating func drawChild(_ child: View) {
        guard !child.isHidden || child.isLeaving, !canvas.clipBounds.isEmpty else { return }
        let effects = child.hasVisualEffects
        let f = effects ? child.scaledFrame(at: time) : child.frame
        let degrees = effects ? child.presentedRotation(at: time).truncatingRemainder(dividingBy: 360) : 0
        let covered = View.box(around: f, turnedBy: degrees)
        // A pixel of margin: anti-aliased edges bleed half a pixel.
        if !child.drawnExtent(of: covered).insetBy(dx: -1 / scale, dy: -1 / scale).intersects(visibleLocalRect) { return }
        let opacity = effects ? child.presentedOpacity(at: time) : 1
        guard opacity > 0 else { return }
        canvas.save()
        canvas.translate(dx: f.minX * scale, dy: f.minY * scale)
        let outerScale = scale
        if effects { scale *= child.presentedScale(at: time) }
        inEnvironment(of: child) { context in
            if degrees != 0 {
                context.drawTurnedLayer(of: child, degrees: degrees, opacity: opacity)
            } else if opacity < 1 {
                context.drawLayer(of: child, opacity: opacity)
            } else {
                context.drawContents(of: child)
            }
        }
        scale = outerScale
        canvas.restore()
    }

    /// Runs `body` in what `view` hands down (its layout direction and environment changes), then
    /// goes back to the outer environment and theme. The theme is worked out again only for a
    /// view that changes the environment: most views draw in their parent's.
    package mutating func inEnvironment(of view: View, _ body: (inout DrawContext) -> Void) {
        guard view.changesEnvironment else { return body(&self) }
        let outer = (environment, theme)
        view.applyOwnEnvironment(to: &environment)
        theme = environment.theme
        body(&self)
        (environment, theme) = outer
    }

    /// The view's background, content, children, overlay and pressed shade, then the children
    /// leaving it, at the canvas's translation.
    private mutating func drawContents(of child: View) {
        if let shadow = child.shadowStyle { drawShadow(of: child, shadow) }
        child.drawBackground(in: &self)
        child.draw(in: &self)
        child.drawChildren(in: &self)
        child.drawOverlay(in: &self)
        if child.isPressed { child.drawPressed(in: &self) }
        for gone in child.departing { drawChild(gone) }
    }

    /// Draws the view into a layer of its bounds (as far as the clip shows them) at the same
    /// sub-pixel place, then lays the layer over the canvas at `opacity`, pixel for pixel: what
    /// overlaps inside the view is not seen through itself.
    private mutating func drawLayer(of child: View, opacity: Double) {
        let t = canvas.translation
        let local = child.drawnExtent(of: Rect(origin: .zero, size: child.frame.size))
        let device = Rect(
            x: t.x + local.minX * scale, y: t.y + local.minY * scale, width: local.width * scale, height: local.height * scale)
        let bounds = IntRect(enclosing: device.insetBy(dx: -1, dy: -1)).intersection(canvas.clipBounds)
        guard !bounds.isEmpty, bounds.width <= 1 << 14, bounds.height <= 1 << 14 else { return }
        let layer = self.layer(
            of: child, width: bounds.width, height: bounds.height, origin: Point(x: t.x - Double(bounds.x), y: t.y - Double(bounds.y)))
        canvas.draw(
            image: layer,
            in: Rect(x: Double(bounds.x) - t.x, y: Double(bounds.y) - t.y, width: Double(bounds.width), height: Double(bounds.height)),
            filter: .nearest, opacity: opacity)
    }

    /// Draws the view upright into a layer of all it draws (its shadow too), then lays the layer
    /// over the canvas turned by `degrees` about the view's centre, at `opacity`.
    private mutating func drawTurnedLayer(of child: View, degrees: Double, opacity: Double) {
        let size = child.frame.size
        let local = child.drawnExtent(of: Rect(origin: .zero, size: size))
        let w = Int((local.width * scale).rounded(.up)) + 2, h = Int((local.height * scale).rounded(.up)) + 2
        guard local.minX.isFinite, local.minY.isFinite, w > 2, h > 2, w <= 1 << 12, h <= 1 << 12 else { return }
        // The view's origin one pixel in from the layer's corner.
        let origin = Point(x: 1 - local.minX * scale, y: 1 - local.minY * scale)
        let layer = self.layer(of: child, width: w, height: h, origin: origin)
        // The layer turns about its own centre: place that centre where it lands when the view
        // turns about its centre.
        let centre = Point(x: size.width / 2 * scale, y: size.height / 2 * scale)
        let d = Point(x: Double(w) / 2 - (origin.x + centre.x), y: Double(h) / 2 - (origin.y + centre.y))
        let (c, s) = (cosine(degrees: degrees), sine(degrees: degrees))
        canvas.draw(
            image: layer, turnedBy: degrees,
            around: Point(x: centre.x + d.x * c - d.y * s, y: centre.y + d.x * s + d.y * c), opacity: opacity)
    }

    /// The view drawn alone into a transparent `width` x `height` layer, its origin at `origin`
    /// (layer pixels).
    private func layer(of child: View, width: Int, height: Int, origin: Point) -> PixelBuffer {
        let layer = PixelBuffer(width: width, height: height)
        var inner = self
        inner.canvas = Canvas(layer, cache: canvas.cache)
        inner.canvas.translate(dx: origin.x, dy: origin.y)
        inner.drawContents(of: child)
        return layer
    }

    /// Clips what follows to a view's bounds of `size` points, with corners rounded by
    /// `cornerRadius` points (square when 0); `canvas.save()` first, `restore()` after.
    package mutating func clip(toBoundsOf size: Size, cornerRadius: Double) {
        let bounds = pixels(Rect(origin: .zero, size: size))
        if cornerRadius > 0 {
            canvas.clip(toRoundedRect: bounds, radius: cornerRadius * scale)
        } else {
            canvas.clip(to: bounds)
        }
    }

    /// Fills `r` (local points) with `color`, edges anti-aliased.
    public func fill(_ r: Rect, color: Color) {
        canvas.fill(rect: pixels(r), color: theme.resolve(color).premultiplied)
    }

    /// Fills `r` (local points) with corners rounded by `cornerRadius` points.
    public func fill(_ r: Rect, cornerRadius: Double, color: Color) {
        if cornerRadius > 0 {
            canvas.fill(roundedRect: pixels(r), radius: cornerRadius * scale, color: theme.resolve(color).premultiplied)
        } else {
            fill(r, color: color)
        }
    }

    /// Strokes the inside edge of `r` (local points), `lineWidth` points wide, with corners rounded by
    /// `cornerRadius` points.
    public func stroke(_ r: Rect, cornerRadius: Double, lineWidth: Double, color: Color) {
        canvas.stroke(
            roundedRect: pixels(r), radius: cornerRadius * scale, lineWidth: lineWidth * scale,
            color: theme.resolve(color).premultiplied, alignment: .inside)
    }

    /// Fills `path`, given in local points.
    public func fill(_ path: Path, rule: FillRule = .nonZero, color: Color) {
        canvas.fill(path: path.scaledBy(scale), rule: rule, color: theme.resolve(color).premultiplied)
    }

    /// Strokes `path`, given in local points, `lineWidth` points wide.
    public func stroke(_ path: Path, lineWidth: Double, color: Color, roundCaps: Bool = false) {
        canvas.stroke(
            path: path.scaledBy(scale), lineWidth: lineWidth * scale, color: theme.resolve(color).premultiplied,
            roundCaps: roundCaps)
    }

    /// Draws `text` in `rect` (local points) at `size` points: wrapped to the rectangle's width,
    /// aligned within it, and clipped to it. The text is shaped on every draw; for text that
    /// rarely changes a `Label` child is cheaper, as it keeps its shaped lines.
    public mutating func draw(
        _ text: String, in rect: Rect, size: Double = 17, color: Color = .primaryText,
        alignment: TextAlignment = .leading, weight: FontWeight = .regular, italic: Bool = false
    ) {
        guard !text.isEmpty, rect.width > 0, rect.height > 0,
            let font = typography.usableFont(pixelSize: size * scale, style: FontStyle(weight: weight, italic: italic))
        else { return }
        let layout = TextLayout(text: text, font: font, maxWidth: rect.width * scale, alignment: alignment)
        // Placed as a label places its text, so both are the same pixels.
        canvas.save()
        canvas.clip(to: pixels(rect))
        draw(layout, at: rect.origin, color: textColor(color))
        canvas.restore()
    }

    /// Draws shaped text with its top left at `origin` (local points), snapped to whole device
    /// pixels with floor(x + 0.5): rounding half away from zero is not the same for -2.5 and 2.5,
    /// so text above a viewport's top would land a pixel off after a whole-pixel scroll and a
    /// scrolled frame would differ from a full redraw. Nothing is drawn at an absurd place.
    package func draw(_ layout: TextLayout, at origin: Point, color: Color) {
        let t = canvas.translation + origin * scale
        guard t.isFinite, abs(t.x) < 1e9, abs(t.y) < 1e9 else { return }
        layout.drawPixels(
            in: canvas, atDeviceX: Int((t.x + 0.5).rounded(.down)), y: Int((t.y + 0.5).rounded(.down)), color: theme.resolve(color))
    }

    /// Draws `image` scaled into `rect` (local points), filtered bilinearly; a large image
    /// drawn small is first halved, as an `ImageView` does, so it does not shimmer.
    public func draw(_ image: PixelBuffer, in rect: Rect) {
        let destination = pixels(rect)
        guard destination.width > 0, destination.height > 0 else { return }
        draw(image, inPixels: destination)
    }

    /// Draws `image` into `destination` (device pixels), from the raster cache's halving for
    /// that size: shared by every view that shows the same picture.
    package func draw(_ image: PixelBuffer, inPixels destination: Rect) {
        canvas.draw(image: canvas.cache.source(for: destination.size, from: image), in: destination, filter: .bilinear)
    }

    /// Fills the circle of `radius` points around `center` (local points).
    public func fillCircle(center: Point, radius: Double, color: Color) {
        canvas.fill(
            circleCenter: Point(x: center.x * scale, y: center.y * scale), radius: radius * scale,
            color: theme.resolve(color).premultiplied)
    }

    /// A view's fill as drawn here: a theme's role in the theme's colour, and under high
    /// contrast, light greys white and dark ones black.
    package func fillColor(_ color: Color) -> Color {
        let c = theme.resolve(color)
        return isHighContrast ? HighContrast.fill(c) : c
    }

    /// A border as drawn here: under high contrast, in the text's colour (black, or white in the
    /// dark scheme) and at least nearly opaque.
    package func borderColor(_ color: Color) -> Color {
        let c = theme.resolve(color)
        return isHighContrast ? theme.primaryText.withOpacity(Double(max(c.alpha, 200)) / 255) : c
    }

    /// `color` as drawn here: a theme's role in the theme's colour, and under high contrast,
    /// text black or white.
    package func textColor(_ color: Color) -> Color {
        let c = theme.resolve(color)
        return isHighContrast ? HighContrast.text(c, in: theme.colorScheme) : c
    }

    /// Draws the icon font's `name` filling the square in `rect` (local points), tinted with
    /// `color`, mirrored when asked. A name the font lacks is said once and drawn as an empty
    /// square.
    package func drawIcon(named name: String, in rect: Rect, color: Color, mirrored: Bool) {
        let side = min(rect.width, rect.height)
        let square = Rect(x: rect.minX + (rect.width - side) / 2, y: rect.minY + (rect.height - side) / 2, width: side, height: side)
        let pixels = pixels(square)
        guard pixels.width >= 1, let icon = typography.icons.glyph(named: name, pixelSize: pixels.width) else {
            if typography.icons.noteUnknown(name) {
                processLog.warning("Icon '\(name)' is not in the icon font (\(IconSet.fileName)); it is drawn as an empty square")
            }
            stroke(square.insetBy(dx: side * 0.15, dy: side * 0.15), cornerRadius: side * 0.08, lineWidth: max(1, side / 16), color: color)
            return
        }
        // The icon's em square sits on the baseline: its top is the ascender above it.
        let origin = canvas.translation + Point(x: pixels.minX, y: pixels.minY)
        let x = Int((origin.x + 0.5).rounded(.down)), baseline = Int((origin.y + icon.ascender + 0.5).rounded(.down))
        var mask = icon.glyph.mask
        var left = Int(icon.glyph.left)
        if mirrored {
            mask = mask.mirrored
            left = Int((pixels.width).rounded()) - left - mask.width
        }
        let t = canvas.translation
        canvas.blend(
            mask: mask, x: x + left - Int((t.x + 0.5).rounded(.down)), y: baseline - Int(icon.glyph.top) - Int((t.y + 0.5).rounded(.down)),
            color: theme.resolve(color).premultiplied)
    }
}
