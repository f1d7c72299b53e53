@_spi(Hooks) import ViewCore
import AppContract
import Geometry
import Raster
import Widgets

/// A slider: a thumb on a track that sets a number in a range, optionally in steps. A finger
/// sets the value where it touches the track and drags it sideways (an upward move scrolls the
/// list around it instead); the arrow keys and the screen reader's swipes move it a step (a
/// twentieth of the range when it has no steps). Right to left, the range runs from the right.
///
/// ```swift
/// Slider("Volume", id: "volume", value: Binding(settings, \.volume), in: 0...100, step: 5)
/// ```
public final class Slider: Control, TouchTarget, KeyResponder {
    /// What the screen reader says the slider sets.
    public var label: String { didSet { setNeedsDisplay() } }
    /// The value shown: its binding's, as last read or set, within the range and on a step.
    public private(set) var value: Double
    /// The values it can take, from the leading end to the trailing end.
    public let range: ClosedRange<Double>
    /// The distance between values it can take; nil: any value in the range.
    public let step: Double?

    private let binding: Binding<Double>
    private var touch: (start: Point, dragging: Bool)?
    /// A value that was not a number was reported (once).
    private var reportedNaN = false

    static let thumbRadius = 14.0

    /// A slider that shows and sets `value` within `range`, in steps of `step` (nil: none).
    /// An empty range (one value) or a step that is not a positive number is reported in the
    /// log; the slider then cannot move, or moves freely.
    public init(
        _ label: String = "", id: String? = nil, value: Binding<Double>, in range: ClosedRange<Double> = 0...1,
        step: Double? = nil
    ) {
        self.label = label
        binding = value
        let finite = range.lowerBound.isFinite && range.upperBound.isFinite
        self.range = finite ? range : 0...1
        self.step = step.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.value = self.range.lowerBound
        super.init(id: id)
        enabledChanged()
        problems = [
            finite ? nil : "has a range that is not finite (\(range)); it uses 0...1",
            range.lowerBound == range.upperBound ? "has an empty range (\(range)): it cannot move" : nil,
            step != nil && self.step == nil ? "has a step that is not a positive number (\(step!)): it moves freely" : nil,
        ].compactMap { $0 }
        follow(value) { [unowned self] v in show(v) }
    }

    override func enabledChanged() {
        accessibility.adjust = isEnabled ? { [unowned self] direction in nudge(by: direction) } : nil
    }

    package override var controlKind: String { "slider" }
    package override var controlValue: Double? { value }

    /// `v` within the range and on a step; NaN reads as the range's start (and is reported).
    private func conformed(_ v: Double) -> Double {
        guard v.isFinite else {
            if !reportedNaN {
                reportedNaN = true
                problems.append("was given \(v); it shows \(range.lowerBound)")
                setNeedsDisplay()
            }
            return range.lowerBound
        }
        var x = min(range.upperBound, max(range.lowerBound, v))
        if let step { x = min(range.upperBound, range.lowerBound + ((x - range.lowerBound) / step).rounded() * step) }
        return x
    }

    private func show(_ v: Double) {
        let x = conformed(v)
        guard x != value else { return }
        value = x
        setNeedsDisplay()
    }

    /// A person moved it: show and write the new value.
    private func set(_ v: Double) {
        show(v)
        if binding.wrappedValue != value { binding.wrappedValue = value }
    }

    private var stepSize: Double { step ?? (range.upperBound - range.lowerBound) / 20 }

    private func nudge(by steps: Int) { set(value + Double(steps) * stepSize) }

