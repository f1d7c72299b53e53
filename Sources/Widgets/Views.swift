@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Text
import Localization

/// A view that paints a background (a filled, optionally rounded rectangle with a border drawn
/// inside its edge) and may clip its children to it: a colour swatch, a card, a divider.
open class Box: View {
    /// Children are clipped to the (rounded) bounds.
    public var clipsChildren = false

    /// A box painted with `fill` (nil: nothing) with corners of `cornerRadius` points, fixed to
    /// `width` and `height` points where given.
    public init(
        id: String? = nil, fill: Color? = nil, cornerRadius: Double = 0,
        width: Double? = nil, height: Double? = nil
    ) {
        super.init(id: id)
        self.fill = fill
        self.cornerRadius = cornerRadius
        self.width = width
        self.height = height
    }

    @_spi(Hooks) override open var backdrop: Backdrop { backgroundBackdrop }

    @_spi(Hooks) override open var clipsContent: Bool { clipsChildren }
    @_spi(Hooks) override open var clipCornerRadius: Double { clipsChildren ? cornerRadius : 0 }
    @_spi(Hooks) override open func pressedCornerRadius(in theme: Theme) -> Double {
        let radius = cornerRadius(in: theme)
        return radius > 0 ? radius : super.pressedCornerRadius(in: theme)
    }

    @_spi(Hooks) override open func drawChildren(in context: inout DrawContext) {
        guard clipsChildren else { super.drawChildren(in: &context); return }
        context.canvas.save()
        context.clip(toBoundsOf: frame.size, cornerRadius: cornerRadius(in: context.theme))
        super.drawChildren(in: &context)
        context.canvas.restore()
    }
}

/// Text that wraps to its width (through the Text target): words for Latin, any
/// ideograph boundary for Japanese, with kinsoku; `maxLines` ends with an ellipsis.
public final class Label: Box, StaticText {
    /// The text shown. Set, it is shown as it is (the label's catalog key, if it had one, is
    /// dropped).
    public var text: String {
        didSet {
            if !isResolving { localizedKey = nil }
            invalidateText()
        }
    }
    /// The catalog key the text is looked up by (a label made with a string literal): looked up
    /// again whenever the window's language or catalog changes. Nil: `text` as it is.
    package private(set) var localizedKey: LocalizedStringKey?
    private var localizedGeneration = -1
    private var isResolving = false
    /// Font size in points: the text style's in the theme in force while `textStyle` is set,
    /// else its own. Setting it fixes the size (and drops the style).
    public var fontSize: Double {
        get { textStyle.map(styledSize) ?? ownFontSize }
        set { ownFontSize = newValue; textStyle = nil }
    }
    private var ownFontSize: Double { didSet { invalidateText() } }
    /// The text's role (`.headline`, `.body`): its size is the theme's for it (`Theme.typeScale`),
    /// so it follows a brand's type. `.body` unless the label was made with a size; nil: a size
    /// of its own.
    public var textStyle: TextStyle? { didSet { if textStyle != oldValue { styledMemo = nil; invalidateText() } } }
    /// The style's size as last looked up, and the window's environment generation then: the
    /// theme is looked up once per change, not at every measure.
    private var styledMemo: (generation: Int, size: Double)?
    /// The text's colour (black or white under the high-contrast setting).
    public var color: Color { didSet { setNeedsDisplay() } }
    /// How each line sits within the label's width.
    public var alignment: TextAlignment { didSet { invalidateText() } }
    /// The most lines shown, the last ending with an ellipsis when text is cut; 0: no limit.
    public var maxLines: Int { didSet { invalidateText() } }
    /// Line height as a multiple of the font's; 1 by default, and values not above 0 count as 1.
    public var lineSpacing: Double { didSet { invalidateText() } }
    /// How heavy the text is drawn (`bold()`, `fontWeight(_:)`).
    package var fontWeight = FontWeight.regular { didSet { invalidateText() } }
    /// The text is slanted (`italic()`).
    package var isItalic = false { didSet { invalidateText() } }

    /// Draws the text bold (a heading).
    @discardableResult
    public func bold(_ on: Bool = true) -> Self { fontWeight = on ? .bold : .regular; return self }
    /// Draws the text at `weight`.
    @discardableResult
    public func fontWeight(_ weight: FontWeight) -> Self { fontWeight = weight; return self }
    /// Draws the text slanted.
    @discardableResult
    public func italic(_ on: Bool = true) -> Self { isItalic = on; return self }
    /// Draws the text at the size the theme gives `style`, as SwiftUI's `font(.headline)`.
    @discardableResult
    public func font(_ style: TextStyle) -> Self { textStyle = style; return self }

    private func styledSize(_ style: TextStyle) -> Double {
        guard let window = host else { return TypeScale.standard[style] }
        if let memo = styledMemo, memo.generation == window.environmentGeneration { return memo.size }
        let size = environment.theme.typeScale[style]
        styledMemo = (window.environmentGeneration, size)
        return size
    }

