import Geometry
import AppContract
import Scrolling
@_spi(Hooks) import ViewCore

/// Keyboard focus and keys: Tab and arrows move focus in tree order, and through
/// a lazy list's rows that are built on demand; Enter taps the focused view; paging keys scroll
/// the scroll view holding focus, else the one last touched.
package final class FocusNavigator {
    /// The app's tree, in whose order focus moves.
    package let root: View
    /// The window's timers: a held key repeats on them.
    package let timers: LoopScheduler
    /// A held physical key repeats after `keyRepeatDelay` seconds, `keyRepeatRate` times a
    /// second (0: never).
    package var keyRepeatDelay = 0.5
    package var keyRepeatRate = 25.0
    /// Told when focus is set (`changed`: to another view): the window redraws the ring and
    /// the keyboard comes or goes.
    package var onFocus: ((_ view: View?, _ changed: Bool) -> Void)?
    /// A key the screen reader takes first (its keypad); true when it took it.
    package var screenReaderKey: ((Key, Double) -> Bool)?
    /// Escape with nothing focused: back one screen.
    package var onBack: (() -> Void)?
    /// Escape, before anything else: true when it closed something (a modal view).
    package var onEscape: (() -> Bool)?
    /// While a modal view shows, focus moves only among its views.
    package var scope: View?
    package private(set) var focused: View?
    private var shiftDown = false
    private var controlDown = false
    /// A physical key held on a text field, the text it typed, and the timer repeating it.
    private var held: (key: Key, text: String?, timer: LoopTimer)?

    package init(root: View, timers: LoopScheduler) {
        self.root = root
        self.timers = timers
    }

    /// Forgets a focused view that left the window (a released lazy row, a removed view), or,
    /// when a data change rebuilt it, moves focus to the view with its id in the new tree.
    package func dropIfGone() {
        guard let f = focused, f.host == nil || f.host !== root.host else { return }
        focused = f.id.flatMap { (scope ?? root).view(withID: $0) }
    }

    /// Focusable views in tree order (built rows only: a lazy list extends it on demand).
    package func focusOrder() -> [View] {
        var out: [View] = []
        func walk(_ v: View) {
            guard !v.isHidden else { return }
            if v.isFocusable { out.append(v) }
            for c in v.children { walk(c) }
        }
        walk(scope ?? root)
        return out
    }

    /// Moves focus to `view` (nil clears it) and scrolls every enclosing scroll view the
    /// minimal amount to show it.
    package func focus(_ view: View?) {
        let changed = focused !== view
        focused = view
        onFocus?(view, changed)
        guard let view else { return }
        view.revealInEnclosingContainers()
    }

    package func moveFocus(by step: Int) {
        dropIfGone()
        // Inside lazy content, the next row is built if it is not.
        if let f = focused, let lazy = f.ancestors.lazy.compactMap({ $0 as? LazyContent }).first,
            let next = lazy.focusableItem(after: f, step: step)
        {
            focus(next)
            return
        }
        let order = focusOrder()
        guard !order.isEmpty else { return }
        let index = order.firstIndex { $0 === focused }
        let next: Int
        if let index { next = (index + step + order.count) % order.count } else { next = step > 0 ? 0 : order.count - 1 }
        focus(order[next])
    }

    /// The scroll view that keys act on: the one holding focus, else the last touched, else the
    /// first that scrolls vertically.
    /// Typed text goes to the focused field; with none, it is dropped (a scanner read while
    /// no field waits for it must not land anywhere by chance).
    package func type(_ text: String) {
        guard let field = focusedField else { return }
        if held != nil, held?.text == nil { held?.text = text }
        field.insertText(text)
    }

    /// The held key again (its text, or its action: delete, an arrow), and again after
    /// 1/`keyRepeatRate` s until it is released or focus moves.
    private func repeatHeldKey() {
        guard let h = held, let field = focusedField else { held = nil; return }
        if let text = h.text { field.insertText(text) } else { _ = field.handleKey(h.key, shift: shiftDown, control: controlDown) }
        held?.timer = timers.after(1 / max(1, keyRepeatRate)) { [weak self] in self?.repeatHeldKey() }
    }

    /// Where paging keys go: the scroll view holding focus, else the one a finger, wheel or
    /// touchpad moved last (if it is still on screen), else the first vertical one.
    package func keyTarget(among scrollViews: [ScrollingContainer], lastScrolled: GestureParticipant?) -> ScrollingContainer? {
        if let f = focused, f.host === root.host, let sv = f.enclosingScrollingContainer { return sv }
        if let k = lastScrolled, let sv = scrollViews.first(where: { $0 === k }) { return sv }
        return scrollViews.first { $0.gestureAxes.contains(.vertical) && $0.canScroll }
            ?? scrollViews.first { $0.gestureAxes.contains(.vertical) } ?? scrollViews.first
    }

    /// The focused view when it takes text and is still in this window.
    private var focusedField: TextInputClient? {
        guard let field = focused as? TextInputClient, field.host === root.host else { return nil }
        return field
    }

    /// A key pressed or released at `t`; paging keys go to `keyTarget(among:lastScrolled:)`.
    package func key(_ key: Key, pressed: Bool, time t: Double, scrollViews: [ScrollingContainer], lastScrolled: GestureParticipant?) {
        if key == .leftShift || key == .rightShift { shiftDown = pressed; return }
        if key == .leftControl || key == .rightControl { controlDown = pressed; return }
        if held?.key == key || pressed { held?.timer.cancel(); held = nil }
        guard pressed else { return }
        if screenReaderKey?(key, t) == true { return }
        if let field = focusedField {
            if keyRepeatRate > 0, keyRepeatDelay.isFinite, key != .escape, key != .enter, key != .tab {
                held = (key, nil, timers.after(max(0.05, keyRepeatDelay)) { [weak self] in self?.repeatHeldKey() })
            }
            if field.handleKey(key, shift: shiftDown, control: controlDown) { return }
        }
        if let responder = focused as? KeyResponder, responder.host === root.host, responder.handleKey(key) { return }
        let target = keyTarget(among: scrollViews, lastScrolled: lastScrolled)
        func run(_ c: ScrollCommand) { target?.perform(c, at: t) }
        switch key {
        case .tab: moveFocus(by: shiftDown ? -1 : 1)
        case .escape:
            if onEscape?() == true { return }
            if focused != nil { focus(nil) } else { onBack?() }
        case .enter: if let f = focused { TouchRouter.deliverTap(from: f) }
        case .up: if focused != nil { moveFocus(by: -1) } else { run(.lineUp) }
        case .down: if focused != nil { moveFocus(by: 1) } else { run(.lineDown) }
        case .left: if focused != nil { moveFocus(by: -1) } else { run(.lineLeft) }
        case .right: if focused != nil { moveFocus(by: 1) } else { run(.lineRight) }
        case .pageUp: run(.pageUp)
        case .pageDown: run(.pageDown)
        case .space: run(shiftDown ? .pageUp : .pageDown)
        case .home: run(.home)
        case .end: run(.end)
        default: break
        }
    }
}
