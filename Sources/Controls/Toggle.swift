@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Text
import Widgets
import Localization

/// A switch with a title before it: a tap anywhere on the row flips it, and its knob can be
/// dragged across and let go on either side. Enter and the screen reader's double tap flip it
/// too. It shows the value of its binding and follows it when the model changes elsewhere.
///
/// ```swift
/// Toggle("Takeaway", id: "takeaway", isOn: Binding(order, \.takeaway))
/// ```
public final class Toggle: Control, TouchTarget, AnimatedView {
    /// The words before the switch (and what the screen reader says).
    public var title: String {
        get { titleLabel.text }
        set { titleLabel.text = newValue }
    }
    /// Whether the switch shows on: its binding's value as last read or set.
    public private(set) var isOn: Bool

    private let binding: Binding<Bool>
    private let titleLabel: Label
    /// Where the knob is, 0 (off) to 1 (on), while it slides: from, to, and when it started.
    private var slide: Slide?
    /// The knob under a finger: where the touch started, the knob's position then, and
    /// whether it has moved sideways past the slop.
    private var touch: (start: Point, knob: Double, dragging: Bool)?
    private var dragKnob: Double?

    static let trackSize = Size(width: 51, height: 31)

    /// A switch titled `title` that shows and sets `isOn`. A `String` is shown as it is; a
    /// string literal is a catalog key (see `Label`).
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(_ title: S, id: String? = nil, isOn: Binding<Bool>) {
        self.init(titleLabel: Label(title), id: id, isOn: isOn)
    }

    /// A switch titled with `key`, looked up in the window's string catalog.
    public convenience init(_ key: LocalizedStringKey, id: String? = nil, isOn: Binding<Bool>) {
        self.init(titleLabel: Label(key), id: id, isOn: isOn)
    }

    private init(titleLabel: Label, id: String?, isOn: Binding<Bool>) {
        binding = isOn
        self.isOn = isOn.wrappedValue
        self.titleLabel = titleLabel
        super.init(id: id)
        add(titleLabel)
        enabledChanged()
        follow(isOn) { [unowned self] value in show(value, animated: true) }
    }

    override func enabledChanged() {
        onTap = isEnabled ? { [unowned self] in set(!isOn) } : nil
        titleLabel.color = titleColor
    }

    package override var controlKind: String { "toggle" }
    package override var controlValue: Double? { isOn ? 1 : 0 }

    /// A person changed it: write the binding, slide the knob.
    private func set(_ value: Bool) {
        show(value, animated: true)
        if binding.wrappedValue != value { binding.wrappedValue = value }
    }

    private func show(_ value: Bool, animated: Bool) {
        guard value != isOn else { return }
        let now = host?.currentTime
        let from = dragKnob ?? knob(at: now ?? 0)
        isOn = value
        slide = animated ? now.map { Slide(from: from, to: value ? 1 : 0, start: $0) } : nil
        setNeedsDisplay()
    }

    /// The knob's place, 0 to 1, at `t`.
    private func knob(at t: Double) -> Double {
        if let dragKnob { return dragKnob }
        return slide?.value(at: t) ?? (isOn ? 1 : 0)
    }

    public func sample(at t: Double) { Slide.sample(&slide, of: self, at: t) }

    public func isAnimating(at t: Double) -> Bool { slide != nil }