    var fontStyle: FontStyle { FontStyle(weight: fontWeight, italic: isItalic) }

    /// The smallest fraction of its size the text shrinks to before it is cut (1: never).
    package var minimumScaleFactor = 1.0 { didSet { invalidateText() } }

    /// Lets text that would be cut (after `maxLines`) shrink, down to `factor` of its size (0.7:
    /// 70 %), before it is cut with an ellipsis, as SwiftUI's modifier does.
    @discardableResult
    public func minimumScaleFactor(_ factor: Double) -> Self {
        minimumScaleFactor = factor.isFinite ? max(0.1, min(1, factor)) : 1
        return self
    }

    /// What a layout depends on besides the label's own properties (whose changes drop it): a
    /// value, not an array, so that the check on every draw allocates nothing.
    private struct LayoutKey: Equatable {
        var width: Double, scale: Double, size: Double, rightToLeft: Bool, fonts: Int
    }
    private var cached: (key: LayoutKey, layout: TextLayout)?
    /// The unwrapped layout, kept apart: a row asks a label its ideal width (unwrapped) and then
    /// lays it out at its share, and one cache would shape the text twice every layout.
    private var unwrapped: (key: LayoutKey, layout: TextLayout)?

    /// A label of `text` at `size` points (nil: the theme's `.body` size) in `color`, aligned by
    /// `alignment`, cut after `maxLines` lines (0: no limit), with lines `lineSpacing` times the
    /// font's line height. A `String` is shown as it is; a string literal is a catalog key.
    @_disfavoredOverload
    public init<S: StringProtocol>(
        _ text: S, id: String? = nil, size: Double? = nil, color: Color = .primaryText,
        alignment: TextAlignment = .leading, maxLines: Int = 0, lineSpacing: Double = 1
    ) {
        self.text = String(text); self.ownFontSize = size ?? TypeScale.standard[.body]; self.textStyle = size == nil ? .body : nil
        self.color = color
        self.alignment = alignment; self.maxLines = maxLines; self.lineSpacing = lineSpacing
        super.init(id: id)
    }

    /// A label of `key` looked up in the window's string catalog, in its language, as SwiftUI's
    /// `Text` looks up a literal: `Label("\(count) tickets")` takes the language's plural form.
    public convenience init(
        _ key: LocalizedStringKey, id: String? = nil, size: Double? = nil, color: Color = .primaryText,
        alignment: TextAlignment = .leading, maxLines: Int = 0, lineSpacing: Double = 1
    ) {
        self.init(
            ViewEnvironment().localized(key), id: id, size: size, color: color, alignment: alignment, maxLines: maxLines,
            lineSpacing: lineSpacing)
        if !key.isVerbatim { localizedKey = key }
    }

    /// A label of `text` as it is, never looked up: a literal that is no key (a place name).
    public convenience init(
        verbatim text: String, id: String? = nil, size: Double? = nil, color: Color = .primaryText,
        alignment: TextAlignment = .leading, maxLines: Int = 0, lineSpacing: Double = 1
    ) {
        self.init(text as String, id: id, size: size, color: color, alignment: alignment, maxLines: maxLines, lineSpacing: lineSpacing)
    }

    /// Shows `key` looked up in the window's string catalog, and again after each change of
    /// language: what `text = ...` is for a literal (`label.setText("\(count) tickets")`).
    public func setText(_ key: LocalizedStringKey) {
        let resolved = host.map { _ in environment.localized(key) } ?? ViewEnvironment().localized(key)
        localizedGeneration = host?.environmentGeneration ?? -1
        isResolving = true
        text = resolved
        isResolving = false
        localizedKey = key.isVerbatim ? nil : key
    }

    /// Looks the key up again when the environment changed since (the language, the catalog,
    /// the digits): before every measure and draw, so a switch costs the next frame's layout.
    private func refreshLocalizedText() {
        guard let key = localizedKey, let window = host, localizedGeneration != window.environmentGeneration else { return }
        localizedGeneration = window.environmentGeneration
        let resolved = environment.localized(key)
        guard resolved != text else { return }
        isResolving = true
        text = resolved
        isResolving = false
    }

    private func invalidateText() { cached = nil; unwrapped = nil; setNeedsLayout(); setNeedsDisplay() }

    /// Whether the text as last drawn was cut with an ellipsis where, at the text size the
    /// window's `textScale` enlarges, it was not: what a person who asked for larger text loses.
    package var isCutByTextScale: Bool {
        guard let (key, layout) = cached, layout.isTruncated, let window = host, window.textScale > 1 else { return false }
        guard let font = window.typography.usableFont(pixelSize: fontSize * key.scale, style: fontStyle) else { return false }
        let plain = TextLayout(
            text: text, font: font, maxWidth: key.width.isFinite ? key.width * key.scale : .infinity, alignment: alignment,
            lineSpacing: lineSpacing, maxLines: maxLines, baseDirection: paragraphDirection,
            alignmentDirection: key.rightToLeft ? .rightToLeft : nil)
        return !plain.isTruncated
    }

