import Geometry
import Raster
import Scrolling

/// Builds child lists in the spirit of SwiftUI, over the retained tree:
/// `VStack(spacing: 8) { Label("Hi"); for i in 0..<300 { Row(i) } }`.
@resultBuilder
public enum ViewBuilder {
    /// Takes one view as a list of one.
    public static func buildExpression(_ view: View) -> [View] { [view] }
    /// Takes an array of views as it is (rows made with `map`, say).
    public static func buildExpression(_ views: [View]) -> [View] { views }
    /// Joins the views of a block's statements, in order.
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    /// The views of an `if` without `else`: none when its condition is false.
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    /// The views of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [View]) -> [View] { first }
    /// The views of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [View]) -> [View] { second }
    /// Joins the views of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

/// Edges of a view, for `padding(_:_:)`.
public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The top edge.
    public static let top = Edges(rawValue: 1)
    /// The leading (left) edge.
    public static let leading = Edges(rawValue: 2)
    /// The bottom edge.
    public static let bottom = Edges(rawValue: 4)
    /// The trailing (right) edge.
    public static let trailing = Edges(rawValue: 8)
    /// The leading and trailing edges.
    public static let horizontal: Edges = [.leading, .trailing]
    /// The top and bottom edges.
    public static let vertical: Edges = [.top, .bottom]
    /// All four edges.
    public static let all: Edges = [.horizontal, .vertical]
}

extension View {
    /// Sets a fixed size, and where content smaller than it sits (`.center` centres a
    /// label's text both ways); returns self for chaining.
    @discardableResult
    public func frame(width: Double? = nil, height: Double? = nil, alignment: UnitPoint? = nil) -> Self {
        if let width { self.width = width }
        if let height { self.height = height }
        if let alignment { contentAlignment = alignment }
        return self
    }

    /// Space of `length` points on every edge between the view (and its background) and
    /// its content.
    @discardableResult
    public func padding(_ length: Double = 16) -> Self { padding(.all, length) }

    /// Space of `length` points on `edges`; the other edges keep theirs.
    @discardableResult
    public func padding(_ edges: Edges, _ length: Double = 16) -> Self {
        let v = length.isFinite ? max(0, length) : 0
        var p = padding
        if edges.contains(.top) { p.top = v }
        if edges.contains(.leading) { p.leading = v }
        if edges.contains(.bottom) { p.bottom = v }
        if edges.contains(.trailing) { p.trailing = v }
        padding = p
        return self
    }

    /// Sets the space on each edge to `insets`, in points, replacing the padding there was.
    @discardableResult
    public func padding(_ insets: EdgeInsets) -> Self { padding = insets; return self }

    /// A background fill with rounded corners and an optional inside border, under the view's
    /// own drawing and its children.
    @discardableResult
    public func background(_ color: Color, cornerRadius: Double = 0, border: Color? = nil) -> Self {
        fill = color; self.cornerRadius = cornerRadius; borderColor = border
        return self
    }

    /// In a row too narrow for every child's ideal width, this view gets its ideal width before
    /// siblings of a lower priority (SwiftUI's modifier): a title next to a clock.
    @discardableResult
    public func layoutPriority(_ priority: Double) -> Self { layoutPriority = priority.isFinite ? priority : 0; return self }

    /// Keeps this view at its ideal width in a row: it is never wrapped or cut to make room.
    @discardableResult
    public func fixedSize(_ on: Bool = true) -> Self { isFixedSize = on; return self }

    /// In a vertical stack with a height, this view shares the height its siblings leave.
    @discardableResult
    public func flexible(_ on: Bool = true) -> Self { isFlexible = on; return self }

    /// Calls `action` on a tap (a touch that does not move past the slop, or Enter while the
    /// view has focus), in place of any earlier action.
    @discardableResult
    public func onTap(_ action: @escaping () -> Void) -> Self { onTap = action; return self }

    /// Calls `action` when a touch rests on the view for 500 ms without moving past the slop;
    /// that touch's lift is then no tap.
    @discardableResult
    public func onLongPress(_ action: @escaping () -> Void) -> Self { onLongPress = action; return self }

    /// Makes the view take part in Tab and arrow-key focus navigation (`false` takes it out).
    @discardableResult
    public func focusable(_ on: Bool = true) -> Self { isFocusable = on; return self }
}
