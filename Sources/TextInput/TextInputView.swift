@_spi(Hooks) import ViewCore
import Gestures
@_spi(Hooks) import Widgets
import Localization
import Geometry
import Raster
import AppContract
import Text
import TextEditing

/// What `TextField` and `TextArea` share: the text and its selection, what the field
/// is for (content type, secure entry, limits, read-only), the on-screen keyboard it asks for,
/// its callbacks, and the caret that blinks only while it has focus. The text is laid out a
/// paragraph at a time with HarfBuzz, so a keystroke costs what its paragraph costs.
open class TextInputView: Box, KeyboardField {
    var editor: TextEditor

    /// The text. Setting it puts the caret at its end and does not call `onChange`.
    public var text: String {
        get { editor.text }
        set { apply(editor.setText(newValue), notify: false) }
    }
    /// Shown, dimmed, while the text is empty.
    public var placeholder: String { didSet { setNeedsDisplay() } }
    /// What the field is for: picks the keyboard (number and PIN pads, an @ key for e-mail).
    public var contentType: TextContentType = .text { didSet { keyboardChanged() } }
    /// Shows a dot for every character (PINs, passwords); the state JSON shows the dots too.
    public var isSecure = false { didSet { layoutsChanged() } }
    /// Characters the text may hold (at most 65,536). Scalars and UTF-8 bytes are bounded with
    /// it: 8 scalars for each character and 4 bytes for each scalar, never more than 65,536 of
    /// either, so one character of thousands of joiners does not pass a short limit.
    public var maximumLength: Int? {
        get { editor.maximumLength }
        set { editor.maximumLength = newValue }
    }
    /// Keeps only the typed or pasted characters it accepts (`{ $0.isNumber }`).
    public var filter: ((Character) -> Bool)? {
        get { editor.filter }
        set { editor.filter = newValue }
    }
    /// Selectable and copyable, but not editable: no keyboard comes.
    public var isReadOnly = false { didSet { keyboardChanged() } }
    /// What the return key says; `.next` moves focus to the next field.
    public var submitLabel: SubmitLabel = .return { didSet { keyboardChanged() } }
    /// The on-screen keyboard's layout for this field (`en`, `de`, `fr`, `ja`, `ar`, `he`,
    /// `number`, `pin`); nil: the window's `keyboardLayout`. A name Glide does not know shows
    /// the window's.
    public var keyboardLayout: String? { didSet { keyboardChanged() } }
    /// Font size of the text and placeholder, in points (times the window's text size).
    public var fontSize: Double { didSet { layoutsChanged() } }
    /// Colour of the text; near-black (0x1C1C1E) by default.
    public var textColor = Color.primaryText { didSet { setNeedsDisplay() } }
    /// Colour of the placeholder; grey (0x6C6C70, 4.5:1 on white) by default.
    public var placeholderColor = Color.secondaryText { didSet { setNeedsDisplay() } }
    /// Called with the text when the return key submits it (a field's return, or a text
    /// area's when its `submitLabel` is not `.return`).
    public var onSubmit: ((String) -> Void)?
    /// Called with the text after every edit by the person typing (not when `text` is set).
    public var onChange: ((String) -> Void)?

    /// One layout per paragraph, built when first needed and dropped when its paragraph is edited.
    private var layouts: [TextLayout?] = [nil]
    private var layoutKey: [Double] = []
    private var tops: [Double]?
    /// The time the caret last moved or the field took focus: it shows solid for half a second.
    var caretEpoch = 0.0
    private var blinkTimer: LoopTimer?
    /// The selection's handles, while a selection shows on a focused field.
    package let handles = (start: SelectionHandle(isStart: true), end: SelectionHandle(isStart: false))

    init(id: String?, text: String, placeholder: String, singleLine: Bool, fontSize: Double) {
        editor = TextEditor(text: text, singleLine: singleLine)
        self.placeholder = placeholder
        self.fontSize = fontSize
        super.init(id: id)
        isFocusable = true
        layouts = Array(repeating: nil, count: editor.paragraphs.count)
        onTap = { [weak self] in self?.tapped() }
        onLongPress = { [weak self] in self?.longPressed() }
        handles.start.owner = self
        handles.end.owner = self
    }

    /// The selection as character offsets from the start of the text.
    package var selection: Range<Int> {
        get { editor.offset(of: editor.selectionStart)..<editor.offset(of: editor.selectionEnd) }
        set {
            editor.setSelection(
                anchor: editor.position(atOffset: newValue.lowerBound), head: editor.position(atOffset: newValue.upperBound))
            selectionChanged()
        }
    }

