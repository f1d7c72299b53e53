@_spi(Hooks) import ViewCore
import Geometry
import Scrolling

/// Layers children: the first fills the bounds, the others take their natural size and sit at
/// `alignment` (a unit point) inside `inset`. A page control over a carousel, a centred label.
public final class Overlay: Box {
    /// Where the children other than a filling first one sit inside `inset`, as a unit point.
    public var alignment: UnitPoint
    /// Space, in points, between the padded edges and the aligned children; a filling first
    /// child ignores it.
    public var inset: EdgeInsets
    /// When false the first child is aligned like the others.
    public var firstFills: Bool

    /// Layers `children`: the first fills the overlay (unless `firstFills` is false), the others
    /// sit at `alignment` (`.bottom` by default) inside `inset`.
    public init(
        id: String? = nil, alignment: UnitPoint = .bottom, inset: EdgeInsets = .zero, firstFills: Bool = true,
        children: [View]
    ) {
        self.alignment = alignment; self.inset = inset; self.firstFills = firstFills
        super.init(id: id)
        setChildren(children)
    }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let p = Size(width: width ?? proposal.width, height: height ?? proposal.height)
        guard let first = children.first else { return super.sizeThatFits(proposal) }
        let s = first.sizeThatFits(p)
        return Size(width: width ?? (p.width.isFinite ? p.width : s.width), height: height ?? (p.height.isFinite ? p.height : s.height))
    }

    public override func layoutChildren() {
        let padded = contentBounds
        let inner = Rect(
            x: padded.minX + inset.leading, y: padded.minY + inset.top,
            width: padded.width - inset.horizontal, height: padded.height - inset.vertical)
        for (i, c) in children.enumerated() {
            if i == 0 && firstFills {
                c.frame = padded
            } else {
                var s = c.sizeThatFits(Size(width: c.width ?? inner.width, height: .infinity))
                s.width = min(s.width, inner.width); s.height = min(s.height, inner.height)
                c.frame = Rect(
                    x: inner.minX + (inner.width - s.width) * alignment.x,
                    y: inner.minY + (inner.height - s.height) * alignment.y, width: s.width, height: s.height)
            }
            c.layoutChildren()
        }
        mirrorChildrenIfRightToLeft()
    }
}
