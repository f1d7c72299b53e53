@_spi(Hooks) import ViewCore
import Geometry
import Physics
import Raster
import Text
import Widgets
import Localization

/// A button of an alert or a confirmation dialog: its title, its role, and what it does.
/// Any button closes the alert after its action.
public struct AlertButton {
    /// The words on the button, as given (a catalog key, for a button made with a literal).
    public var title: String {
        get { titleKey.key }
        set { titleKey = LocalizedStringKey(verbatim: newValue) }
    }
    /// The title as given: a catalog key, or the words as they are.
    package var titleKey: LocalizedStringKey
    /// `.cancel` is the button Esc presses; `.destructive` draws it red.
    public var role: ButtonRole?
    /// Run when the button is pressed, before the alert closes.
    public var action: () -> Void

    /// A button titled `title` with `role`, that runs `action` (nothing by default). A `String`
    /// is shown as it is; a string literal is a catalog key (see `Label`).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, role: ButtonRole? = nil, action: @escaping () -> Void = {}) {
        self.init(LocalizedStringKey(verbatim: String(title)), role: role, action: action)
    }

    /// A button titled with `key`, looked up in the window's string catalog.
    public init(_ key: LocalizedStringKey, role: ButtonRole? = nil, action: @escaping () -> Void = {}) {
        titleKey = key
        self.role = role
        self.action = action
    }
}

/// What alerts, dialogs and sheets share: they fill the screen, dim what is behind them as
/// they come and go, and tell their presenter when they have closed.
class ModalView: View, ModalContent, AnimatedView {
    /// 0 (gone) to 1 (shown), as last sampled.
    private(set) var progress = 0.0
    /// The motion under way: a spring towards 1 (coming) or 0 (going), and when it started.
    private var motion: (spring: SpringSimulation, start: Double)?
    /// Run once it has gone from the screen (its binding is set back to false).
    var onClosed: (() -> Void)?
    /// The view whose `alert`, `confirmationDialog` or `sheet` showed it.
    weak var presenter: View?
    private var hasPresenter = false
    private(set) var isClosing = false

    static let spring = SpringDescription(mass: 1, stiffness: 300, dampingRatio: 1)

    var modalKind: String { "alert" }
    var modalTitle: String? { nil }

    func cancel() { close() }

    var isOrphaned: Bool { hasPresenter && !isClosing && presenter?.host !== host }

    func presented(by view: View) {
        presenter = view
        hasPresenter = true
        drawsInTheme { [weak self] in self?.presenter }
    }

    /// Shown at `t`: it springs in.
    func begin(at t: Double) { animate(to: 1, velocity: 0, at: t) }

    /// Springs towards `target` from where it is now.
    func animate(to target: Double, velocity: Double, at t: Double) {
        motion = (SpringSimulation(spring: Self.spring, position: progress, velocity: velocity, target: target), t)
        setNeedsDisplay()
    }

    /// Goes away (animated) and then leaves the window.
    func close() {
        guard !isClosing else { return }
        isClosing = true
        animate(to: 0, velocity: 0, at: host?.currentTime ?? 0)
    }

    /// Where the progress is held directly (a finger drags a sheet).
    func hold(at value: Double) {
        motion = nil
        progress = value
        progressChanged()
        setNeedsDisplay()
    }

    func sample(at t: Double) {
        guard let m = motion else { return }
        let dt = max(0, t - m.start)
        progress = m.spring.isDone(at: dt) ? m.spring.target : m.spring.position(at: dt)
        progressChanged()
        setNeedsDisplay()
        guard m.spring.isDone(at: dt) else { return }
        motion = nil
        if m.spring.target == 0 {
            isClosing = true
            let closed = onClosed
            onClosed = nil
            host?.dismiss(self)
            closed?()
        }
    }

    func isAnimating(at t: Double) -> Bool { motion != nil }

    /// The progress moved: subclasses move their card.
    func progressChanged() {}

    /// The cards it shows (local points): a tap outside them, on the dimmed screen, cancels a
    /// dialog or a sheet.
    var cards: [View] { [] }

    /// Cancels on a tap outside the cards (a dialog, a sheet; not an alert, which asks).
    func cancelOnOutsideTap() {
        onTap = { [unowned self] in
            guard let p = touchPoint.map(localPoint(fromWindow:)), !cards.contains(where: { $0.frame.contains(p) }) else { return }
            cancel()
        }
    }