    /// True while the field has its window's focus, so typing goes to it; false outside a window.
    public var isFocused: Bool { window.map { $0.focusedView === self } ?? false }

    /// A field says its placeholder when a row around it is spoken as one.
    @_spi(Hooks) override open var accessibilityText: String? { placeholder }

    /// A text field: its placeholder names it, its text is its value (a secure field says how
    /// many characters it holds, never which).
    @_spi(Hooks) override open var accessibilityDescription: AccessibilityDescription? {
        let value = isSecure ? environment.strings.format(.characters, editor.count) : editor.text
        return AccessibilityDescription(role: .textField, label: placeholder, value: value, combinesChildren: true)
    }

    /// The text as the person sees it: dots for a secure field.
    package var displayedText: String { isSecure ? String(repeating: "•", count: editor.count) : editor.text }

    // MARK: Editing (the keyboard, keys and typed text call these)

    package func insertText(_ s: String) {
        guard !isReadOnly else { return }
        apply(editor.insert(s), notify: true)
    }

    package func deleteBackward() {
        guard !isReadOnly else { return }
        apply(editor.deleteBackward(), notify: true)
    }

    func deleteForward() {
        guard !isReadOnly else { return }
        apply(editor.deleteForward(), notify: true)
    }

    package func transformCharacterBeforeCaret(_ f: (Character) -> Character?) {
        guard !isReadOnly else { return }
        apply(editor.transformCharacterBeforeCaret(f), notify: true)
    }

    package func clear() {
        guard !isReadOnly, editor.count > 0 else { return }
        apply(editor.setText(""), notify: true)
    }

    /// The paragraph the caret (the selection's moving end) is in runs right to left.
    var headParagraphRunsRightToLeft: Bool {
        paragraphLayout(editor.head.paragraph)?.lines.first?.isRightToLeft ?? false
    }

    func move(_ m: TextEditor.Movement, extending: Bool) {
        editor.move(m, extending: extending)
        selectionChanged()
    }

    /// The return key: a text area with a plain return key takes a new line; otherwise the
    /// text is submitted, and a field gives up focus (or passes it on, for `.next`).
    package func submit() {
        if returnInsertsNewLine { insertText("\n"); return }
        onSubmit?(editor.text)
        guard let window, window.focusedView === self else { return }
        if submitLabel == .next { window.focusNextTextInput(after: self) } else { window.focus(nil) }
    }

    /// Cut, copy and paste go through the window's pasteboard, which lives as long as the app.
    func copySelection() {
        guard editor.hasSelection, !isSecure else { return }
        window?.pasteboard = editor.selectedText
    }

    func cutSelection() {
        guard editor.hasSelection, !isSecure, !isReadOnly else { return }
        copySelection()
        deleteBackward()
    }

    func paste() {
        guard let s = window?.pasteboard, !s.isEmpty else { return }
        insertText(s)
    }

    func selectAll() {
        editor.selectAll()
        selectionChanged()
    }

    /// A key from a physical keyboard; true when the field used it.
    package func handleKey(_ key: Key, shift: Bool, control: Bool) -> Bool {
        if control {
            switch key {
            case .a: selectAll()
            case .c: copySelection()
            case .x: cutSelection()
            case .v: paste()
            default: return false
            }
            return true
        }
        switch key {
        case .backspace: deleteBackward()
        case .delete: deleteForward()
        // In a right-to-left paragraph the text runs leftwards: the left arrow goes on through it;
        // in one of mixed directions the arrows go where they point on the line.
        case .left, .right:
            if !moveVisually(leftwards: key == .left, extending: shift) {
                move(headParagraphRunsRightToLeft == (key == .left) ? .right : .left, extending: shift)
            }
        case .home: move(.lineStart, extending: shift)
        case .end: move(.lineEnd, extending: shift)
        case .up, .down:
            guard !editor.isSingleLine else { return false }
            moveVertically(by: key == .up ? -1 : 1, extending: shift)
        case .enter, .keypadEnter: submit()
        case .escape: window?.focus(nil)
        default: return false
        }
        return true
    }

