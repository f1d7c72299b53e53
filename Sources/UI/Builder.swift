import Geometry
import Raster
import Scrolling

/// Builds child lists in the spirit of SwiftUI, over the retained tree:
/// `VStack(spacing: 8) { Label("Hi"); for i in 0..<300 { Row(i) } }`.
@resultBuilder
public enum ViewBuilder {
    public static func buildExpression(_ view: View) -> [View] { [view] }
    public static func buildExpression(_ views: [View]) -> [View] { views }
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    public static func buildEither(first: [View]) -> [View] { first }
    public static func buildEither(second: [View]) -> [View] { second }
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

/// A vertical stack built with a `ViewBuilder`.
public func VStack(id: String? = nil, spacing: Double = 0, padding: EdgeInsets = .zero,
                   alignment: Stack.Alignment = .fill, @ViewBuilder _ content: () -> [View]) -> Stack {
    Stack(.vertical, id: id, spacing: spacing, padding: padding, alignment: alignment, children: content())
}

/// A horizontal stack built with a `ViewBuilder`.
public func HStack(id: String? = nil, spacing: Double = 0, padding: EdgeInsets = .zero,
                   alignment: Stack.Alignment = .center, @ViewBuilder _ content: () -> [View]) -> Stack {
    Stack(.horizontal, id: id, spacing: spacing, padding: padding, alignment: alignment, children: content())
}

extension View {
    /// Sets a fixed size; returns self for chaining.
    @discardableResult
    public func frame(width: Double? = nil, height: Double? = nil) -> Self {
        if let width { self.width = width }
        if let height { self.height = height }
        return self
    }

    /// In a vertical stack with a height, this view shares the height its siblings leave.
    @discardableResult
    public func flexible(_ on: Bool = true) -> Self { isFlexible = on; return self }

    @discardableResult
    public func onTap(_ action: @escaping () -> Void) -> Self { onTap = action; return self }

    @discardableResult
    public func onLongPress(_ action: @escaping () -> Void) -> Self { onLongPress = action; return self }

    @discardableResult
    public func focusable(_ on: Bool = true) -> Self { isFocusable = on; return self }
}

extension Box {
    /// A background fill with rounded corners and an optional inside border.
    @discardableResult
    public func background(_ color: Color, cornerRadius: Double = 0, border: Color? = nil) -> Self {
        fill = color; self.cornerRadius = cornerRadius; borderColor = border
        return self
    }
}