    package var wordsBrokenInside: [String] { cached?.layout.wordsBrokenInside ?? [] }

    /// The rectangle the text's lines cover as last drawn, in the label's points (nil before it
    /// is drawn).
    package var textBounds: Rect? {
        guard let (key, layout) = cached, !layout.lines.isEmpty else { return nil }
        let left = layout.lines.map(\.x).min() ?? 0, right = layout.lines.map { $0.x + $0.width }.max() ?? 0
        let origin = textOrigin(of: layout, scale: key.scale)
        return Rect(
            x: origin.x + left / key.scale, y: origin.y, width: (right - left) / key.scale, height: layout.size.height / key.scale)
    }

    /// Text, or a heading when it is large (24 points and more), or a button when tappable.
    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        if onTap != nil || onLongPress != nil { return AccessibilityDescription(role: .button, label: text, combinesChildren: true) }
        return text.isEmpty ? nil : AccessibilityDescription(role: fontSize >= 24 ? .heading : .text, label: text)
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }

    @_spi(Hooks) override public var accessibilityText: String? { text }

    @_spi(Hooks) override public var retainedTextBytes: Int { layoutBytes }

    /// Bytes of the laid-out text this label keeps.
    var layoutBytes: Int {
        [cached?.layout, unwrapped?.layout].compactMap { $0 }.reduce(0) { sum, layout in
            sum + layout.scalars.count * 8 + layout.glyphs.count * MemoryLayout<TextLayout.Glyph>.stride
                + layout.lines.count * MemoryLayout<TextLayout.Line>.stride
        }
    }

    /// The size text is drawn at: `fontSize` times the window's text size.
    var shownFontSize: Double { fontSize * (host?.textScale ?? 1) }

    /// Runs the text in the direction of its first strong letter (UAX #9) whatever it holds,
    /// rather than the layout's for text that starts with no letter or mixes scripts.
    @discardableResult
    public func firstStrongDirection(_ on: Bool = true) -> Self {
        usesFirstStrongDirection = on
        return self
    }
    private var usesFirstStrongDirection = false { didSet { invalidateText() } }

    /// The paragraph direction given to the text's layout: nil for its first strong letter's.
    private var paragraphDirection: TextDirection? {
        usesFirstStrongDirection ? nil : TextDirection.contextual(for: text, layout: isRightToLeft ? .rightToLeft : .leftToRight)
    }

    /// Layout at `scale` pixels per point for a width in points (infinite: unwrapped).
    func layout(width: Double, scale: Double, typography: Typography) -> TextLayout? {
        let size = shownFontSize
        // Right to left, leading is the right edge for every line, Latin ones included.
        let rightToLeft = isRightToLeft
        let key = LayoutKey(width: width, scale: scale, size: size, rightToLeft: rightToLeft, fonts: typography.generation)
        if let cached, cached.key == key { return cached.layout }
        if let unwrapped, unwrapped.key == key { return unwrapped.layout }
        func laidOut(at size: Double) -> TextLayout? {
            guard let font = typography.usableFont(pixelSize: size * scale, style: fontStyle) else { return nil }
            return TextLayout(
                text: text, font: font, maxWidth: width.isFinite ? width * scale : .infinity,
                alignment: alignment, lineSpacing: lineSpacing, maxLines: maxLines, baseDirection: paragraphDirection,
                alignmentDirection: rightToLeft ? .rightToLeft : nil)
        }
        guard var layout = laidOut(at: size) else { return nil }
        // Cut text shrinks first, in steps of 5 % of its size, until it fits or may not shrink more.
        var factor = 1.0
        while layout.isTruncated, factor - 0.05 >= minimumScaleFactor - 1e-9, let smaller = laidOut(at: size * (factor - 0.05)) {
            factor -= 0.05
            layout = smaller
        }
        if width.isFinite { cached = (key, layout) } else { unwrapped = (key, layout) }
        return layout
    }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        refreshLocalizedText()
        guard let window = host, let typography = window.typography as Typography? else { return .zero }
        let w = width ?? proposal.width
        let textWidth = max(0, w - padding.horizontal)
        // One-line labels in a known width need no shaping to be measured: long lists lay out
        // fast and shape only the rows that are drawn.
        if maxLines == 1, w.isFinite, let font = typography.usableFont(pixelSize: shownFontSize * window.scaleFactor, style: fontStyle) {
            let line = (font.lineHeight(spacing: lineSpacing) / window.scaleFactor).rounded(.up)
            return Size(width: w, height: height ?? line + padding.vertical)
        }
        guard let l = layout(width: textWidth, scale: window.scaleFactor, typography: typography) else { return .zero }
        let s = window.scaleFactor
        let measuredWidth = w.isFinite ? w : l.size.width / s + padding.horizontal
        return Size(width: measuredWidth, height: height ?? (l.size.height / s).rounded(.up) + padding.vertical)
    }

    public override func draw(in context: inout DrawContext) {
        refreshLocalizedText()
        super.draw(in: &context)
        guard let l = layout(width: contentBounds.width, scale: context.scale, typography: context.typography) else { return }
        context.draw(l, at: textOrigin(of: l, scale: context.scale), color: context.textColor(color))
    }

    /// Where `l`'s top-left corner goes: a content alignment places the text's block in the
    /// bounds (vertically centred in a tall label, say); its lines keep their own alignment
    /// within the block.
    private func textOrigin(of l: TextLayout, scale s: Double) -> Point {
        let inner = contentBounds
        var origin = inner.origin
        if let a = contentAlignment, !l.lines.isEmpty {
            let left = l.lines.map(\.x).min() ?? 0, right = l.lines.map { $0.x + $0.width }.max() ?? 0
            let x = isRightToLeft ? 1 - a.x : a.x
            origin.x += max(0, inner.width - (right - left) / s) * x - left / s
            origin.y += max(0, inner.height - l.size.height / s) * a.y
        }
        return origin
    }
}

