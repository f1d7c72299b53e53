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

/// A small picture drawn from a path in the colour of the text beside it, as a button's
/// symbol: resolution-independent, so it is sharp at every scale and text size.
public struct Icon: Hashable, Sendable {
    /// The outline, in a square of `size` points.
    public var path: Path
    /// The side of the square the path is drawn in.
    public var size: Double

    /// An icon filled from `path`, drawn in a square of `size` points (scaled to the text beside it).
    public init(path: Path, size: Double = 24) {
        self.path = path
        self.size = size.isFinite && size > 0 ? size : 24
    }

    /// A plus sign.
    public static let plus = Icon(path: cross(arm: 8, thickness: 2.4))
    /// A minus sign.
    public static let minus: Icon = {
        var p = Path()
        p.addRoundedRect(Rect(x: 4, y: 10.8, width: 16, height: 2.4), radius: 1.2)
        return Icon(path: p)
    }()
    /// A tick.
    public static let checkmark = Icon(path: stroke([Point(x: 4.5, y: 12.5), Point(x: 9.5, y: 17.5), Point(x: 19.5, y: 6.5)], width: 2.6))
    /// A cross, to close or cancel.
    public static let xmark = Icon(
        path: stroke([Point(x: 6, y: 6), Point(x: 18, y: 18)], width: 2.4, then: [Point(x: 18, y: 6), Point(x: 6, y: 18)]))
    /// A shopping cart.
    public static let cart: Icon = {
        var p = stroke(
            [Point(x: 2, y: 4), Point(x: 5, y: 4), Point(x: 7.5, y: 15), Point(x: 18.5, y: 15), Point(x: 21, y: 7), Point(x: 6.2, y: 7)],
            width: 2)
        p.addCircle(center: Point(x: 9, y: 19.5), radius: 1.8)
        p.addCircle(center: Point(x: 17, y: 19.5), radius: 1.8)
        return Icon(path: p)
    }()

    private static func cross(arm: Double, thickness: Double) -> Path {
        var p = Path()
        p.addRoundedRect(Rect(x: 12 - arm, y: 12 - thickness / 2, width: 2 * arm, height: thickness), radius: thickness / 2)
        p.addRoundedRect(Rect(x: 12 - thickness / 2, y: 12 - arm, width: thickness, height: 2 * arm), radius: thickness / 2)
        return p
    }

    /// Polylines as filled outlines: each segment a quadrilateral `width` wide, each joint a disc.
    private static func stroke(_ points: [Point], width: Double, then more: [Point] = []) -> Path {
        var p = Path()
        for line in [points, more] where line.count > 1 {
            for (a, b) in zip(line, line.dropFirst()) {
                let d = b - a, len = max(1e-9, d.length)
                let n = Point(x: -d.y / len * width / 2, y: d.x / len * width / 2)
                p.move(to: a + n); p.line(to: b + n); p.line(to: b - n); p.line(to: a - n); p.close()
            }
            for q in line { p.addCircle(center: q, radius: width / 2) }
        }
        return p
    }

    /// `path` reflected across the vertical line through the middle of `width` (right to left).
    private static func mirror(_ path: Path, width: Double) -> Path {
        func m(_ p: Point) -> Point { Point(x: width - p.x, y: p.y) }
        return Path(
            path.elements.map {
                switch $0 {
                case let .move(to: p): .move(to: m(p))
                case let .line(to: p): .line(to: m(p))
                case let .quad(to: p, control: c): .quad(to: m(p), control: m(c))
                case let .cubic(to: p, control1: c1, control2: c2): .cubic(to: m(p), control1: m(c1), control2: m(c2))
                case .close: .close
                }
            })
    }

    /// Fills the icon into `rect` (local points) in `color`, mirrored when `mirrored`.
    func draw(in rect: Rect, color: Color, mirrored: Bool = false, context: DrawContext) {
        let k = min(rect.width, rect.height) / size
        var shape = path.scaledBy(k)
        if mirrored { shape = Self.mirror(shape, width: size * k) }
        context.fill(shape.translatedBy(dx: rect.minX, dy: rect.minY), color: color)
    }
}