    /// Left or right through a paragraph of mixed directions, as the eye sees it: to the nearest
    /// caret place that way on the line; from the line's edge on to the next line the way the
    /// paragraph runs (the line before when the arrow points back). False for text of one
    /// direction, where the logical move is the same.
    func moveVisually(leftwards: Bool, extending: Bool) -> Bool {
        let head = editor.head, para = head.paragraph
        guard !isSecure, let layout = paragraphLayout(para), layout.lines.contains(where: \.isBidi) else { return false }
        let (hereX, line) = layout.caret(at: editor.scalarOffset(of: head.offset, inParagraph: para))
        var best: (offset: Int, x: Double)?
        var scalar = 0
        for (offset, c) in ([Character?](editor.paragraphs[para].map { $0 }) + [nil]).enumerated() {
            let (x, l) = layout.caret(at: scalar)
            scalar += c?.unicodeScalars.count ?? 0
            guard l == line, leftwards ? x < hereX - 0.01 : x > hereX + 0.01 else { continue }
            if best.map({ leftwards ? x > $0.x : x < $0.x }) ?? true { best = (offset, x) }
        }
        var target: TextPosition
        if let best {
            target = TextPosition(paragraph: para, offset: best.offset)
        } else {
            // At the edge: the way the paragraph runs goes on to the next line's start, the other
            // way back to the line before; past the paragraph, into the next one (or stays).
            let forward = leftwards == layout.lines[line].isRightToLeft
            let lines = layout.lines
            if forward, line + 1 < lines.count {
                target = TextPosition(
                    paragraph: para, offset: editor.characterOffset(ofScalar: lines[line + 1].textRange.lowerBound, inParagraph: para))
            } else if !forward, line > 0 {
                let end = max(lines[line - 1].textRange.lowerBound, lines[line - 1].textRange.upperBound - 1)
                target = TextPosition(paragraph: para, offset: editor.characterOffset(ofScalar: end, inParagraph: para))
            } else if forward, para + 1 < editor.paragraphs.count {
                target = TextPosition(paragraph: para + 1, offset: 0)
            } else if !forward, para > 0 {
                target = TextPosition(paragraph: para - 1, offset: editor.paragraphs[para - 1].count)
            } else {
                return true
            }
        }
        if extending { editor.setSelection(anchor: editor.anchor, head: target) } else { editor.setCaret(target) }
        selectionChanged()
        return true
    }

    /// Up and down in a text area: the same x a line above or below.
    func moveVertically(by lines: Int, extending: Bool) {
        let r = caretRect(at: editor.head)
        let target = position(at: Point(x: r.minX, y: r.midY + Double(lines) * r.height))
        if extending { editor.setSelection(anchor: editor.anchor, head: target) } else { editor.setCaret(target) }
        selectionChanged()
    }

    /// After an edit: the changed paragraphs' layouts go, the caret shows solid and in view.
    func apply(_ change: ParagraphChange?, notify: Bool) {
        guard let change else { return }
        layouts.replaceSubrange(change.replaced, with: Array(repeating: nil, count: change.inserted))
        tops = nil
        textLayoutChanged()
        if notify { onChange?(editor.text) }
        selectionChanged()
    }

    func selectionChanged(reveal: Bool = true) {
        caretEpoch = window?.time ?? 0
        scheduleBlink()
        updateHandles()
        if reveal { revealCaret() }
        setNeedsDisplay()
        window?.editMenuChanged(for: self)
    }

    /// A text area's plain return key types a new line.
    var returnInsertsNewLine: Bool { false }

    /// Subclasses re-measure (a text area's content grows).
    func textLayoutChanged() { setNeedsDisplay() }

    /// Subclasses scroll the caret into view.
    func revealCaret() {}

    private func layoutsChanged() {
        layouts = Array(repeating: nil, count: editor.paragraphs.count)
        tops = nil
        textLayoutChanged()
    }

    private func keyboardChanged() { window?.keyboardConfigurationChanged(for: self) }

    // MARK: Focus and touches

    func tapped() {
        guard let window else { return }
        let point = touchPoint.map { localTextPoint(fromWindow: $0) }
        if window.focusedView !== self { window.focus(self) }
        if let point { editor.setCaret(position(at: point)) }
        selectionChanged()
    }

    /// A long press selects the word under the finger and shows the edit menu.
    func longPressed() {
        guard let window else { return }
        if window.focusedView !== self { window.focus(self) }
        if let p = touchPoint { editor.selectWord(at: position(at: localTextPoint(fromWindow: p))) }
        selectionChanged()
        window.showEditMenu(for: self)
    }

