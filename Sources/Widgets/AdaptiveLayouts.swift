@_spi(Hooks) import ViewCore
import Geometry
import Scrolling

/// Chooses a layout by the space it gets (Flutter's `LayoutBuilder`, a size class): whenever its
/// size or the window's text size changes, `onResize` runs with its size before anything inside
/// is laid out, and may rearrange the views (turn a sidebar into a tab bar, put a card's picture
/// above its text). Its one child fills it.
public final class Adaptive: View {
    /// Called with the new size, before the content is measured or laid out at it.
    package var onResize: ((Size) -> Void)?
    private var lastSize: Size?
    /// Larger text needs more room in the same size: a layout chosen for 100 % may not hold it.
    private var lastTextScale: Double?

    /// An adaptive view whose one child, `content`, fills it; `onResize` runs with every new size
    /// before the content is laid out at it.
    public init(id: String? = nil, content: View, onResize: ((Size) -> Void)? = nil) {
        self.onResize = onResize
        super.init(id: id)
        add(content)
    }

    @_spi(Hooks) override public var backdrop: Backdrop { backgroundBackdrop }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let width = self.width ?? proposal.width
        // Measured with an open height (in a column) it keeps the height it last had, so
        // measuring and laying out do not call `onResize` with two sizes on every layout.
        let offered = height ?? (proposal.height.isFinite ? proposal.height : lastSize?.height ?? proposal.height)
        if width.isFinite { adapt(to: Size(width: width, height: offered)) }
        guard let content = children.first else { return super.sizeThatFits(proposal) }
        let s = content.sizeThatFits(Size(width: width, height: height ?? proposal.height))
        return Size(width: self.width ?? s.width, height: height ?? s.height)
    }

    public override func layoutChildren() {
        adapt(to: frame.size)
        super.layoutChildren()
    }

    private func adapt(to size: Size) {
        let textScale = host?.textScale ?? 1
        guard size != lastSize || textScale != lastTextScale else { return }
        lastSize = size
        lastTextScale = textScale
        // Runs inside measuring or layout, which go on with what it changed: the changes need
        // no second layout (that would run it again, and again).
        let window = self.host, pending = window?.needsLayout
        onResize?(size)
        if let window, let pending { window.needsLayout = pending }
    }
}

/// The first of several layouts that fits the width it is offered (SwiftUI's `ViewThatFits`): a
/// header in one row on a wide panel, in two on a narrow one or at 200 % text. Only the layout
/// shown is in the tree, so the candidates may hold views with the same ids (the same model
/// shown two ways); the last is shown when none fits.
///
/// ```swift
/// ViewThatFits(
///     HStack { Label("Order", size: 28); Spacer(); Toggle("Takeaway", isOn: takeaway); cart },
///     VStack { Label("Order", size: 28); HStack { Toggle("Takeaway", isOn: takeaway); Spacer(); cart } }
/// )
/// ```
public final class ViewThatFits: View {
    /// The layouts, in order of preference.
    package let candidates: [View]
    private var shown: Int?
    /// Holds the layouts not shown: out of the window's tree, measured with its fonts.
    private let shelf = Shelf()

    /// Shows the first of `candidates` whose ideal width fits, else the last.
    public init(id: String? = nil, _ candidates: View...) {
        self.candidates = candidates
        super.init(id: id)
        shelf.owner = self
        for (i, c) in candidates.enumerated() {
            if i == 0 { add(c) } else { shelf.add(c) }
        }
        shown = candidates.isEmpty ? nil : 0
    }

    @_spi(Hooks) override public var backdrop: Backdrop { backgroundBackdrop }

    /// The index of the layout that fits `width` points.
    private func choice(for width: Double, height: Double) -> Int {
        guard width.isFinite else { return 0 }
        for (i, c) in candidates.enumerated()
        where c.constrained(c.sizeThatFits(Size(width: .infinity, height: height))).width <= width + 1e-9 {
            return i
        }
        return max(0, candidates.count - 1)
    }

    /// Puts layout `i` in the tree in place of the one shown, without asking for a layout: this
    /// runs inside measuring or layout, which go on with it.
    private func show(_ i: Int) {
        guard i != shown, candidates.indices.contains(i) else { return }
        let window = host, pending = window?.needsLayout
        if let old = children.first {
            detachChild(at: 0)
            shelf.attach(old, at: shelf.children.count)
        }
        if let k = shelf.children.firstIndex(where: { $0 === candidates[i] }) { shelf.detachChild(at: k) }
        attach(candidates[i], at: 0)
        shown = i
        if let window, let pending { window.needsLayout = pending }
    }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let width = self.width ?? proposal.width
        let i = choice(for: width - padding.horizontal, height: proposal.height)
        let c = candidates[i]
        let s = c.constrained(
            c.sizeThatFits(Size(width: width - padding.horizontal, height: (height ?? proposal.height) - padding.vertical)))
        return Size(width: self.width ?? s.width + padding.horizontal, height: height ?? s.height + padding.vertical)
    }

    public override func layoutChildren() {
        guard !candidates.isEmpty else { return }
        show(choice(for: contentBounds.width, height: contentBounds.height))
        super.layoutChildren()
    }
}

/// Children in rows that wrap when the next one does not fit (tags, buttons, thumbnails), each
/// at its own size, with `spacing` between them and `lineSpacing` between rows.
public final class Flow: Box {
    /// Space between neighbouring children in a row, in points.
    public var spacing: Double { didSet { setNeedsLayout() } }
    /// Space between one row and the next, in points.
    public var lineSpacing: Double { didSet { setNeedsLayout() } }

    /// A flow of `children` inside `padding`, `spacing` points apart in a row and `lineSpacing`
    /// points between rows (8 each by default).
    public init(
        id: String? = nil, spacing: Double = 8, lineSpacing: Double = 8, padding: EdgeInsets = .zero,
        children: [View] = []
    ) {
        self.spacing = spacing; self.lineSpacing = lineSpacing
        super.init(id: id)
        self.padding = padding
        setChildren(children)
    }

    /// Frames for the visible children within `width`, and the height they take.
    private func arrange(width: Double) -> (frames: [Rect], height: Double) {
        let inner = max(0, width - padding.horizontal)
        var frames: [Rect] = []
        var x = 0.0, y = 0.0, lineHeight = 0.0
        for c in children where !c.isHidden {
            let s = c.constrained(c.sizeThatFits(Size(width: min(c.width ?? .infinity, inner), height: .infinity)))
            let w = min(s.width, inner)
            if x > 0, x + w > inner { x = 0; y += lineHeight + lineSpacing; lineHeight = 0 }
            frames.append(Rect(x: padding.leading + x, y: padding.top + y, width: w, height: s.height))
            x += w + spacing
            lineHeight = max(lineHeight, s.height)
        }
        return (frames, padding.vertical + y + lineHeight)
    }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? (proposal.width.isFinite ? proposal.width : 10_000)
        return Size(width: w, height: height ?? arrange(width: w).height)
    }

    public override func layoutChildren() {
        let frames = arrange(width: frame.width).frames
        var i = 0
        for c in children where !c.isHidden {
            c.frame = frames[i]; i += 1
            c.layoutChildren()
        }
        mirrorChildrenIfRightToLeft()
    }
}