/// How an image fills its view.
public enum ContentMode: String, Hashable, Sendable {
    /// All of the image shows, letterboxed.
    case fit
    /// The view is covered, the image cropped.
    case fill
}

/// A bitmap scaled into the view with bilinear filtering. Shrunk below half size, it draws from
/// a halved copy (halved again as often as needed, kept by the window's raster cache for every
/// view showing that image), because bilinear sampling alone skips source pixels there and the
/// picture shimmers as it moves.
public final class ImageView: Box, ImageViewer, PictureView {
    /// The bitmap shown; when nil, the picture at `source` (if any) is drawn instead.
    public var image: PixelBuffer? {
        didSet {
            // The raster cache's halvings hold the picture they were made from: let it go.
            if let oldValue, oldValue !== image { host?.rasterCache.forgetHalvings(of: oldValue) }
            setNeedsDisplay()
        }
    }
    /// A picture from the window's `ImageStore` (a file path), decoded when first shown and
    /// released off screen when memory runs short. Drawn when `image` is nil.
    public var source: String? { didSet { setNeedsLayout(); setNeedsDisplay() } }
    /// How the picture fills the view: `.fill` (the default) covers it and crops, `.fit` shows it all.
    public var contentMode: ContentMode = .fill { didSet { setNeedsDisplay() } }
    package var showsWholePicture: Bool { contentMode == .fit }
    @_spi(Hooks) override public var backdrop: Backdrop { .varied }

    /// A view of `image` filled by `contentMode`, fixed to `width` and `height` points where
    /// given, with corners of `cornerRadius` points.
    public init(
        _ image: PixelBuffer?, id: String? = nil, contentMode: ContentMode = .fill,
        width: Double? = nil, height: Double? = nil, cornerRadius: Double = 0
    ) {
        super.init(id: id, cornerRadius: cornerRadius, width: width, height: height)
        self.image = image
        self.contentMode = contentMode
    }

    /// A view of the picture at `source` in the window's image store. Until its pixels are
    /// there (a board decodes in the background) the view shows `placeholder`.
    public init(
        source: String, id: String? = nil, contentMode: ContentMode = .fill, width: Double? = nil,
        height: Double? = nil, cornerRadius: Double = 0, placeholder: Color? = .placeholder
    ) {
        super.init(id: id, cornerRadius: cornerRadius, width: width, height: height)
        self.source = source
        self.contentMode = contentMode
        self.placeholder = placeholder
    }

