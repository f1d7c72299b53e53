@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Widgets
import Localization
#if canImport(Glibc)
import Glibc
#endif

/// Progress: a bar filled to `value` (0 to 1), or, while `value` is nil, a spinner that turns
/// as long as it is on screen. A spinner off screen or hidden asks for no frames, so the loop
/// sleeps while nothing else moves.
///
/// ```swift
/// let paying = ProgressView(id: "paying")          // a spinner
/// let upload = ProgressView(id: "upload", value: 0.3)  // a bar
/// Label("").follow { _ in upload.value = job.fraction }
/// ```
public final class ProgressView: Control, AnimatedView {
    /// How far it got, 0 to 1 (clamped; NaN shows none); nil: unknown, a spinner.
    public var value: Double? {
        didSet {
            if let v = value, !v.isFinite { value = 0 }
            if (value == nil) != (oldValue == nil) { setNeedsLayout(); host?.treeChanged() }
            setNeedsDisplay()
        }
    }
    /// What the screen reader says it is for ("Paying"), as given (a catalog key, for a
    /// progress view made with a literal: said in the window's language).
    public var label: String {
        get { labelKey.key }
        set { labelKey = LocalizedStringKey(verbatim: newValue) }
    }
    private var labelKey: LocalizedStringKey

    /// The spinner's spokes: it steps a spoke at a time, 12 steps a second.
    static let spokes = 12
    private var shownStep = -1

    /// A bar at `value` (0 to 1), or a spinner when `value` is nil, said as `label` (a `String`
    /// as it is; a string literal is a catalog key, see `Label`).
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(_ label: S, id: String? = nil, value: Double? = nil) {
        self.init(LocalizedStringKey(verbatim: String(label)), id: id, value: value)
    }

    /// A bar or a spinner said as `key`, looked up in the window's string catalog.
    public init(_ key: LocalizedStringKey = "", id: String? = nil, value: Double? = nil) {
        labelKey = key
        self.value = value.map { $0.isFinite ? $0 : 0 }
        super.init(id: id)
        isFocusable = false
    }

    override func enabledChanged() { isFocusable = false }

    package override var controlKind: String { "progress" }
    package override var controlValue: Double? { value.map { max(0, min(1, $0)) } }

    /// True while it is a spinner that shows on screen.
    private var spinsInSight: Bool {
        guard value == nil, let host else { return false }
        for v in selfAndAncestors where v.isHidden { return false }
        return !host.visibleRect(of: self).isEmpty
    }

    private func step(at t: Double) -> Int { Int((t * Double(Self.spokes)).rounded(.down)) % Self.spokes }

    public func sample(at t: Double) {
        guard spinsInSight else { return }
        let s = step(at: t)
        if s != shownStep { shownStep = s; setNeedsDisplay() }
    }

    public func isAnimating(at t: Double) -> Bool { spinsInSight }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        if value == nil { return Size(width: width ?? Self.minimumTarget, height: height ?? Self.minimumTarget) }
        let w = width ?? proposal.width
        return Size(width: w.isFinite ? w : 200, height: height ?? 8)
    }

    public override func draw(in context: inout DrawContext) {
        guard let value else { drawSpinner(in: &context); return }
        let h = min(frame.height, 4.0)
        let track = Rect(x: 0, y: (frame.height - h) / 2, width: frame.width, height: h)
        context.fill(track, cornerRadius: h / 2, color: Color.separator)
        let f = max(0, min(1, value))
        guard f > 0 else { return }
        let w = track.width * f
        let bar = Rect(x: isRightToLeft ? track.maxX - w : 0, y: track.minY, width: w, height: h)
        context.fill(bar, cornerRadius: h / 2, color: tint(context))
    }

    private func drawSpinner(in context: inout DrawContext) {
        let c = Point(x: frame.width / 2, y: frame.height / 2)
        let r = min(frame.width, frame.height) / 2 * 0.8
        guard r > 2 else { return }
        let head = step(at: context.time)
        for i in 0..<Self.spokes {
            let angle = Double(i) / Double(Self.spokes) * 2 * Double.pi - Double.pi / 2
            // The newest spoke is darkest; older ones fade.
            let age = (head - i + Self.spokes) % Self.spokes
            let opacity = 1 - Double(age) / Double(Self.spokes) * 0.8
            var p = Path()
            let dx = cos(angle), dy = sin(angle)
            p.move(to: Point(x: c.x + dx * r * 0.5, y: c.y + dy * r * 0.5))
            p.line(to: Point(x: c.x + dx * r, y: c.y + dy * r))
            context.stroke(p, lineWidth: max(2, r * 0.16), color: Color.secondaryText.withOpacity(opacity), roundCaps: true)
        }
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        let strings = environment.strings
        let said = value.map { strings.format(.percent, Int((max(0, min(1, $0)) * 100).rounded())) } ?? strings[.inProgress]
        return AccessibilityDescription(role: .progress, label: environment.localized(labelKey), value: said)
    }
}

/// A thin line between groups of views: across a vertical stack, or down a horizontal one.
public final class Divider: View {
    /// The line's colour; nil: the palette's separator.
    public var color: Color? { didSet { setNeedsDisplay() } }

    /// A divider in `color` (nil: the separator colour).
    public init(id: String? = nil, color: Color? = nil) {
        self.color = color
        super.init(id: id)
    }

    /// Along a horizontal stack it stands up; anywhere else it lies across.
    private var standsUp: Bool { (parent as? LinearLayout)?.axis == .horizontal }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? (proposal.width.isFinite ? proposal.width : 0)
        let h = height ?? (proposal.height.isFinite ? proposal.height : 0)
        return standsUp ? Size(width: width ?? 1, height: h) : Size(width: w, height: height ?? 1)
    }

    public override func draw(in context: inout DrawContext) {
        context.fill(Rect(origin: .zero, size: frame.size), color: color ?? Color.separator)
    }
}