    package func focusChanged(focused: Bool) {
        caretEpoch = window?.time ?? 0
        if !focused { blinkTimer?.cancel(); blinkTimer = nil; editor.setCaret(editor.head) }
        updateHandles()
        scheduleBlink()
        setNeedsDisplay()
    }

    /// The handle a finger drags and where the finger is (window points).
    var draggedHandle: (handle: SelectionHandle, point: Point)?

    /// A handle was dragged to `p` (window points): its end of the selection follows. The text
    /// does not scroll to it: past the edge the text autoscrolls, and the end follows the text
    /// moving under the finger (`textMovedUnderHandle`).
    func dragHandle(_ handle: SelectionHandle, to p: Point, phase: DragPhase) {
        guard phase == .began || phase == .moved else { draggedHandle = nil; return }
        draggedHandle = (handle, p)
        let target = position(at: localTextPoint(fromWindow: p))
        let other = handle.isStart ? editor.selectionEnd : editor.selectionStart
        guard target != other, target != editor.head || editor.anchor != other else { return }
        editor.setSelection(anchor: other, head: target)
        selectionChanged(reveal: false)
    }

    /// The text scrolled while a handle is held: the selection's end follows the finger.
    func textMovedUnderHandle() {
        guard let (handle, p) = draggedHandle else { return }
        dragHandle(handle, to: p, phase: .moved)
    }

    /// The text's own coordinates (points from the first paragraph's top left) of a window point.
    func localTextPoint(fromWindow p: Point) -> Point {
        let o = textOrigin(), f = frameInWindow
        return Point(x: p.x - f.minX - o.x, y: p.y - f.minY - o.y)
    }

    /// Where the text's origin sits in the view's local points (subclasses scroll it).
    func textOrigin() -> Point { Point(x: padding.leading, y: padding.top) }

    /// A one-line field whose text starts at its right edge (see `TextField`): its placeholder
    /// ends at the text's origin instead of starting there.
    var startsAtRight: Bool { false }

    // MARK: The caret's blink

    static let blinkHalfPeriod = 0.5

    func caretVisible(at t: Double) -> Bool {
        guard isFocused, !editor.hasSelection, !isReadOnly else { return false }
        let phase = Int(((t - caretEpoch) / Self.blinkHalfPeriod).rounded(.down))
        return phase % 2 == 0
    }

    /// A timer at the caret's next change wakes the loop, which redraws the field: between
    /// changes, and always while the field has no focus, the board rests.
    private func scheduleBlink() {
        blinkTimer?.cancel(); blinkTimer = nil
        guard let window, isFocused, !editor.hasSelection, !isReadOnly else { return }
        let now = window.time
        let elapsed = max(0, now - caretEpoch)
        let next = (elapsed / Self.blinkHalfPeriod).rounded(.down) * Self.blinkHalfPeriod + Self.blinkHalfPeriod
        blinkTimer = window.timers.after(max(0.001, next - elapsed)) { [weak self] in
            self?.setNeedsDisplay()
            self?.scheduleBlink()
        }
    }

    // MARK: Layout of the text

    /// Pixels a paragraph wraps at (infinite: one line).
    func wrapWidth(scale: Double) -> Double { .infinity }

    /// `fontSize` times the window's text size.
    var shownFontSize: Double { fontSize * (window?.textScale ?? 1) }

    func font(scale: Double) -> Font? { window?.typography.usableFont(pixelSize: shownFontSize * scale, style: fontStyle) }

    /// How heavy the text is drawn (`bold()`, `fontWeight(_:)`).
    package var fontWeight = FontWeight.regular { didSet { layoutsChanged() } }
    /// The text is slanted (`italic()`).
    package var isItalic = false { didSet { layoutsChanged() } }
    var fontStyle: FontStyle { FontStyle(weight: fontWeight, italic: isItalic) }

    /// Draws the text bold.
    @discardableResult
    public func bold(_ on: Bool = true) -> Self { fontWeight = on ? .bold : .regular; return self }
    /// Draws the text at `weight`.
    @discardableResult
    public func fontWeight(_ weight: FontWeight) -> Self { fontWeight = weight; return self }
    /// Draws the text slanted.
    @discardableResult
    public func italic(_ on: Bool = true) -> Self { isItalic = on; return self }

    var scale: Double { window?.scaleFactor ?? 1 }