    // MARK: Layout and drawing

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? proposal.width
        let track = Self.trackSize
        let textWidth = w.isFinite ? max(0, w - track.width - 12) : .infinity
        let text = titleLabel.sizeThatFits(Size(width: textWidth, height: .infinity))
        let h = max(Self.minimumTarget, text.height + 8, track.height + 8)
        return Size(width: w.isFinite ? w : text.width + 12 + track.width, height: height ?? h)
    }

    public override func layoutChildren() {
        let track = Self.trackSize
        let textWidth = max(0, frame.width - track.width - 12)
        let h = titleLabel.sizeThatFits(Size(width: textWidth, height: .infinity)).height
        titleLabel.frame = Rect(x: 0, y: (frame.height - h) / 2, width: textWidth, height: h)
        titleLabel.layoutChildren()
        mirrorChildrenIfRightToLeft()
    }

    /// The switch's track in local points: at the trailing edge.
    private var trackRect: Rect {
        let s = Self.trackSize
        let x = isRightToLeft ? 0 : frame.width - s.width
        return Rect(x: x, y: (frame.height - s.height) / 2, width: s.width, height: s.height)
    }

    public override func draw(in context: inout DrawContext) {
        let track = trackRect
        let k = knob(at: context.time)
        let on = isEnabled ? Color.switchOn : Color.switchOn.withOpacity(0.45)
        context.fill(track, cornerRadius: track.height / 2, color: .switchOff)
        // Off, the track's edge shows where it is (WCAG 1.4.11); on, the green covers it.
        context.stroke(
            track.insetBy(dx: 0.75, dy: 0.75), cornerRadius: track.height / 2 - 0.75, lineWidth: 1.5, color: offEdge)
        if k > 0 { context.fill(track, cornerRadius: track.height / 2, color: on.withOpacity(k)) }
        if context.isHighContrast { context.stroke(track, cornerRadius: track.height / 2, lineWidth: 2, color: context.borderColor(on)) }
        let radius = track.height / 2 - 2
        // Right to left, on is at the left end: the knob travels the other way.
        let travel = track.width - 2 * (radius + 2)
        let along = isRightToLeft ? 1 - k : k
        let center = Point(x: track.minX + radius + 2 + travel * along, y: track.midY)
        context.fillCircle(center: Point(x: center.x, y: center.y + 1), radius: radius + 0.5, color: Color.shadow.withOpacity(30 / 255))
        context.fillCircle(center: center, radius: radius, color: isEnabled ? .thumb : .disabledThumb)
    }

    private var offEdge: Color { isEnabled ? .fieldBorder : Color.fieldBorder.withOpacity(0.45) }

    // MARK: Touch (window points)

    @_spi(Hooks) override public func hitTest(_ p: Point) -> View? {
        guard !isHidden, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else { return nil }
        return self
    }

    package func wantsTouch(at point: Point) -> Bool { isEnabled }

    package func touchBegan(at p: Point, time t: Double) {
        touch = (p, knob(at: t), false)
        isPressed = true
    }

    /// A sideways move on the knob's track drags it; any other move is the scroll views'.
    package func touchMoved(to p: Point, time t: Double) -> TouchDisposition {
        guard var current = touch else { return .released }
        let d = p - current.start
        let slop = environment.gestures.touchSlop
        if !current.dragging {
            guard d.length > slop else { return .undecided }
            let onTrack = trackRect.insetBy(dx: -12, dy: -8).contains(localPoint(fromWindow: current.start))
            guard onTrack, abs(d.x) > abs(d.y) else { return .released }
            current.dragging = true
            touch = current
        }
        let travel = Self.trackSize.width - Self.trackSize.height
        let delta = d.x / travel * (isRightToLeft ? -1 : 1)
        dragKnob = max(0, min(1, current.knob + delta))
        setNeedsDisplay()
        return .claimed
    }

    package func touchEnded(at p: Point, time t: Double, cancelled: Bool) {
        defer { touch = nil; isPressed = false }
        if let k = dragKnob {
            let from = k
            dragKnob = nil
            // A cancelled drag (the toggle left the tree under the finger) changes nothing.
            let value = cancelled ? isOn : k >= 0.5
            if value != isOn { set(value) }
            slide = Slide(from: from, to: value ? 1 : 0, start: t)
            setNeedsDisplay()
            return
        }
        if !cancelled { set(!isOn) }
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        let strings = environment.strings
        return AccessibilityDescription(
            role: .toggle, label: title, value: spokenValue(strings[isOn ? .on : .off]), combinesChildren: true)
    }
}

extension Toggle: EssentialPartsReporter {
    /// The track in its state's colour: green when on, its grey edge when off.
    package var essentialParts: [EssentialPart] {
        [EssentialPart("track", rect: trackRect, color: isOn ? .switchOn : .fieldBorder)]
    }
}
