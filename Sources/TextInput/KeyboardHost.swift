@_spi(Hooks) import ViewCore
import Gestures
@_spi(Hooks) import Widgets
import Localization
import Geometry
import Raster
import AppContract
import Scrolling
import TextEditing

/// When the window shows its on-screen keyboard.
public enum OnScreenKeyboardMode: String, Hashable, Sendable, CaseIterable {
    /// Whenever a field that can be edited has focus, unless a physical keyboard is present.
    case automatic
    /// Whenever a field that can be edited has focus.
    case always
    /// Never: typing comes from a physical keyboard or a scanner.
    case never
}

/// The window's on-screen keyboard and what it does to the screen: it slides in
/// when a field takes focus and away when focus leaves, as an animation of time; the scroll
/// view holding the field loses the covered part of its viewport (a content inset: the content
/// is not laid out again) and scrolls the field just above the keys, the minimal amount
///; a field in no scroll view that the keys would cover moves up with the whole
/// screen, just enough, and back when the keyboard goes.
package final class KeyboardHost {
    /// The window whose screen the keys slide onto, known only by what the host needs of it.
    package weak var window: KeyboardScreen?
    package private(set) var keyboard: OnScreenKeyboard?
    package let menu = EditMenu()
    package var pasteboard: String?

    /// The field the keyboard types into, while it shows or hides.
    private(set) weak var field: KeyboardField?
    /// The visible share of the keyboard from 0 to 1 at `start`, going to `target`.
    private var from = 0.0, target = 0.0, start = -Double.infinity

    package init() {}
    static let slideDuration = 0.25
    /// The scroll view around the field, which scrolls it above the keys.
    private weak var insetView: View?
    /// Every vertical scroll view the keys cover (the field's and others, as a results list
    /// under a search field): each loses the covered part of its viewport, so its end can be
    /// scrolled above the keys.
    private var coveredViews: [Weak<View>] = []
    /// How far the screen moves up at full keyboard, for a field outside scroll views.
    private var fullPan = 0.0
    package private(set) var pan = 0.0
    /// A field took focus: which views the keys cover, and how far the screen moves, are
    /// decided again at the next frame.
    private var needsPlacement = false

    /// The share of the keyboard on screen at `t`: eased out, like a sheet.
    func shown(at t: Double) -> Double {
        let p = max(0, min(1, (t - start) / Self.slideDuration))
        let eased = 1 - (1 - p) * (1 - p) * (1 - p)
        return from + (target - from) * eased
    }

    package func isAnimating(at t: Double) -> Bool { t < start + Self.slideDuration }

    var isShowing: Bool { target > 0 }

    // MARK: Focus

    package func focusChanged(to view: View?, at t: Double) {
        let next = view as? KeyboardField
        if let old = field, old !== next { old.focusChanged(focused: false) }
        menu.hide()
        next?.focusChanged(focused: true)
        if let next, wantsKeyboard(for: next) {
            field = next
            needsPlacement = true
            configureKeyboard(for: next)
            slide(to: 1, at: t)
            applyAvoidance(at: t, showing: true)
            if let sv = insetView as? ScrollingContainer { sv.reveal(next, animated: true) }
        } else if isShowing || field != nil {
            slide(to: 0, at: t)
        }
    }

    func wantsKeyboard(for field: KeyboardField) -> Bool {
        guard let window, !field.isReadOnly else { return false }
        switch window.onScreenKeyboard {
        case .never: return false
        case .always: return true
        case .automatic: return !window.hasHardwareKeyboard
        }
    }

    /// A keyboard came or went: in the automatic mode the on-screen one goes or comes.
    package func hardwareKeyboardChanged() {
        guard let window, let field = window.focusedView as? KeyboardField else { return }
        if wantsKeyboard(for: field) { focusChanged(to: field, at: window.time) } else { slide(to: 0, at: window.time) }
    }

    package func configurationChanged(for view: KeyboardField) {
        guard view === field, let window, let t = Optional(window.time) else { return }
        if wantsKeyboard(for: view) { configureKeyboard(for: view); layout() } else { slide(to: 0, at: t) }
    }

    private func slide(to value: Double, at t: Double) {
        let now = shown(at: t)
        guard value != target || now != value else { return }
        from = now; target = value; start = t
        window?.scheduleFrame()
    }

    private func configureKeyboard(for field: KeyboardField) {
        guard let window else { return }
        let name = field.keyboardLayout ?? window.keyboardLayout
        let keys =
            KeyboardLayout.named(name, contentType: field.contentType, submit: field.submitLabel)
            ?? KeyboardLayout.named("en", contentType: field.contentType, submit: field.submitLabel)!
        if let keyboard {
            keyboard.setLayout(keys)
        } else {
            let k = OnScreenKeyboard(layout: keys)
            k.isHidden = true
            k.onKey = { [weak self] action, typed in self?.perform(action, typed: typed) }
            window.holder.attach(k, at: window.holder.children.count)
            keyboard = k
        }
        layout()
    }

    // MARK: Geometry

    /// The keys' height in points for this window: a letter key about a fingertip and a half
    /// tall, at most half the screen for all the rows.
    func keysHeight() -> Double {
        guard let window, let keyboard else { return 0 }
        let size = window.sizeInPoints
        let rows = Double(keyboard.rows.count)
        let key = max(36, min(54, size.height * 0.09))
        return min(rows * key + (rows + 1) * keyboard.gap, size.height * 0.5)
    }

    /// Places the keyboard for the share shown at `t` (below the screen when hidden).
    package func layout(at t: Double? = nil) {
        guard let window, let keyboard else { return }
        let size = window.sizeInPoints
        let h = keysHeight()
        let margin = keyboard.layout.isPad ? 0 : h / Double(max(1, keyboard.rows.count)) * 1.3
        let visible = h * shown(at: t ?? window.time)
        let f = Rect(x: 0, y: size.height - visible - margin, width: size.width, height: h + margin)
        keyboard.previewMargin = margin
        if keyboard.frame != f {
            keyboard.setNeedsDisplay()
            keyboard.frame = f
            keyboard.layoutChildren()
            keyboard.setNeedsDisplay()
        }
        keyboard.isHidden = visible <= 0
    }

    /// The window's y of the keys' top when the keyboard is fully shown.
    private func fullTop() -> Double { (window?.sizeInPoints.height ?? 0) - keysHeight() }

    // MARK: Each frame

    /// Moves the keyboard to `t` and keeps the field clear of it. Runs before the window
    /// samples its scroll views, so they see this frame's viewport.
    package func sample(at t: Double) {
        guard keyboard != nil else { return }
        let animating = isAnimating(at: t) || keyboard?.isHidden == (shown(at: t) > 0)
        guard animating || pan != fullPan * shown(at: t) else { return }
        layout(at: t)
        applyAvoidance(at: t, showing: isShowing)
        if !isShowing, shown(at: t) <= 0 { field = nil }
    }

    /// Showing: the inset is the whole keyboard's at once (the scroll to the field runs while
    /// the keys slide in). Hiding: it follows the keys down, so content past the end follows
    /// them and nothing jumps.
    private func applyAvoidance(at t: Double, showing: Bool) {
        guard let window else { return }
        let share = shown(at: t)
        let keysTop = showing ? fullTop() : window.sizeInPoints.height - keysHeight() * share
        if showing, let field, needsPlacement {
            needsPlacement = false
            insetView = nil
            coveredViews = window.scrollViews.filter {
                $0.avoidsKeyboard && $0.frameInWindow.maxY > fullTop()
            }.map { Weak($0 as View) }
            if let sv = avoidingScrollView(for: field) {
                insetView = sv
            } else {
                let bottom = field.frameInWindow.maxY + pan + 8
                fullPan = max(0, min(bottom - fullTop(), window.sizeInPoints.height - keysHeight()))
            }
        }
        for case let sv as ScrollingContainer in coveredViews.compactMap(\.value) {
            sv.keyboardInset = max(0, min(sv.frame.height, sv.frameInWindow.maxY - keysTop))
            if !showing && share <= 0 { sv.keyboardInset = 0 }
        }
        if !showing && share <= 0 { insetView = nil; coveredViews = [] }
        let newPan = fullPan * share
        if newPan != pan {
            pan = newPan
            window.screenPanned()
        }
        if !showing && share <= 0 { fullPan = 0 }
    }

    /// The innermost scroll view around `field` that scrolls vertically without paging.
    private func avoidingScrollView(for field: View) -> ScrollingContainer? {
        field.ancestors.lazy.compactMap { $0 as? ScrollingContainer }.first { $0.avoidsKeyboard }
    }

    // MARK: Keys

    private func perform(_ action: KeyboardKey.Action, typed: String?) {
        guard let field, let window, window.focusedView === field else { return }
        menu.hide()
        switch action {
        case let .text(s): field.insertText(typed ?? s)
        case .space: field.insertText(" ")
        case .backspace: field.deleteBackward()
        case .returnKey: field.submit()
        case .dismiss: window.focus(nil)
        case .dakuten: field.transformCharacterBeforeCaret(Kana.addingDakuten)
        case .handakuten: field.transformCharacterBeforeCaret(Kana.addingHandakuten)
        case .smallKana: field.transformCharacterBeforeCaret(Kana.toggledSmall)
        case .clear: field.clear()
        case .shift, .page, .katakana: break
        }
    }
}