    /// A picture is an element when the app labels it; unlabelled, it is decoration.
    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        if let d = super.accessibilityDescription { return d }
        return accessibility.label == nil ? nil : AccessibilityDescription(role: .image, label: "")
    }

    /// Drawn while the source's pixels are not there (being decoded, or failed).
    public var placeholder: Color? { didSet { setNeedsDisplay() } }

    /// The picture's size in pixels: of `image`, else of the source once decoded.
    var pixelSize: Size? {
        if let image { return Size(width: Double(image.width), height: Double(image.height)) }
        guard let source else { return nil }
        return host?.images.size(of: source)
    }

    /// Natural size: the image's pixels as points, scaled to the proposed width.
    public override func sizeThatFits(_ proposal: Size) -> Size {
        guard let size = pixelSize, size.width > 0, size.height > 0 else { return super.sizeThatFits(proposal) }
        let aspect = size.height / size.width
        let w = width ?? (proposal.width.isFinite ? proposal.width : size.width)
        return Size(width: w, height: height ?? (w * aspect))
    }

    /// Where the image lands in local points.
    public var imageRect: Rect { pixelSize.map(imageRect(forPictureOf:)) ?? .zero }

    /// Where a picture of `size` pixels lands in local points.
    func imageRect(forPictureOf size: Size) -> Rect {
        let inner = contentBounds
        return Self.imageRect(forPictureOf: size, in: inner.size, mode: contentMode).offsetBy(dx: inner.minX, dy: inner.minY)
    }

    /// Where a picture of `size` lands in a view of `view` points (from its top-left corner).
    package static func imageRect(forPictureOf size: Size, in view: Size, mode: ContentMode) -> Rect {
        guard size.width > 0, size.height > 0 else { return .zero }
        let sx = view.width / size.width, sy = view.height / size.height
        let s = mode == .fit ? min(sx, sy) : max(sx, sy)
        let w = size.width * s, h = size.height * s
        return Rect(x: (view.width - w) / 2, y: (view.height - h) / 2, width: w, height: h)
    }

    public override func draw(in context: inout DrawContext) {
        super.draw(in: &context)
        var pixels = image
        if pixels == nil, let source, let store = host?.images {
            // Values, not the view: a board's decoder asks on another thread.
            let (scale, viewSize, mode) = (context.scale, contentBounds.size, contentMode)
            let lookup = store.image(for: source, drawnBy: self) { picture in
                let r = Self.imageRect(forPictureOf: picture, in: viewSize, mode: mode)
                return Size(width: r.width * scale, height: r.height * scale)
            }
            if case let .ready(decoded) = lookup { pixels = decoded }
        }
        let destination = context.pixels(imageRect)
        guard let pixels else {
            if let placeholder { context.fill(Rect(origin: .zero, size: frame.size), cornerRadius: cornerRadius, color: placeholder) }
            return
        }
        context.canvas.save()
        // Padding keeps the picture inside it; without, the corners round the picture.
        let bounds = context.pixels(padding == .zero ? Rect(origin: .zero, size: frame.size) : contentBounds)
        if cornerRadius > 0 && padding == .zero {
            context.canvas.clip(toRoundedRect: bounds, radius: cornerRadius * context.scale)
        } else {
            context.canvas.clip(to: bounds)
        }
        context.draw(pixels, inPixels: destination)
        context.canvas.restore()
    }

    /// A background decode arrived: its size may change the layout.
    package func imageArrived() {
        if width == nil || height == nil { setNeedsLayout() }
        setNeedsDisplay()
    }
}

/// A container whose children lie in order along an axis without overlapping (a stack), so
/// the ones inside a rectangle are found by bisection.
package protocol OrderedChildren: View {
    func childRange(intersecting rect: Rect) -> Range<Int>
}

/// Empty space that a horizontal stack gives what its other children leave, shared equally.
package protocol FlexibleSpace: View {
    /// The least it takes along a row, in points, however little is left.
    var minLength: Double { get }
}

/// A container that lays its children out one after another along an axis (a stack): a divider
/// in it stands up along a row and lies across a column.
package protocol LinearLayout: View {
    var axis: Stack.Axis { get }
}

/// Text a person reads and does not edit, drawn in one colour and size (a label): the audit
/// measures its contrast, finds it past the screen's edge, over other text or cut short by larger
/// text, and a row that cuts it short while a sibling has room to spare says so.
package protocol StaticText: View {
    var text: String { get }
    var color: Color { get }
    var fontSize: Double { get }
    var fontWeight: FontWeight { get }
    /// The most lines it shows, the last ending in an ellipsis; 0: as many as it needs.
    var maxLines: Int { get }
    /// The rectangle its lines cover as last drawn, in its own points; nil before it is drawn.
    var textBounds: Rect? { get }
    /// Whether the window's larger text cut it with an ellipsis where 100 % text does not.
    var isCutByTextScale: Bool { get }
    /// The words its lines, as last drawn, end inside of, a `/` where each line ends
    /// ("Depar/ture"): too narrow for them, it broke them between letters.
    var wordsBrokenInside: [String] { get }
}

/// A view that shows a picture (an image view): the audit asks that it say what it shows, and a
/// zoomable scroll view whose content it is fits it to the viewport when it shows all of it.
package protocol PictureView: View {
    /// True when it scales its picture to show all of it (`.fit`) rather than to cover itself.
    var showsWholePicture: Bool { get }
}

/// Flexible empty space in a stack.
public final class Spacer: View, FlexibleSpace {
    @_spi(Hooks) override public var backdrop: Backdrop { backgroundBackdrop }
    @_spi(Hooks) override public var fillsStackHeight: Bool { true }
    /// The least a spacer without a length takes along a row, in points.
    package var minLength = 0.0
    /// Space of `length` points both ways; nil (the default) takes a share of the space its
    /// stack's other children leave.
    public init(length: Double? = nil) {
        super.init()
        width = length; height = length
    }
    /// A spacer that takes a share of the space its row's other children leave, but never less
    /// than `minLength` points (a gap a title never runs into).
    public init(minLength: Double) {
        super.init()
        self.minLength = minLength.isFinite ? max(0, minLength) : 0
    }
}