    func paragraphLayout(_ i: Int) -> TextLayout? {
        let s = scale
        let key = [wrapWidth(scale: s), s, shownFontSize, Double(host?.typography.generation ?? 0)]
        if key != layoutKey { layouts = Array(repeating: nil, count: editor.paragraphs.count); layoutKey = key; tops = nil }
        if layouts.count != editor.paragraphs.count { layouts = Array(repeating: nil, count: editor.paragraphs.count) }
        if let l = layouts[i] { return l }
        guard let font = font(scale: s) else { return nil }
        let text = isSecure ? String(repeating: "•", count: editor.paragraphs[i].count) : editor.paragraphs[i]
        let l = TextLayout(text: text, font: font, maxWidth: key[0])
        layouts[i] = l
        return l
    }

    /// One line's height in points.
    var lineHeight: Double {
        guard let f = font(scale: scale) else { return shownFontSize * 1.2 }
        return f.lineHeight(spacing: 1) / scale
    }

    /// The top of each paragraph in points, and the bottom of the last.
    func paragraphTops() -> [Double] {
        if let tops, tops.count == editor.paragraphs.count + 1 { return tops }
        var out = [0.0]
        out.reserveCapacity(editor.paragraphs.count + 1)
        for i in editor.paragraphs.indices {
            let lines = max(1, paragraphLayout(i)?.lines.count ?? 1)
            out.append(out[i] + Double(lines) * lineHeight)
        }
        tops = out
        return out
    }

    var textHeight: Double { paragraphTops().last ?? lineHeight }

    /// The widest line, in points (a field scrolls sideways past its width).
    func lineWidth(ofParagraph i: Int) -> Double { (paragraphLayout(i)?.size.width ?? 0) / scale }

    /// The caret's rectangle before `p`, in text points.
    func caretRect(at p: TextPosition) -> Rect {
        let tops = paragraphTops()
        let para = max(0, min(p.paragraph, editor.paragraphs.count - 1))
        guard let l = paragraphLayout(para) else { return Rect(x: 0, y: tops[para], width: 2, height: lineHeight) }
        let scalar = isSecure ? p.offset : editor.scalarOffset(of: p.offset, inParagraph: para)
        let (x, line) = l.caret(at: scalar)
        return Rect(x: x / scale, y: tops[para] + Double(line) * lineHeight, width: max(2, 2 / scale), height: lineHeight)
    }

    /// The text position nearest `p` (text points).
    func position(at p: Point) -> TextPosition {
        let tops = paragraphTops()
        var para = 0
        while para + 1 < editor.paragraphs.count && p.y >= tops[para + 1] { para += 1 }
        guard let l = paragraphLayout(para) else { return TextPosition(paragraph: para, offset: 0) }
        let line = max(0, Int(((p.y - tops[para]) / lineHeight).rounded(.down)))
        let scalar = l.caretIndex(nearX: p.x * scale, line: line)
        let offset = isSecure ? scalar : editor.characterOffset(ofScalar: scalar, inParagraph: para)
        return TextPosition(paragraph: para, offset: offset)
    }

    // MARK: Drawing

    /// Draws the text (or the placeholder), the selection and the caret with the text's origin
    /// at `origin` (local points), only the paragraphs that meet the clip.
    func drawText(in context: inout DrawContext, origin: Point) {
        let s = context.scale
        let visible = context.visibleLocalRect
        if editor.count == 0 {
            if !placeholder.isEmpty, let font = context.typography.usableFont(pixelSize: shownFontSize * s, style: fontStyle) {
                let l = TextLayout(text: placeholder, font: font, maxWidth: wrapWidth(scale: s), maxLines: 1)
                let x = startsAtRight ? origin.x - l.size.width / s : origin.x
                context.draw(l, at: Point(x: x, y: origin.y), color: placeholderColor)
            }
        } else {
            let tops = paragraphTops()
            let selStart = editor.selectionStart, selEnd = editor.selectionEnd
            for i in editor.paragraphs.indices {
                let top = origin.y + tops[i], bottom = origin.y + tops[i + 1]
                if bottom < visible.minY { continue }
                if top > visible.maxY { break }
                if editor.hasSelection, isFocused, i >= selStart.paragraph, i <= selEnd.paragraph {
                    drawSelection(
                        paragraph: i, from: i == selStart.paragraph ? selStart.offset : 0,
                        to: i == selEnd.paragraph ? selEnd.offset : editor.paragraphs[i].count + 1, origin: origin, in: &context)
                }
                if let l = paragraphLayout(i) {
                    context.draw(
                        l, at: Point(x: origin.x, y: top), color: context.textColor(textColor))
                }
            }
        }
        if caretVisible(at: context.time) {
            let r = caretRect(at: editor.head).offsetBy(dx: origin.x, dy: origin.y)
            context.fill(
                Rect(x: (r.minX * s).rounded() / s, y: r.minY + 2 / s, width: r.width, height: r.height - 4 / s),
                color: Color.accent)
        }
    }