    /// The dimmed screen shows no pressed shade.
    override func drawPressed(in context: inout DrawContext) {}

    override func draw(in context: inout DrawContext) {
        context.fill(Rect(origin: .zero, size: frame.size), color: Color.shadow.withOpacity(0.4 * max(0, min(1, progress))))
    }
}

/// An alert (centred, buttons side by side when two fit) or a confirmation dialog (at the
/// bottom, one button per row, the cancel button apart).
final class AlertView: ModalView {
    let card = Box(fill: .surface).cornered(\.sheet)
    let cancelCard = Box(fill: .surface).cornered(\.sheet)
    let isDialog: Bool
    private let buttons: [AlertButton]
    private var buttonViews: [Button] = []
    private let column: Stack
    private let row: Stack
    private let titleLabel: Label

    init(id: String?, title: LocalizedStringKey, message: LocalizedStringKey?, buttons: [AlertButton], dialog: Bool) {
        isDialog = dialog
        self.buttons = buttons.isEmpty ? [AlertButton(LocalizedStringKey("OK"), role: .cancel)] : buttons
        column = Stack(.vertical, spacing: 8, padding: EdgeInsets(20), alignment: .fill)
        row = Stack(.horizontal, spacing: 8)
        titleLabel = Label(title, alignment: .center).font(.headline).bold()
        super.init(id: id)
        column.add(titleLabel)
        if let message { column.add(Label(message, color: .messageText, alignment: .center).font(.subheadline)) }
        card.add(column)
        add(card)
        for (i, b) in self.buttons.enumerated() {
            let style: ButtonStyle = b.role == .cancel ? .bordered : (i == self.buttons.count - 1 && !dialog ? .prominent : .bordered)
            let view = Button(b.titleKey, id: id.map { "\($0).button-\(i)" }, role: b.role, style: style) { [weak self] in self?.press(i) }
            buttonViews.append(view)
        }
        arrangeButtons()
    }

    override var modalKind: String { isDialog ? "dialog" : "alert" }
    override var cards: [View] { [card, cancelCard] }
    override var modalTitle: String? { titleLabel.text }

    /// Two buttons of an alert sit side by side; a dialog's cancel button sits apart.
    private func arrangeButtons() {
        if isDialog {
            for (i, view) in buttonViews.enumerated() where buttons[i].role != .cancel { column.add(view) }
            if let c = buttons.firstIndex(where: { $0.role == .cancel }) {
                cancelCard.add(Stack(.vertical, padding: EdgeInsets(8), children: [buttonViews[c]]))
                add(cancelCard)
            }
        } else {
            for view in buttonViews {
                view.maxWidth = .infinity
                column.add(view)
            }
        }
    }

    /// Two buttons of an alert sit side by side when both titles fit there on one line, else
    /// one above the other (large text, long words): a title is never broken inside a word.
    private func placeButtonsOfAlert(width: Double) {
        guard !isDialog, buttonViews.count == 2 else { return }
        let half = (width - column.padding.horizontal - row.spacing) / 2
        let sideBySide = buttonViews.allSatisfy { $0.sizeThatFits(Size(width: .infinity, height: .infinity)).width <= half }
        guard sideBySide != (row.parent != nil) else { return }
        if sideBySide {
            for view in buttonViews { view.removeFromParent() }
            row.setChildren(buttonViews)
            column.add(row)
        } else {
            row.removeFromParent()
            row.setChildren([])
            for view in buttonViews { column.add(view) }
        }
    }

    private func press(_ i: Int) {
        guard !isClosing else { return }
        buttons[i].action()
        close()
    }

    /// The cancel button's action, or the only button's; an alert of several buttons and no
    /// cancel button stays.
    override func cancel() {
        if let c = buttons.firstIndex(where: { $0.role == .cancel }) {
            press(c)
        } else if buttons.count == 1 {
            press(0)
        }
    }

