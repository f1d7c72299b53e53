@_spi(Hooks) import ViewCore
import Gestures
@_spi(Hooks) import Widgets
import Localization
import Geometry
import Raster
import Scrolling
import TextEditing

/// A one-line text field: tap to focus it and place the caret, long press to select a
/// word, type on the on-screen keyboard or a physical one. Text longer than the field scrolls
/// sideways to keep the caret in view.
///
///     TextField(id: "search", text: "", placeholder: "Search stations")
///         .onChange { query in list.filter(query) }
public final class TextField: TextInputView {
    /// Points the text is scrolled by, away from the edge it starts at, to keep the caret in view.
    private var scrollX = 0.0

    /// A field identified by `id` holding `text`, showing `placeholder` while empty, its text
    /// `fontSize` points; white, with a grey border and 10-point corners, at least 44 points tall
    /// unless given a height.
    public init(id: String, text: String = "", placeholder: String = "", fontSize: Double = 17) {
        super.init(id: id, text: text, placeholder: placeholder, singleLine: true, fontSize: fontSize)
        fill = Color.surface
        themedCorner = \.field
        borderColor = Color.fieldBorder
        padding = EdgeInsets(horizontal: 12, vertical: 8)
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }
    /// The text is clipped to the field.
    @_spi(Hooks) override public var clipsContent: Bool { true }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? (proposal.width.isFinite ? proposal.width : 240)
        return Size(width: w, height: height ?? max(44, (lineHeight + padding.vertical).rounded(.up)))
    }

    /// The handles keep the frames the field gives them.
    public override func layoutChildren() { updateHandles() }

    /// Its text starts at the right edge: it runs right to left (by its first strong letter),
    /// or it has no letter yet and the field lays out right to left.
    override var startsAtRight: Bool {
        if paragraphLayout(0)?.lines.first?.isRightToLeft == true { return true }
        return isRightToLeft && !editor.paragraphs[0].unicodeScalars.contains { $0.properties.isAlphabetic }
    }

    /// Where the text's left edge is in the field's text coordinates when the field shows its
    /// left edge: the text's width and the field's come in when the text starts at the right.
    private func visibleLeft(scroll: Double, textWidth: Double, width: Double) -> Double {
        startsAtRight ? textWidth - width - scroll : scroll
    }

    override func textOrigin() -> Point {
        let inner = contentBounds
        let left = visibleLeft(scroll: scrollX, textWidth: lineWidth(ofParagraph: 0), width: inner.width)
        return Point(x: inner.minX - left, y: inner.minY + max(0, (inner.height - lineHeight) / 2))
    }

    override func revealCaret() {
        let inner = contentBounds
        guard inner.width > 0 else { return }
        let caret = caretRect(at: editor.head)
        let textWidth = lineWidth(ofParagraph: 0)
        var left = visibleLeft(scroll: scrollX, textWidth: textWidth, width: inner.width)
        if caret.minX < left { left = caret.minX }
        if caret.maxX > left + inner.width { left = caret.maxX - inner.width }
        // The same mapping back: it is its own inverse.
        var x = visibleLeft(scroll: left, textWidth: textWidth, width: inner.width)
        x = max(0, min(x, max(0, textWidth + 2 - inner.width)))
        if x != scrollX { scrollX = x; updateHandles() }
    }

    public override func draw(in context: inout DrawContext) {
        context.canvas.save()
        context.canvas.clip(to: context.pixels(contentBounds.insetBy(dx: -2, dy: 0)))
        drawText(in: &context, origin: textOrigin())
        context.canvas.restore()
    }
}

/// A multi-line text field that scrolls itself: new lines from the return key, the
/// caret kept in view as it moves, a selection handle dragged past the edge scrolls the text.
public final class TextArea: TextInputView {
    package let scroller: TextAreaScroller
    let body = TextAreaBody()

    /// A text area identified by `id` holding `text`, showing `placeholder` while empty, its
    /// text `fontSize` points; white, with a grey border and 10-point corners, 160 points tall
    /// unless given a height.
    public init(id: String, text: String = "", placeholder: String = "", fontSize: Double = 17) {
        scroller = TextAreaScroller(id: nil, axes: .vertical, content: body)
        super.init(id: id, text: text, placeholder: placeholder, singleLine: false, fontSize: fontSize)
        body.owner = self
        scroller.owner = self
        body.padding = EdgeInsets(horizontal: 12, vertical: 8)
        fill = Color.surface
        themedCorner = \.field
        borderColor = Color.fieldBorder
        scroller.configuration.alwaysBounceVertical = false
        add(scroller)
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }
    override var returnInsertsNewLine: Bool { submitLabel == .return }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: width ?? (proposal.width.isFinite ? proposal.width : 320), height: height ?? 160)
    }

    public override func layoutChildren() {
        scroller.frame = Rect(origin: .zero, size: frame.size)
        // The scroll view clips to the corners; its radius is a plain number (the window's
        // damage planning reads it), set here from the theme at each layout.
        let radius = cornerRadius(in: environment.theme)
        if scroller.cornerRadius != radius { Transaction.immediately { scroller.cornerRadius = radius } }
        scroller.layoutChildren()
    }

    override func wrapWidth(scale: Double) -> Double { max(1, frame.width - body.padding.horizontal) * scale }

    override func textOrigin() -> Point {
        Point(x: body.padding.leading, y: body.padding.top - scroller.sampledOffset.y)
    }

    override var handleHost: View { body }
    override var handleOrigin: Point { Point(x: body.padding.leading, y: body.padding.top) }

    override func textLayoutChanged() {
        super.textLayoutChanged()
        let height = textHeight + body.padding.vertical
        if abs(height - body.measuredHeight) > 0.001 { body.measuredHeight = height; body.setNeedsLayout() }
        body.setNeedsDisplay()
    }

    override func revealCaret() {
        guard let window else { return }
        // The content may have grown in this edit: lay out first, so the engine knows the new end.
        window.layoutIfNeeded()
        let r = caretRect(at: editor.head).offsetBy(dx: body.padding.leading, dy: body.padding.top)
        scroller.controller.scroll(toReveal: r.insetBy(dx: 0, dy: -4), anchor: nil, animated: false, at: window.time)
        window.scheduleFrame()
    }

    override func updateHandles() {
        super.updateHandles()
        body.setNeedsDisplay()
    }
}

/// A text area's scroll view: while a selection handle is held past its edge it autoscrolls,
/// and the selection's end follows the text moving under the finger.
package final class TextAreaScroller: ScrollView {
    weak var owner: TextArea?

    override package var scrollsTextArea: Bool { true }

    override public func sample(at t: Double) {
        let before = sampledOffset
        super.sample(at: t)
        if sampledOffset != before { owner?.textMovedUnderHandle() }
    }
}

/// The scrolling content of a text area: as tall as its text, drawing what shows.
package final class TextAreaBody: View {
    weak var owner: TextArea?
    var measuredHeight = 0.0

    override package func sizeThatFits(_ proposal: Size) -> Size {
        guard let owner else { return .zero }
        measuredHeight = owner.textHeight + padding.vertical
        return Size(width: proposal.width.isFinite ? proposal.width : 0, height: measuredHeight)
    }

    override package func layoutChildren() { owner?.updateHandles() }

    override package func draw(in context: inout DrawContext) {
        owner?.drawText(in: &context, origin: Point(x: padding.leading, y: padding.top))
    }
}
