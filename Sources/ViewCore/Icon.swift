import Geometry
import Raster

/// A small picture in the colour of the text beside it (a button's, a tab's, the back
/// button's): one of the ~2,100 Material Icons by name, drawn from the shipped icon font, or a
/// path of the app's own. Sharp at every scale and text size; icons that point (arrows,
/// chevrons, send, undo) are mirrored in a right-to-left layout.
///
/// ```swift
/// Button("Back", icon: Icon("arrow_back")) { stack.pop() }
/// Tab("Map", icon: Icon("map"), content: map)
/// ```
public struct Icon: Hashable, Sendable {
    /// The outline, in a square of `size` points (empty for an icon of the font).
    public var path: Path
    /// The side of the square the path is drawn in.
    public var size: Double
    /// The icon font's name for it ("arrow_back"); nil for a path of the app's own.
    public private(set) var name: String?
    /// Whether a right-to-left layout draws it mirrored: true for the font's icons that point
    /// (back and forward arrows, chevrons, send, undo and redo, log in and out).
    public var isDirectional = false

    /// The Material icon called `name` (as listed at fonts.google.com/icons: "home",
    /// "shopping_cart", "arrow_back"). A name the font lacks is said once in the log and drawn as
    /// an empty square, so a typo shows; `Typography.hasIcon(named:)` checks a name beforehand.
    public init(_ name: String) {
        self.path = Path()
        self.size = 24
        self.name = name
        self.isDirectional = Icon.directionalNames.contains(name)
    }

    /// The font's icons that point along the line of reading.
    static let directionalNames: Set<String> = [
        "arrow_back", "arrow_forward", "arrow_back_ios", "arrow_back_ios_new", "arrow_forward_ios", "arrow_left",
        "arrow_right", "arrow_right_alt", "chevron_left", "chevron_right", "navigate_before", "navigate_next",
        "keyboard_arrow_left", "keyboard_arrow_right", "keyboard_backspace", "keyboard_tab", "first_page", "last_page",
        "send", "reply", "reply_all", "forward", "undo", "redo", "login", "logout", "exit_to_app", "open_in_new",
        "trending_flat", "subdirectory_arrow_left", "subdirectory_arrow_right", "read_more", "start", "input",
        "arrow_circle_left", "arrow_circle_right", "east", "west",
    ]

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

    /// Draws the icon into `rect` (local points) in `color`, mirrored when `mirrored` or when
    /// it points and the layout runs right to left.
    package func draw(in rect: Rect, color: Color, mirrored: Bool = false, rightToLeft: Bool = false, context: DrawContext) {
        if let name {
            context.drawIcon(named: name, in: rect, color: color, mirrored: mirrored != (rightToLeft && isDirectional))
            return
        }
        let k = min(rect.width, rect.height) / size
        var shape = path.scaledBy(k)
        if mirrored { shape = Self.mirror(shape, width: size * k) }
        context.fill(shape.translatedBy(dx: rect.minX, dy: rect.minY), color: color)
    }
}
