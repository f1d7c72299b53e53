import Geometry
import Scrolling
@_spi(Hooks) import ViewCore

/// A vertical stack built with a `ViewBuilder`.
public func VStack(
    id: String? = nil, spacing: Double = 0, padding: EdgeInsets = .zero,
    alignment: Stack.Alignment = .fill, @ViewBuilder _ content: () -> [View]
) -> Stack {
    Stack(.vertical, id: id, spacing: spacing, padding: padding, alignment: alignment, children: content())
}

/// A horizontal stack built with a `ViewBuilder`.
public func HStack(
    id: String? = nil, spacing: Double = 0, padding: EdgeInsets = .zero,
    alignment: Stack.Alignment = .center, @ViewBuilder _ content: () -> [View]
) -> Stack {
    Stack(.horizontal, id: id, spacing: spacing, padding: padding, alignment: alignment, children: content())
}

extension ScrollView {
    /// A scroll view over the views `content` builds: one view as it is, several in a stack
    /// along the scrolling axis (`ScrollView(id: "list") { for … { Row(…) } }`).
    public convenience init(
        id: String? = nil, axes: Axes = .vertical, configuration: ScrollConfiguration = .init(),
        @ViewBuilder content: () -> [View]
    ) {
        let views = content()
        let single = views.count == 1 ? views[0] : nil
        self.init(
            id: id, axes: axes, configuration: configuration,
            content: single ?? Stack(axes.contains(.vertical) ? .vertical : .horizontal, children: views))
    }
}