/// Children in a row or column with spacing and padding. Long stacks cull and hit-test
/// by binary search, so 10,000 rows cost what the visible ones cost.
open class Stack: Box, OrderedChildren, LinearLayout {
    /// The direction a stack lays out its children.
    public enum Axis: Hashable, Sendable {
        /// Top to bottom, in a column.
        case vertical
        /// Leading to trailing, in a row.
        case horizontal
    }
    /// Where children sit across the stack's axis.
    public enum Alignment: Hashable, Sendable {
        /// Each child without a fixed size takes the stack's whole width (in a column) or height
        /// (in a row), within its minimum and maximum.
        case fill
        /// At its own size, at the leading edge (the top, in a row).
        case leading
        /// At its own size, centred.
        case center
        /// At its own size, at the trailing edge (the bottom, in a row).
        case trailing
    }
    /// Whether the children run in a column (`.vertical`) or a row (`.horizontal`).
    public var axis: Axis { didSet { setNeedsLayout() } }
    /// Space between neighbouring visible children, in points.
    public var spacing: Double { didSet { setNeedsLayout() } }
    /// Where children sit across the axis.
    public var alignment: Alignment { didSet { setNeedsLayout() } }

    /// A stack of `children` along `axis`, `spacing` points apart inside `padding`, placed
    /// across the axis by `alignment` (`.fill` by default).
    public init(
        _ axis: Axis, id: String? = nil, spacing: Double = 0, padding: EdgeInsets = .zero,
        alignment: Alignment = .fill, children: [View] = []
    ) {
        self.axis = axis; self.spacing = spacing; self.alignment = alignment
        super.init(id: id)
        self.padding = padding
        setChildren(children)
    }

    private func measure(_ proposal: Size) -> (sizes: [Size], total: Size) {
        let inner = Size(width: proposal.width - padding.horizontal, height: proposal.height - padding.vertical)
        let visible = children.filter { !$0.isHidden }
        return axis == .vertical ? measureColumn(visible, inner: inner) : measureRow(visible, inner: inner)
    }

    /// A column's children: flexible children (and spacers) share the height the others leave.
    private func measureColumn(_ visible: [View], inner: Size) -> (sizes: [Size], total: Size) {
        var sizes: [Size] = []
        var h = 0.0, w = 0.0
        // Flexible children (and spacers) share the height the others leave, when the
        // stack has a height to share: a list under a header fills the rest of the screen.
        func flexes(_ c: View) -> Bool { c.height == nil && c.fillsStackHeight }
        let sharing = inner.height.isFinite ? visible.filter(flexes).count : 0
        var shares: [Int: Double] = [:]
        if sharing > 0 {
            var used = spacing * Double(max(0, visible.count - 1))
            for (i, c) in visible.enumerated() where !flexes(c) {
                let s = c.sizeThatFits(Size(width: c.width ?? inner.width, height: .infinity))
                shares[i] = s.height; used += s.height
            }
            let share = max(0, inner.height - used) / Double(sharing)
            for (i, c) in visible.enumerated() where flexes(c) { shares[i] = share }
        }
        for (i, c) in visible.enumerated() {
            let offered = c.constrained(Size(width: c.width ?? inner.width, height: shares[i] ?? .infinity)).width
            var s = c.sizeThatFits(Size(width: offered, height: shares[i] ?? .infinity))
            if let share = shares[i], flexes(c) { s.height = share }
            s = c.constrained(s)
            sizes.append(s); h += s.height; w = max(w, s.width)
        }
        h += spacing * Double(max(0, visible.count - 1))
        return (sizes, Size(width: (inner.width.isFinite ? inner.width : w) + padding.horizontal, height: h + padding.vertical))
    }