    override func layoutChildren() {
        // Wider with larger text, as far as the screen allows.
        let width = min((isDialog ? 560 : 320) * max(1, host?.textScale ?? 1), frame.width - 32)
        placeButtonsOfAlert(width: width)
        // A box does not size itself to what it holds: its stacks do.
        func height(of box: Box) -> Double {
            box.parent == nil ? 0 : box.children.first?.sizeThatFits(Size(width: width, height: .infinity)).height ?? 0
        }
        let h = height(of: card)
        if isDialog {
            let ch = height(of: cancelCard)
            let bottom = frame.height - 16
            cancelCard.frame = Rect(x: (frame.width - width) / 2, y: bottom - ch, width: width, height: ch)
            card.frame = Rect(x: (frame.width - width) / 2, y: bottom - ch - (ch > 0 ? 8 : 0) - h, width: width, height: h)
            cancelCard.layoutChildren()
        } else {
            card.frame = Rect(x: (frame.width - width) / 2, y: (frame.height - h) / 2, width: width, height: h)
        }
        card.layoutChildren()
        progressChanged()
    }

    /// A dialog rises from below as it comes; an alert stays in place while the screen dims.
    /// The rise is measured from where the cards rest, never from where they were last drawn,
    /// so a frame drawn twice at one time is the same frame.
    override func progressChanged() {
        guard isDialog else { return }
        let bottom = frame.height - 16
        let ch = cancelCard.frame.height
        let restingTop = bottom - ch - (ch > 0 ? 8 : 0) - card.frame.height
        let rise = (1 - progress) * (frame.height - restingTop)
        cancelCard.frame.origin.y = bottom - ch + rise
        card.frame.origin.y = restingTop + rise
    }
}

/// A sheet: the app's content in a panel that slides up from the bottom over a dimmed screen,
/// closed by a drag down on its grabber (the spring finishes the motion), by Esc, or by a tap on
/// the dimmed screen.
final class SheetView: ModalView, TouchTarget {
    let panel = Box(fill: .surface).cornered(\.sheet)
    let content: View
    private var drag: (startY: Double, startProgress: Double, tracker: VelocityTracker, dragging: Bool)?

    init(id: String?, content: View) {
        self.content = content
        super.init(id: id)
        panel.add(content)
        panel.padding = EdgeInsets(top: 24, leading: 0, bottom: 20, trailing: 0)
        add(panel)
        cancelOnOutsideTap()
    }

    override var modalKind: String { "sheet" }
    override var cards: [View] { [panel] }
    override var modalTitle: String? { nil }

    private var panelHeight: Double {
        let fitted = content.sizeThatFits(Size(width: frame.width, height: .infinity)).height + 24
        return min(frame.height * 0.9, max(160, fitted.isFinite ? fitted : frame.height * 0.9))
    }

    override func layoutChildren() {
        let h = panelHeight
        // The panel reaches past the bottom edge so its lower corners never show.
        panel.frame = Rect(x: 0, y: frame.height - h, width: frame.width, height: h + 20)
        panel.layoutChildren()
        progressChanged()
    }

    override func progressChanged() {
        let h = panel.frame.height - 20
        panel.frame.origin.y = frame.height - h * progress
    }

    /// The grabber, over the panel's top.
    override func drawOverlay(in context: inout DrawContext) {
        let p = panel.frame
        context.fill(Rect(x: p.midX - 18, y: p.minY + 8, width: 36, height: 5), cornerRadius: 2.5, color: .grabber)
    }

    // MARK: Dragging it down (window points)

    /// The grabber's strip at the panel's top takes a drag; the content keeps its own touches.
    package func wantsTouch(at point: Point) -> Bool {
        let local = localPoint(fromWindow: point)
        return !isClosing && local.y >= panel.frame.minY && local.y < panel.frame.minY + 32
    }

    package func touchBegan(at p: Point, time t: Double) {
        var tracker = VelocityTracker()
        tracker.add(time: t, position: p.y)
        drag = (p.y, progress, tracker, false)
    }

    package func touchMoved(to p: Point, time t: Double) -> TouchDisposition {
        guard var d = drag else { return .released }
        d.tracker.add(time: t, position: p.y)
        if !d.dragging, abs(p.y - d.startY) > environment.gestures.touchSlop { d.dragging = true }
        drag = d
        guard d.dragging else { return .undecided }
        let h = max(1, panel.frame.height - 20)
        hold(at: max(0, min(1, d.startProgress - (p.y - d.startY) / h)))
        return .claimed
    }