    // MARK: Layout and drawing

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? proposal.width
        return Size(width: w.isFinite ? w : 200, height: height ?? Self.minimumTarget)
    }

    /// The track's ends in local points (the thumb's centre reaches them).
    private var trackSpan: (start: Double, end: Double) {
        let r = Self.thumbRadius + 2
        return (padding.leading + r, frame.width - padding.trailing - r)
    }

    /// Where `value` sits along the track, 0 (leading) to 1 (trailing).
    private var fraction: Double {
        let span = range.upperBound - range.lowerBound
        return span > 0 ? (value - range.lowerBound) / span : 0
    }

    public override func draw(in context: inout DrawContext) {
        sayProblems()
        let (a, b) = trackSpan
        guard b > a else { return }
        let y = frame.height / 2
        let f = isRightToLeft ? 1 - fraction : fraction
        let thumbX = a + (b - a) * f
        context.fill(Rect(x: a - 2, y: y - 2, width: b - a + 4, height: 4), cornerRadius: 2, color: Color.separator)
        let filled =
            isRightToLeft
            ? Rect(x: thumbX, y: y - 2, width: b + 2 - thumbX, height: 4) : Rect(x: a - 2, y: y - 2, width: thumbX - a + 2, height: 4)
        context.fill(filled, cornerRadius: 2, color: tint(context))
        let r = Self.thumbRadius
        context.fillCircle(center: Point(x: thumbX, y: y + 1), radius: r + 0.5, color: Color.shadow.withOpacity(40 / 255))
        context.fillCircle(center: Point(x: thumbX, y: y), radius: r, color: .thumb)
        // The thumb's edge, so that a white thumb shows on a white row (WCAG 1.4.11).
        let contrast = context.isHighContrast
        context.stroke(
            thumbRect(at: thumbX).insetBy(dx: contrast ? 1 : 0.5, dy: contrast ? 1 : 0.5), cornerRadius: r, lineWidth: contrast ? 2 : 1,
            color: contrast ? .primaryText : .fieldBorder)
    }

    private func thumbRect(at x: Double) -> Rect {
        let r = Self.thumbRadius
        return Rect(x: x - r, y: frame.height / 2 - r, width: 2 * r, height: 2 * r)
    }

    // MARK: Touch (window points) and keys

    @_spi(Hooks) override public func hitTest(_ p: Point) -> View? {
        guard !isHidden, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else { return nil }
        return self
    }

    package func wantsTouch(at point: Point) -> Bool { isEnabled }

    /// The value under window point `p`.
    private func value(at p: Point) -> Double {
        let (a, b) = trackSpan
        let x = localPoint(fromWindow: p).x
        var f = b > a ? (x - a) / (b - a) : 0
        if isRightToLeft { f = 1 - f }
        return range.lowerBound + max(0, min(1, f)) * (range.upperBound - range.lowerBound)
    }

    package func touchBegan(at p: Point, time t: Double) { touch = (p, false) }

    package func touchMoved(to p: Point, time t: Double) -> TouchDisposition {
        guard var current = touch else { return .released }
        if !current.dragging {
            let d = p - current.start
            guard d.length > environment.gestures.touchSlop else { return .undecided }
            guard abs(d.x) > abs(d.y) else { return .released }
            current.dragging = true
            touch = current
        }
        set(value(at: p))
        return .claimed
    }

    package func touchEnded(at p: Point, time t: Double, cancelled: Bool) {
        defer { touch = nil }
        if !cancelled, touch?.dragging == false { set(value(at: p)) }
    }

    /// Left and right move it a step the way the arrow points; Home and End to the ends.
    package func handleKey(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        let forward = isRightToLeft ? -1 : 1
        switch key {
        case .right: nudge(by: forward)
        case .left: nudge(by: -forward)
        case .home: set(range.lowerBound)
        case .end: set(range.upperBound)
        default: return false
        }
        return true
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        AccessibilityDescription(role: .adjustable, label: label, value: spokenValue(spokenNumber), combinesChildren: true)
    }

    /// The value as said: a percentage for a 0...1 slider, else the number.
    private var spokenNumber: String {
        if range == 0...1 { return environment.strings.format(.percent, Int((value * 100).rounded())) }
        return Self.format(value)
    }

    /// `v` without a needless ".0", at most two decimals.
    static func format(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}

extension Slider: EssentialPartsReporter {
    /// The thumb, by its edge, and the filled part of the track, which shows the value.
    package var essentialParts: [EssentialPart] {
        let (a, b) = trackSpan
        guard b > a else { return [] }
        let f = isRightToLeft ? 1 - fraction : fraction, x = a + (b - a) * f
        let filled =
            isRightToLeft
            ? Rect(x: x, y: frame.height / 2 - 2, width: b + 2 - x, height: 4)
            : Rect(x: a - 2, y: frame.height / 2 - 2, width: x - a + 2, height: 4)
        var parts = [EssentialPart("thumb", rect: thumbRect(at: x), color: Color.fieldBorder)]
        if filled.width > 2 * Self.thumbRadius {
            parts.append(EssentialPart("filled track", rect: filled, color: Color.accent))
        }
        return parts
    }
}