    private func drawSelection(paragraph i: Int, from a: Int, to b: Int, origin: Point, in context: inout DrawContext) {
        let count = editor.paragraphs[i].count
        if !isSecure, let layout = paragraphLayout(i), layout.lines.contains(where: \.isBidi) {
            // Mixed directions: the selected characters where they stand, in one or more spans.
            let top = paragraphTops()[i]
            let scalars = editor.scalarOffset(of: min(a, count), inParagraph: i)..<editor.scalarOffset(of: min(b, count), inParagraph: i)
            for line in layout.lines.indices {
                for span in layout.selectionSpans(scalars, line: line) {
                    context.fill(
                        Rect(
                            x: origin.x + span.minX / scale, y: origin.y + top + Double(line) * lineHeight,
                            width: (span.maxX - span.minX) / scale, height: lineHeight), color: Color.selection)
                }
            }
            return
        }
        let start = caretRect(at: TextPosition(paragraph: i, offset: min(a, count)))
        let endPosition = TextPosition(paragraph: i, offset: min(b, count))
        var end = caretRect(at: endPosition)
        if b > count { end.origin.x += fontSize / 3 }  // the new line at the end shows selected
        var y = start.minY
        while y <= end.minY + 0.5 {
            let lineStart = y == start.minY ? start.minX : 0
            let lineEnd = abs(y - end.minY) < 0.5 ? end.minX : max(lineWidth(ofParagraph: i), lineStart + fontSize / 3)
            context.fill(
                Rect(x: origin.x + lineStart, y: origin.y + y, width: max(0, lineEnd - lineStart), height: start.height),
                color: Color.selection)
            y += start.height
        }
    }

    /// A field shows focus with its caret and border, not the pressed shade of a button.
    @_spi(Hooks) override open func drawPressed(in context: inout DrawContext) {}

    // MARK: Handles

    func updateHandles() {
        let show = isFocused && editor.hasSelection
        for (h, p) in [(handles.start, editor.selectionStart), (handles.end, editor.selectionEnd)] {
            guard show else { if h.parent != nil { h.removeFromParent() }; continue }
            let r = caretRect(at: p).offsetBy(dx: handleOrigin.x, dy: handleOrigin.y)
            h.frame = Rect(
                x: r.minX - SelectionHandle.size / 2, y: h.isStart ? r.minY - SelectionHandle.size + 4 : r.maxY - 4,
                width: SelectionHandle.size, height: SelectionHandle.size)
            if h.parent == nil { handleHost.attach(h, at: handleHost.children.count) }
            h.setNeedsDisplay()
        }
    }

    /// The view the handles are children of (a text area's scrolling content), and where the
    /// text starts in it.
    var handleHost: View { self }
    var handleOrigin: Point { textOrigin() }
}

/// A selection's end, dragged to change it (in a text area, past the edge the text
/// scrolls towards the finger).
package final class SelectionHandle: View {
    static let size = 22.0
    let isStart: Bool
    weak var owner: TextInputView?

    init(isStart: Bool) {
        self.isStart = isStart
        super.init()
        onDrag = { [weak self] phase, p in
            guard let self, let owner = self.owner else { return }
            owner.dragHandle(self, to: p, phase: phase)
        }
    }

    override package func draw(in context: inout DrawContext) {
        let color = Color.accent
        let c = Point(x: frame.width / 2, y: isStart ? frame.height / 2 - 2 : frame.height / 2 + 2)
        context.fillCircle(center: c, radius: 6, color: color)
        context.fill(Rect(x: frame.width / 2 - 1, y: isStart ? c.y : 0, width: 2, height: isStart ? frame.height - c.y : c.y), color: color)
    }
}

extension TextInputView: EssentialPartsReporter {
    /// The field's edge: its border, or else its fill, shows where to type.
    package var essentialParts: [EssentialPart] {
        let bounds = Rect(origin: .zero, size: frame.size)
        if let borderColor, borderWidth > 0 { return [EssentialPart("border", rect: bounds, color: borderColor)] }
        return fill.map { [EssentialPart("box", rect: bounds, color: $0)] } ?? []
    }
}