    /// A row's children: fixed widths first; then each other child is offered its ideal width
    /// (what it takes when offered all it wants) and what is left is shared among the children
    /// that want more and the spacers. Children that all fit in equal shares keep equal shares.
    private func measureRow(_ visible: [View], inner: Size) -> (sizes: [Size], total: Size) {
        var sizes: [Size] = []
        let crossProposal = inner.height.isFinite ? inner.height : .infinity
        func isSpacer(_ c: View) -> Bool { c is FlexibleSpace && c.width == nil }
        // A fixed-size child is as wide as its ideal width, always.
        var idealCache: [ObjectIdentifier: Double] = [:]
        func ideal(_ c: View) -> Double {
            if let known = idealCache[ObjectIdentifier(c)] { return known }
            let w = c.constrained(c.sizeThatFits(Size(width: .infinity, height: crossProposal))).width
            idealCache[ObjectIdentifier(c)] = w
            return w
        }
        func fixedWidth(_ c: View) -> Double? { c.width ?? (c.isFixedSize ? ideal(c) : nil) }
        let fixed = visible.reduce(0.0) { $0 + (fixedWidth($1) ?? 0) }
        let sharing = visible.filter { fixedWidth($0) == nil && !isSpacer($0) }
        let spacers = visible.filter(isSpacer)
        let spacerMinimum = spacers.reduce(0.0) { $0 + (($1 as? FlexibleSpace)?.minLength ?? 0) }
        let gaps = spacing * Double(max(0, visible.count - 1))
        let free = inner.width.isFinite ? max(0, inner.width - fixed - gaps - spacerMinimum) : .infinity
        let offers = free.isFinite ? Self.offers(to: sharing, free: free, ideal: ideal) : [:]
        func offer(_ c: View) -> Double { fixedWidth(c) ?? offers[ObjectIdentifier(c)] ?? .infinity }
        var usedFlexible = 0.0
        var h = 0.0
        for c in visible where !isSpacer(c) {
            let s = c.sizeThatFits(Size(width: offer(c), height: crossProposal))
            if fixedWidth(c) == nil { usedFlexible += s.width }
            h = max(h, s.height)
        }
        let spacerExtra = spacers.isEmpty || !free.isFinite ? 0 : max(0, free - usedFlexible) / Double(spacers.count)
        if free.isFinite { noteCutLabel(sharing, offer: offer, ideal: ideal, roomySpacer: spacerExtra > 0.5 ? spacers.first : nil) }
        var total = 0.0
        for c in visible {
            let w: Double
            if isSpacer(c) {
                w = (((c as? FlexibleSpace)?.minLength) ?? 0) + spacerExtra
            } else {
                w = fixedWidth(c) ?? c.sizeThatFits(Size(width: offer(c), height: crossProposal)).width
            }
            let ch =
                c.height
                ?? (alignment == .fill && inner.height.isFinite ? inner.height : c.sizeThatFits(Size(width: w, height: .infinity)).height)
            let s = c.constrained(Size(width: w, height: ch))
            sizes.append(s); total += s.width
        }
        total += gaps
        let height = self.height.map { $0 - padding.vertical } ?? (inner.height.isFinite && alignment == .fill ? inner.height : h)
        return (
            sizes,
            Size(
                width: (inner.width.isFinite ? max(total, inner.width) : total) + padding.horizontal,
                height: height + padding.vertical)
        )
    }

    /// The widths offered to the row's sharing children out of `free` points. When every child
    /// fits in an equal share (or only one shares), equal shares, as rows always had. Otherwise
    /// children with a higher `layoutPriority` are served first; within a priority, children whose
    /// ideal width is below a fair share of what is left get it, and the rest (those that want
    /// more, and those with no ideal width, which take what they are given) share the remainder.
    static func offers(to children: [View], free: Double, ideal: (View) -> Double) -> [ObjectIdentifier: Double] {
        guard children.count > 1 else { return children.first.map { [ObjectIdentifier($0): free] } ?? [:] }
        let share = free / Double(children.count)
        let prioritised = children.contains { $0.layoutPriority != 0 }
        if !prioritised, children.allSatisfy({ ideal($0) <= share }) {
            return Dictionary(uniqueKeysWithValues: children.map { (ObjectIdentifier($0), share) })
        }
        var offers: [ObjectIdentifier: Double] = [:]
        var remaining = free
        var open = children
        func give(_ c: View) {
            offers[ObjectIdentifier(c)] = ideal(c)
            remaining = max(0, remaining - ideal(c))
            open.removeAll { $0 === c }
        }
        // Higher priorities first: each child that fits in what is left gets its ideal width.
        let lowest = children.map(\.layoutPriority).min() ?? 0
        for c in children.sorted(by: { $0.layoutPriority > $1.layoutPriority }) where c.layoutPriority > lowest {
            if ideal(c) > 0, ideal(c) <= remaining { give(c) }
        }
        // Then the lowest priority, smallest ideal first, while it fits in a fair share.
        for c in open.sorted(by: { ideal($0) < ideal($1) }) where open.count > 1 {
            let fair = remaining / Double(open.count)
            guard ideal(c) > 0 else { continue }
            if ideal(c) <= fair { give(c) } else { break }
        }
        for c in open { offers[ObjectIdentifier(c)] = remaining / Double(open.count) }
        return offers
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        let p = Size(width: width ?? proposal.width, height: height ?? proposal.height)
        let total = measure(p).total
        return Size(width: width ?? total.width, height: height ?? total.height)
    }

    open override func layoutChildren() {
        let (sizes, _) = measure(frame.size)
        let inner = Size(width: frame.width - padding.horizontal, height: frame.height - padding.vertical)
        var cursor = axis == .vertical ? padding.top : padding.leading
        var i = 0
        for c in children where !c.isHidden {
            let s = sizes[i]; i += 1
            if axis == .vertical {
                let w = alignment == .fill ? c.constrained(Size(width: c.width ?? inner.width, height: 0)).width : s.width
                let x: Double
                switch alignment {
                case .fill, .leading: x = padding.leading
                case .center: x = padding.leading + (inner.width - w) / 2
                case .trailing: x = padding.leading + inner.width - w
                }
                c.frame = Rect(x: x, y: cursor, width: w, height: s.height)
                cursor += s.height + spacing
            } else {
                let h = alignment == .fill ? c.constrained(Size(width: 0, height: c.height ?? inner.height)).height : s.height
                let y: Double
                switch alignment {
                case .fill, .leading: y = padding.top
                case .center: y = padding.top + (inner.height - h) / 2
                case .trailing: y = padding.top + inner.height - h
                }
                c.frame = Rect(x: cursor, y: y, width: s.width, height: h)
                cursor += s.width + spacing
            }
            c.layoutChildren()
        }
        runsFromRight = axis == .horizontal && isRightToLeft
        reportOverflow(end: cursor - spacing)
        reportCutLabel()
        mirrorChildrenIfRightToLeft()
    }

