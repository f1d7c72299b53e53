@_spi(Hooks) import ViewCore
import AppContract
import Geometry
import Localization
import Raster
import Text
import Widgets

/// A stepper: a title, then a minus button, the value and a plus button, each button a
/// 44-point target that is dimmed at its end of the range. The arrow keys (left and right, the
/// way they point) and the screen reader's swipes step it too.
///
/// ```swift
/// Stepper("Quantity", id: "quantity", value: Binding(line, \.quantity), in: 1...20)
/// ```
public final class Stepper: Control, KeyResponder {
    /// The words before the buttons (and what the screen reader says).
    public var title: String {
        get { titleLabel.text }
        set { titleLabel.text = newValue }
    }
    /// The value shown: its binding's, as last read or set, within the range.
    public private(set) var value: Int
    /// The values it can take.
    public let range: ClosedRange<Int>
    /// How much a press changes the value (at least 1).
    public let step: Int

    private let binding: Binding<Int>
    private let titleLabel: Label
    private let valueLabel: Label
    private let minus = StepButton(.decrease)
    private let plus = StepButton(.increase)

    /// A stepper titled `title` that shows and sets `value` within `range`, `step` at a time. A
    /// `String` is shown as it is; a string literal is a catalog key (see `Label`).
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(
        _ title: S, id: String? = nil, value: Binding<Int>, in range: ClosedRange<Int> = 0...99, step: Int = 1
    ) {
        self.init(titleLabel: Label(title), id: id, value: value, range: range, step: step)
    }

    /// A stepper titled with `key`, looked up in the window's string catalog.
    public convenience init(
        _ key: LocalizedStringKey, id: String? = nil, value: Binding<Int>, in range: ClosedRange<Int> = 0...99, step: Int = 1
    ) {
        self.init(titleLabel: Label(key), id: id, value: value, range: range, step: step)
    }

    private init(titleLabel: Label, id: String?, value: Binding<Int>, range: ClosedRange<Int>, step: Int) {
        binding = value
        self.range = range
        self.step = max(1, step)
        self.value = min(range.upperBound, max(range.lowerBound, value.wrappedValue))
        self.titleLabel = titleLabel
        valueLabel = Label("", alignment: .center).fontWeight(.semibold)
        super.init(id: id)
        minus.id = id.map { "\($0).decrement" }
        plus.id = id.map { "\($0).increment" }
        for v in [titleLabel, minus, valueLabel, plus] { add(v) }
        enabledChanged()
        follow(value) { [unowned self] v in show(v) }
    }

    override func enabledChanged() {
        let lower = value > range.lowerBound && isEnabled, upper = value < range.upperBound && isEnabled
        minus.onTap = lower ? { [weak self] in self.map { $0.set($0.value - $0.step) } } : nil
        plus.onTap = upper ? { [weak self] in self.map { $0.set($0.value + $0.step) } } : nil
        accessibility.adjust = isEnabled ? { [unowned self] direction in set(value + direction * step) } : nil
        valueLabel.text = String(value)
        titleLabel.color = titleColor
        setNeedsDisplay()
    }

    package override var controlKind: String { "stepper" }
    package override var controlValue: Double? { Double(value) }

    private func show(_ v: Int) {
        let x = min(range.upperBound, max(range.lowerBound, v))
        guard x != value else { return }
        value = x
        enabledChanged()
    }

    private func set(_ v: Int) {
        show(v)
        if binding.wrappedValue != value { binding.wrappedValue = value }
    }

    // MARK: Layout and drawing

    private var buttonSide: Double { max(Self.minimumTarget, scaled(17) * 1.8) }
    private var valueWidth: Double {
        let widest = [range.lowerBound, range.upperBound].map { String($0).count }.max() ?? 1
        return max(Self.minimumTarget, scaled(17) * 0.7 * Double(widest) + 12)
    }
    private var controlsWidth: Double { 2 * buttonSide + valueWidth }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? proposal.width
        let textWidth = w.isFinite ? max(0, w - controlsWidth - 12) : .infinity
        let text = titleLabel.sizeThatFits(Size(width: textWidth, height: .infinity))
        let h = max(buttonSide, text.height + 8)
        return Size(width: w.isFinite ? w : text.width + 12 + controlsWidth, height: height ?? h)
    }

    public override func layoutChildren() {
        let side = buttonSide, vw = valueWidth
        let textWidth = max(0, frame.width - controlsWidth - 12)
        let th = titleLabel.sizeThatFits(Size(width: textWidth, height: .infinity)).height
        titleLabel.frame = Rect(x: 0, y: (frame.height - th) / 2, width: textWidth, height: th)
        let y = (frame.height - side) / 2
        var x = frame.width - controlsWidth
        // Right to left the row mirrors, so plus comes first from the left: the values rise the
        // way the text runs.
        minus.frame = Rect(x: x, y: y, width: side, height: side); x += side
        let vh = valueLabel.sizeThatFits(Size(width: vw, height: .infinity)).height
        valueLabel.frame = Rect(x: x, y: (frame.height - vh) / 2, width: vw, height: vh); x += vw
        plus.frame = Rect(x: x, y: y, width: side, height: side)
        for c in children { c.layoutChildren() }
        mirrorChildrenIfRightToLeft()
    }

    public override func draw(in context: inout DrawContext) {
        for (button, icon) in [(minus, Icon.minus), (plus, Icon.plus)] {
            let enabled = button.onTap != nil
            let color = enabled ? Color.accent : Color.secondaryText.withOpacity(0.5)
            context.fill(
                button.frame.insetBy(dx: 2, dy: 2), cornerRadius: button.cornerRadius(in: context.theme), color: color.withOpacity(0.15))
            let side = min(24, button.frame.width * 0.5)
            icon.draw(
                in: Rect(x: button.frame.midX - side / 2, y: button.frame.midY - side / 2, width: side, height: side),
                color: color, context: context)
        }
    }

    /// Left and right step it the way the arrow points (right to left, left is up).
    package func handleKey(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        let forward = isRightToLeft ? -1 : 1
        switch key {
        case .right: set(value + forward * step)
        case .left: set(value - forward * step)
        default: return false
        }
        return true
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        AccessibilityDescription(role: .adjustable, label: title, value: spokenValue(String(value)), combinesChildren: true)
    }
}

/// A stepper's − or +: said "Decrease" or "Increase" in the window's language, so that the
/// screen reader and the audit's label rule find a name for each target.
private final class StepButton: Box {
    let word: BuiltInStrings.Word

    init(_ word: BuiltInStrings.Word) {
        self.word = word
        super.init()
        _ = cornered(\.field)
    }

    override var accessibilityDescription: AccessibilityDescription? {
        AccessibilityDescription(role: .button, label: environment.strings[word])
    }
}