/// What the keyboard host needs of the window: its mode and layout settings, focus, the clock,
/// the screen's size and scroll views, the holder the keys are attached to over the app, and
/// a way to say the whole screen moved.
package protocol KeyboardScreen: TextInputHost {
    /// When the keys show.
    var onScreenKeyboard: OnScreenKeyboardMode { get }
    /// True while a device with letter keys is attached.
    var hasHardwareKeyboard: Bool { get }
    /// The layout fields use unless they name their own.
    var keyboardLayout: String { get }
    /// The scroll views on screen, outer before inner: those the keys cover lose that part.
    var scrollViews: [ScrollingContainer] { get }
    /// The app moved up or down with the keys: it is laid out again and redrawn whole.
    func screenPanned()
}

struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}

/// Cut, copy, paste and select all, over a selection (or a long-pressed empty field).
package final class EditMenu: Stack {
    /// Each item and the built-in word it shows.
    private var titled: [(Label, BuiltInStrings.Word)] = []
    package weak var field: TextInputView?

    init() {
        super.init(.horizontal, spacing: 1, padding: EdgeInsets(1))
        id = "edit-menu"
        fill = Color.menuBackground
        themedCorner = \.menu
        clipsChildren = true
        isHidden = true
        // The menu is the window's, over every layer, but acts on its field: it draws in the
        // theme in force there (the keyboard stays the window's: one for every field).
        drawsInTheme { [weak self] in self?.field }
        let strings = BuiltInStrings(language: "en")
        let items: [(String, BuiltInStrings.Word, (TextInputView) -> Void)] = [
            ("cut", .cut, { $0.cutSelection() }), ("copy", .copy, { $0.copySelection() }),
            ("paste", .paste, { $0.paste() }), ("select-all", .selectAll, { $0.selectAll() }),
        ]
        setChildren(
            items.map { name, word, action in
                let l = Label(strings[word], id: "edit-menu-" + name, color: .menuText, maxLines: 1).font(.subheadline)
                titled.append((l, word))
                l.fill = .menuButton
                l.padding = EdgeInsets(horizontal: 12, vertical: 10)
                l.contentAlignment = .center
                l.onTap = { [weak self] in
                    guard let field = self?.field else { return }
                    action(field)
                    if word != .selectAll { self?.hide() } else { self?.show(for: field) }
                }
                return l
            })
    }

    package func hide() {
        guard !isHidden else { return }
        setNeedsDisplay()
        isHidden = true
        field = nil
    }

    /// Shows the menu above the selection (below it when there is no room), inside the screen.
    package func show(for field: TextInputView) {
        guard let window = field.window else { return }
        // The items speak the window's language.
        let strings = field.environment.strings
        for (label, word) in titled where label.text != strings[word] {
            label.text = strings[word]
            label.width = nil
        }
        if parent == nil { window.holder.attach(self, at: window.holder.children.count) }
        setNeedsDisplay()
        self.field = field
        isHidden = false
        // Each item as wide as its title: a stack would share the width out evenly.
        for item in children where item.width == nil {
            item.width = (item.sizeThatFits(Size(width: .infinity, height: .infinity)).width).rounded(.up)
        }
        let size = sizeThatFits(Size(width: .infinity, height: .infinity))
        let f = field.frameInWindow
        let caret = field.caretRect(at: field.editor.selectionStart)
        let o = field.textOrigin()
        let anchor = Point(x: f.minX + o.x + caret.minX, y: f.minY + o.y + caret.minY)
        let screen = window.sizeInPoints
        var y = anchor.y - size.height - 14
        if y < 0 { y = anchor.y + caret.height + 30 }
        let x = max(4, min(screen.width - size.width - 4, anchor.x - size.width / 2))
        frame = Rect(x: x, y: y, width: size.width, height: size.height)
        layoutChildren()
        setNeedsDisplay()
    }
}