    /// Set once the window was told that this stack's children run past its edge.
    private var warnedOverflow = false

    /// Children that run past the stack's far edge are cut off where a person sees it: said once
    /// in the log, with the stack's and the children's names, like a view laid out empty.
    private func reportOverflow(end: Double) {
        let limit = axis == .vertical ? frame.height - padding.bottom : frame.width - padding.trailing
        guard !warnedOverflow, end > limit + 0.5, frame.width > 0, frame.height > 0, let host else { return }
        warnedOverflow = true
        let cut = children.filter { !$0.isHidden && (axis == .vertical ? $0.frame.maxY : $0.frame.maxX) > limit + 0.5 }
        let side = axis == .vertical ? "tall" : "wide"
        host.warn(
            """
            \(logTitle("Stack")) is \(Int(limit.rounded())) points \(side) inside its padding but its \
            children need \(Int(end.rounded())): \(cut.map(\.logName).joined(separator: ", ")) \(cut.count == 1 ? "is" : "are") cut off \
            (let text wrap, give fixed sizes less, or put the stack in a scroll view)
            """, about: self)
    }

    /// A label of this row offered less than its ideal width while a sibling got more than it
    /// asked for, as of the last measure; said once at layout.
    private var cutLabel: (label: View, roomy: View, offer: Double, ideal: Double)?
    private var warnedCut = false

    /// Remembers the first label cut short while a sibling (or a spacer) has room it does not
    /// need: the row's space is shared wrongly for what a person reads.
    private func noteCutLabel(_ sharing: [View], offer: (View) -> Double, ideal: (View) -> Double, roomySpacer: View?) {
        cutLabel = nil
        guard !warnedCut, let label = sharing.first(where: { (($0 as? StaticText)?.maxLines ?? 0) > 0 && offer($0) < ideal($0) - 0.5 }),
            let roomy = roomySpacer ?? sharing.first(where: { $0 !== label && offer($0) > ideal($0) + 0.5 })
        else { return }
        cutLabel = (label, roomy, offer(label), ideal(label))
    }

    private func reportCutLabel() {
        guard let cut = cutLabel, !warnedCut, let host else { return }
        warnedCut = true
        host.warn(
            """
            \(logTitle("Stack")) cuts label \(cut.label.logName) to \(Int(cut.offer.rounded())) of the \
            \(Int(cut.ideal.rounded())) points it needs while \(cut.roomy.logName) has room it does not need (give the label \
            layoutPriority(1) or fixedSize(), or the other view a width)
            """, about: cut.label)
    }

    /// Its children were laid out in a right-to-left row: their x falls as their index rises.
    private var runsFromRight = false

    /// Indices of the children that may intersect `rect` (local points), by binary search along
    /// the axis (children are laid out in order).
    package func childRange(intersecting rect: Rect) -> Range<Int> {
        // A right-to-left row is searched in mirrored coordinates, where x rises with the index.
        let w = frame.width, mirrored = runsFromRight
        let lo = axis == .vertical ? rect.minY : mirrored ? w - rect.maxX : rect.minX
        let hi = axis == .vertical ? rect.maxY : mirrored ? w - rect.minX : rect.maxX
        func end(_ v: View) -> Double { axis == .vertical ? v.frame.maxY : mirrored ? w - v.frame.minX : v.frame.maxX }
        func start(_ v: View) -> Double { axis == .vertical ? v.frame.minY : mirrored ? w - v.frame.maxX : v.frame.minX }
        var a = 0, b = children.count
        while a < b { let m = (a + b) / 2; if end(children[m]) < lo { a = m + 1 } else { b = m } }
        var e = a
        while e < children.count && start(children[e]) <= hi { e += 1 }
        return a..<e
    }

    @_spi(Hooks) override open func drawChildren(in context: inout DrawContext) {
        guard children.count > 32 else { super.drawChildren(in: &context); return }
        let visible = context.visibleLocalRect.insetBy(dx: -2, dy: -2)
        if clipsChildren { super.drawChildren(in: &context); return }
        for i in childRange(intersecting: visible) where !children[i].isHidden { context.drawChild(children[i]) }
    }

    @_spi(Hooks) override open func hitTest(_ p: Point) -> View? {
        guard children.count > 32, !isHidden, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else {
            return super.hitTest(p)
        }
        for i in childRange(intersecting: Rect(x: p.x, y: p.y, width: 0, height: 0)).reversed() {
            let c = children[i]
            if let hit = c.hitTest(convertToChild(p, c)) { return hit }
        }
        return self
    }
}
