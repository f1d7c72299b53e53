@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Widgets

/// What every control shares: it can be disabled, takes focus for the keypad, is at least
/// 44 points high (a fingertip), and is listed in the state JSON's `controls` with its value.
public class Control: Box, ControlReporter {
    /// Whether the control takes touches, keys and the screen reader's actions. A disabled
    /// control is drawn faded, skipped by focus, and said as "dimmed".
    public var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            isFocusable = isEnabled
            enabledChanged()
            setNeedsDisplay()
        }
    }

    /// Disables the control (`false` enables it again), as SwiftUI's modifier does.
    @discardableResult
    public func disabled(_ disabled: Bool = true) -> Self { isEnabled = !disabled; return self }

    /// The smallest height a finger hits reliably.
    static let minimumTarget = 44.0

    init(id: String?) {
        super.init(id: id)
        isFocusable = true
    }

    /// Subclasses attach or detach their actions here.
    func enabledChanged() {}

    package var controlKind: String { "control" }
    package var controlValue: Double? { nil }

    /// The colour of the control's active parts: the palette's accent, grey while disabled.
    func tint(_ context: DrawContext, _ color: Color? = nil) -> Color {
        isEnabled ? (color ?? Color.accent) : Color.secondaryText.withOpacity(0.5)
    }

    /// The colour of a control's words: the palette's text, its secondary text while disabled.
    var titleColor: Color { isEnabled ? Color.primaryText : Color.secondaryText }

    /// The text size the window's text scale gives `size` points.
    func scaled(_ size: Double) -> Double { size * (host?.textScale ?? 1) }

    /// Reads `binding` now and whenever the `@Observable` model behind it changes.
    func follow<Value: Equatable>(_ binding: Binding<Value>, apply: @escaping (Value) -> Void) {
        follow { _ in apply(binding.wrappedValue) }
    }

    /// What is wrong with how the app made or fed it, said in the log once it is in a window.
    var problems: [String] = []

    /// Says each problem once in the window's log, naming the control (at its first draw, when
    /// it has a window to say them in).
    func sayProblems() {
        guard !problems.isEmpty, let host else { return }
        let name = logTitle(String(describing: type(of: self)))
        for p in problems { host.warn("\(name) \(p)") }
        problems = []
    }

    /// Says "dimmed" after the value of a disabled control.
    func spokenValue(_ value: String?) -> String? {
        guard !isEnabled else { return value }
        return [value, environment.strings[.dimmed]].compactMap { $0 }.joined(separator: ", ")
    }
}

/// A place eased from one value to another over 0.2 s, on the loop's clock: a switch's knob, a
/// picker's thumb.
struct Slide {
    var from: Double
    var to: Double
    var start: Double
    static let duration = 0.2

    func value(at t: Double) -> Double {
        let p = min(1, max(0, (t - start) / Self.duration))
        return from + (to - from) * (1 - (1 - p) * (1 - p))
    }

    func isDone(at t: Double) -> Bool { t - start >= Self.duration }

    /// Redraws `view` while `slide` runs, its end included, and clears it once done.
    static func sample(_ slide: inout Slide?, of view: View, at t: Double) {
        guard let s = slide else { return }
        if s.isDone(at: t) { slide = nil }
        view.setNeedsDisplay()
    }
}

extension Color {
}
