@_spi(Hooks) import ViewCore
import Gestures
@_spi(Hooks) import Widgets
import Localization
import Geometry
import Raster
import AppContract
import Text
import TextEditing

/// The on-screen keyboard Glide draws: a layout's pages of keys, shift and caps lock
/// (a double tap on shift), a preview of the character key under the finger, repeat on hold
/// for delete and space, and the return key labelled by the field's action. Character keys type
/// when the finger lifts (sliding to the next key changes the key); a second finger typing
/// before the first lifts types the first at once, as fast two-thumb typing needs.
package final class OnScreenKeyboard: View, TouchTarget {
    package enum Shift: Equatable { case off, once, locked }

    package private(set) var layout: KeyboardLayout
    package private(set) var page = 0
    package private(set) var shift = Shift.off { didSet { if shift != oldValue { setNeedsDisplay() } } }
    package private(set) var katakana = false
    /// Called with each key's action (the host applies it to the focused field).
    var onKey: ((KeyboardKey.Action, _ typed: String?) -> Void)?
    /// Room above the keys for the pressed-key preview: part of the view, so the window redraws
    /// it like any overlay, but it takes no touches.
    package var previewMargin = 0.0
    private var frames: [[Rect]] = []
    private var lastShiftTap = -Double.infinity

    private struct Touch {
        var point: Point
        var key: (row: Int, column: Int)?
        var repeatTimer: LoopTimer?
    }
    private var touches: [Touch] = []

    static let repeatDelay = 0.5, repeatInterval = 0.1

    init(layout: KeyboardLayout) {
        self.layout = layout
        super.init(id: "keyboard")
    }

    func setLayout(_ l: KeyboardLayout) {
        guard l != layout else { return }
        layout = l
        page = 0
        shift = .off
        katakana = false
        layoutChildren()
        setNeedsDisplay()
    }

    /// The keys' area in local points (below the preview margin).
    package var keysRect: Rect { Rect(x: 0, y: previewMargin, width: frame.width, height: max(0, frame.height - previewMargin)) }

    var gap: Double { layout.isPad ? 6 : 5 }

    override public func layoutChildren() {
        let r = keysRect
        frames = layout.keyFrames(page: page, width: r.width, height: r.height, gap: gap).map { row in
            row.map { Rect(x: $0.x, y: r.minY + $0.y, width: $0.width, height: $0.height) }
        }
    }

    var rows: [[KeyboardKey]] { layout.pages[min(page, layout.pages.count - 1)] }

    /// The key at a place on the current page; nil when a finger held since another page
    /// (or layout) points past it.
    func keyboardKey(_ k: (row: Int, column: Int)?) -> KeyboardKey? {
        guard let k, k.row >= 0, k.row < rows.count, k.column >= 0, k.column < rows[k.row].count else { return nil }
        return rows[k.row][k.column]
    }

    /// A key's label as shown now: shifted letters upper-case, kana as katakana.
    func shownLabel(_ key: KeyboardKey) -> String {
        guard key.isCharacter else { return key.label }
        if katakana { return Kana.katakana(key.label) }
        return shift == .off ? key.label : key.label.uppercased()
    }

    /// Every key on the current page with its label and frame in local points (for the state JSON).
    package var visibleKeys: [(label: String, frame: Rect)] {
        var out: [(String, Rect)] = []
        for (r, row) in rows.enumerated() where r < frames.count {
            for (c, key) in row.enumerated() where c < frames[r].count { out.append((shownLabel(key), frames[r][c])) }
        }
        return out
    }

    private func key(at p: Point) -> (row: Int, column: Int)? {
        for (r, row) in frames.enumerated() {
            guard let first = row.first, p.y >= first.minY - gap / 2, p.y < first.maxY + gap / 2 else { continue }
            // The nearest key in the row: the gaps belong to a key too.
            var best: (Int, Double)?
            for (c, f) in row.enumerated() {
                let d = p.x < f.minX ? f.minX - p.x : (p.x > f.maxX ? p.x - f.maxX : 0)
                if best == nil || d < best!.1 { best = (c, d) }
            }
            if let best, best.1 <= gap { return (r, best.0) }
        }
        return nil
    }

    @_spi(Hooks) override public func hitTest(_ p: Point) -> View? {
        guard !isHidden, p.x >= 0, p.x < frame.width, p.y >= previewMargin, p.y < frame.height else { return nil }
        return self
    }

    // MARK: Touches

    package func touchBegan(at point: Point, time t: Double) {
        // Rollover: a finger lands while another is on a character key: that key types now.
        for i in touches.indices { commit(&touches[i]) }
        var touch = Touch(point: point, key: key(at: localPoint(fromWindow: point)))
        if let key = keyboardKey(touch.key), !key.isCharacter {
            if key.action != .returnKey && key.action != .dismiss { perform(key, time: t) }
            if key.repeats { touch.repeatTimer = startRepeat(key) }
            // The finger that turned the page has done its work: whatever key lies under it on
            // the new page (a comma where "ABC" was) must not type when it lifts.
            if case .page = key.action { touch.key = nil }
        }
        touches.append(touch)
        setNeedsDisplay()
    }

    package func touchMoved(to point: Point, time t: Double) -> TouchDisposition {
        guard let i = nearestTouch(to: point) else { return .claimed }
        touches[i].point = point
        // Only a character key follows the finger: a held delete keeps deleting.
        if let k = touches[i].key, keyboardKey(k)?.isCharacter == true, let now = key(at: localPoint(fromWindow: point)),
            keyboardKey(now)?.isCharacter == true, now != k
        {
            touches[i].key = now
            setNeedsDisplay()
        }
        return .claimed
    }

    package func touchEnded(at point: Point, time t: Double, cancelled: Bool) {
        guard let i = nearestTouch(to: point) else { return }
        var touch = touches.remove(at: i)
        touch.repeatTimer?.cancel()
        if !cancelled {
            commit(&touch)
            if let key = keyboardKey(touch.key), [.returnKey, .dismiss].contains(key.action) { perform(key, time: t) }
        }
        setNeedsDisplay()
    }

    private func nearestTouch(to p: Point) -> Int? {
        touches.indices.min { (touches[$0].point - p).length < (touches[$1].point - p).length }
    }

    /// Types a touch's character key once, and forgets it.
    private func commit(_ touch: inout Touch) {
        guard let key = keyboardKey(touch.key) else { return }
        touch.key = key.isCharacter ? nil : touch.key
        guard key.isCharacter else { return }
        onKey?(key.action, shownLabel(key) == key.label ? typedText(key) : shownLabel(key))
        if shift == .once { shift = .off }
    }

    private func typedText(_ key: KeyboardKey) -> String? {
        if case let .text(s) = key.action { return s }
        return nil
    }

    private func startRepeat(_ key: KeyboardKey) -> LoopTimer? {
        guard let window else { return nil }
        return window.timers.after(Self.repeatDelay) { [weak self, weak window] in
            guard let self, let window else { return }
            self.repeatKey(key, window: window)
        }
    }

    private func repeatKey(_ key: KeyboardKey, window: TextInputHost) {
        guard let i = touches.firstIndex(where: { self.keyboardKey($0.key) == key }) else { return }
        perform(key, time: window.time)
        touches[i].repeatTimer = window.timers.after(Self.repeatInterval) { [weak self, weak window] in
            guard let self, let window else { return }
            self.repeatKey(key, window: window)
        }
    }

    private func perform(_ key: KeyboardKey, time t: Double) {
        switch key.action {
        case .shift:
            if shift == .locked {
                shift = .off
            } else if shift == .once && t - lastShiftTap < environment.gestures.doubleTapInterval {
                shift = .locked
            } else {
                shift = shift == .off ? .once : .off
            }
            lastShiftTap = t
        case .katakana:
            katakana.toggle()
            setNeedsDisplay()
        case let .page(p):
            page = max(0, min(p, layout.pages.count - 1))
            shift = .off
            layoutChildren()
            setNeedsDisplay()
        default:
            onKey?(key.action, nil)
        }
    }

    // MARK: Drawing

    override public func draw(in context: inout DrawContext) {
        context.fill(keysRect, color: Color.keyboardBackground)
        let pressed = Set(touches.compactMap { $0.key.map { $0.row * 1000 + $0.column } })
        var preview: (KeyboardKey, Rect)?
        for (r, row) in rows.enumerated() where r < frames.count {
            for (c, key) in row.enumerated() where c < frames[r].count {
                let f = frames[r][c]
                let isPressed = pressed.contains(r * 1000 + c)
                let special = !key.isCharacter && key.action != .space
                var fill = special ? Color.specialKeyFill : Color.keyFill
                if key.action == .shift && shift != .off { fill = Color.keyFill }
                if isPressed { fill = special ? Color.keyFill : Color.pressedKeyFill }
                context.fill(f.offsetBy(dx: 0, dy: 1), cornerRadius: context.theme.cornerRadii.key, color: Color.keyShadow)
                context.fill(f, cornerRadius: context.theme.cornerRadii.key, color: fill)
                var label = shownLabel(key)
                if key.action == .shift && shift == .locked { label = "⇪" }
                drawLabel(label, in: f, size: labelSize(for: label, in: f), context: &context)
                if isPressed && key.isCharacter && !layout.isPad { preview = (key, f) }
            }
        }
        if let (key, f) = preview { drawPreview(key, over: f, context: &context) }
    }

    private func labelSize(for label: String, in f: Rect) -> Double {
        let base = min(f.height * 0.45, 26)
        return label.count > 2 ? min(base, 16) : base
    }

    private func drawLabel(_ label: String, in f: Rect, size: Double, context: inout DrawContext) {
        guard let font = context.typography.usableFont(pixelSize: size * context.scale) else { return }
        let l = TextLayout(text: label, font: font, maxWidth: f.width * context.scale, alignment: .center, maxLines: 1)
        let y = f.minY + (f.height - l.size.height / context.scale) / 2
        context.draw(l, at: Point(x: f.minX, y: y), color: Color.keyLabel)
    }

    /// The pressed character key, enlarged above the finger.
    private func drawPreview(_ key: KeyboardKey, over f: Rect, context: inout DrawContext) {
        let w = f.width * 1.5, h = min(f.height * 1.2, previewMargin + f.minY)
        let r = Rect(x: max(0, min(frame.width - w, f.midX - w / 2)), y: f.minY - h - 4, width: w, height: h)
        context.fill(r.offsetBy(dx: 0, dy: 1), cornerRadius: context.theme.cornerRadii.menu, color: Color.keyShadow)
        context.fill(r, cornerRadius: context.theme.cornerRadii.menu, color: Color.keyFill)
        drawLabel(shownLabel(key), in: r, size: min(h * 0.6, 40), context: &context)
    }
}