    package func touchEnded(at p: Point, time t: Double, cancelled: Bool) {
        defer { drag = nil }
        guard let d = drag, d.dragging else { return }
        let h = max(1, panel.frame.height - 20)
        let velocity = d.tracker.velocity(releaseTime: t)
        // Let go past a third of the way down, or flung down: it closes; else it springs back.
        let closes = progress < 0.67 || velocity > 600
        if closes {
            close()
            animate(to: 0, velocity: -velocity / h, at: t)
        } else {
            animate(to: 1, velocity: -velocity / h, at: t)
        }
    }
}

/// Keeps one modal view on screen while its binding is true.
final class ModalPresenter {
    var shown: ModalView?
    let make: () -> ModalView

    init(make: @escaping () -> ModalView) { self.make = make }

    func update(_ view: View, want: Bool, binding: Binding<Bool>) {
        if want, shown == nil, let host = view.host {
            let modal = make()
            modal.onClosed = { [weak self] in
                self?.shown = nil
                if binding.wrappedValue { binding.wrappedValue = false }
            }
            shown = modal
            modal.presented(by: view)
            host.present(modal)
            modal.begin(at: host.currentTime)
        } else if !want, let modal = shown {
            modal.close()
        }
    }
}

extension View {
    /// Shows an alert while `isPresented` is true: a title, a message and buttons (OK alone when
    /// `buttons` is empty) over the dimmed screen, modal until a button closes it (and sets
    /// `isPresented` back to false). Esc presses the `.cancel` button, or the only one. Keep
    /// `isPresented` in an `@Observable` model, so setting it shows the alert.
    @discardableResult
    @_disfavoredOverload
    public func alert<S: StringProtocol>(
        _ title: S, id: String? = nil, isPresented: Binding<Bool>, message: S? = nil, buttons: [AlertButton] = []
    ) -> Self {
        alert(verbatim(title), id: id, isPresented: isPresented, message: message.map(verbatim), buttons: buttons)
    }

    /// An alert whose title and message are keys, looked up in the window's string catalog.
    @discardableResult
    public func alert(
        _ title: LocalizedStringKey, id: String? = nil, isPresented: Binding<Bool>, message: LocalizedStringKey? = nil,
        buttons: [AlertButton] = []
    ) -> Self {
        presentModal(isPresented) { AlertView(id: id, title: title, message: message, buttons: buttons, dialog: false) }
    }

    /// Shows a confirmation dialog while `isPresented` is true: its choices rise from the bottom of
    /// the dimmed screen, one per row, the `.cancel` button apart. A tap outside or Esc cancels.
    @discardableResult
    @_disfavoredOverload
    public func confirmationDialog<S: StringProtocol>(
        _ title: S, id: String? = nil, isPresented: Binding<Bool>, message: S? = nil, buttons: [AlertButton]
    ) -> Self {
        confirmationDialog(verbatim(title), id: id, isPresented: isPresented, message: message.map(verbatim), buttons: buttons)
    }

    /// A confirmation dialog whose title and message are keys, looked up in the string catalog.
    @discardableResult
    public func confirmationDialog(
        _ title: LocalizedStringKey, id: String? = nil, isPresented: Binding<Bool>, message: LocalizedStringKey? = nil,
        buttons: [AlertButton]
    ) -> Self {
        presentModal(isPresented) {
            let dialog = AlertView(id: id, title: title, message: message, buttons: buttons, dialog: true)
            dialog.cancelOnOutsideTap()
            return dialog
        }
    }

    /// Shows `content` in a sheet while `isPresented` is true: it slides up from the bottom over
    /// the dimmed screen, as tall as its content (at most 90 % of the screen), and closes on a
    /// drag down on its grabber, on Esc, or on a tap on the dimmed screen, setting `isPresented`
    /// back to false. `content` is built each time it is shown.
    @discardableResult
    public func sheet(id: String? = nil, isPresented: Binding<Bool>, content: @escaping () -> View) -> Self {
        presentModal(isPresented) { SheetView(id: id, content: content()) }
    }

    private func verbatim<S: StringProtocol>(_ text: S) -> LocalizedStringKey { LocalizedStringKey(verbatim: String(text)) }

    private func presentModal(_ isPresented: Binding<Bool>, make: @escaping () -> ModalView) -> Self {
        let presenter = ModalPresenter(make: make)
        addFollower(needsWindow: true) { view in presenter.update(view, want: isPresented.wrappedValue, binding: isPresented) }
        return self
    }
}
