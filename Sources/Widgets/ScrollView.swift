import Localization
@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Scrolling

/// How a scroll view shows its indicators.
public enum IndicatorVisibility: Hashable, Sendable {
    /// Shown while scrolling, flashed when the view first appears with more content than fits,
    /// faded out shortly after rest.
    case automatic
    /// Always shown, on a track 15 pt (regular) or 11 pt (small) wide, for mouse-driven kiosks.
    case always(small: Bool)
    /// Never shown.
    case never
}

/// Where a scroll view starts.
package enum InitialScrollPosition: Hashable, Sendable {
    case top
    /// Aligned to this unit point of the content (e.g. `.bottom` for a log or chat).
    case anchor(UnitPoint)
    /// The child with this id, aligned by the anchor (nil: minimal).
    case id(String, anchor: UnitPoint?)
}

/// A viewport onto larger content, driven by the scroll engine (drag, fling, bounce, paging,
/// zoom, keys), with indicators and a position reported by child identity.
/// Its background (`fill`) stays behind the moving content, and its `cornerRadius` clips it.
open class ScrollView: View, AnimatedView {
    /// The view that scrolls: the scroll view's only child.
    public let content: View
    package var controller: ScrollController
    /// When the scroll indicators show; `.automatic` by default.
    public var indicators: IndicatorVisibility = .automatic { didSet { setNeedsDisplay() } }
    /// Axes whose indicator is hidden because a page control shows the position.
    package var hiddenIndicatorAxes: Axes = [] { didSet { setNeedsDisplay() } }
    /// Which visible child is reported and how `scrollTo(id:)` aligns. Nil: the
    /// top-most/leading-most visible child is reported, and scrolling is minimal.
    public var positionAnchor: UnitPoint?
    /// Called with the reported id when it changes.
    public var onPositionChange: ((String?) -> Void)?
    /// Called with the page when a paging view settles on a new page.
    public var onPageChange: ((Int) -> Void)?
    package var initialPosition: InitialScrollPosition = .top
    /// Animate program scrolls; false jumps.
    public var animatesProgramScrolls = true

    // Sampled by the window at each frame or input time.
    package internal(set) var sampledOffset = Point.zero
    package internal(set) var sampledScale = 1.0
    package internal(set) var sampledPhase = ScrollPhase.idle
    var lastActiveTime = -Double.infinity
    var appearTime: Double?
    package var hasLaidOut = false
    package internal(set) var reportedID: String?
    var reportedPage: Int?
    /// The child id held across content changes, and its distance from the viewport's
    /// leading edge in points.
    var heldPosition: (id: String, delta: Point)?
    /// Content built on demand (a lazy stack), told before each frame and input what shows.
    let lazyContent: LazyContent?
    /// The lazy content moved what it had built (and the offset moved with it) since the last
    /// frame: the window redraws the viewport instead of copying pixels.
    var contentShifted = false
    /// A program scroll to an item not built when it started: re-aimed as the item is built
    /// and measured, until the view comes to rest or a finger takes over.
    var pendingReveal: LazyReveal?

    /// A scroll view over `content`, scrolling along `axes`, with the engine's `configuration`
    /// (paging, zoom, bounce, deceleration); `axes` overrides the configuration's own.
    public init(
        id: String? = nil, axes: Axes = .vertical, configuration: ScrollConfiguration = .init(),
        content: View
    ) {
        var c = configuration
        c.axes = axes
        self.content = content
        lazyContent = content as? LazyContent
        controller = ScrollController(viewportSize: .zero, contentSize: .zero, configuration: c)
        super.init(id: id)
        add(content)
    }

    /// The engine's configuration; a change takes effect at the next input or frame.
    public var configuration: ScrollConfiguration {
        get { controller.configuration }
        set {
            // Where pages are counted from is the layout's to say, not the app's.
            var c = newValue
            c.pagesFromRight = controller.configuration.pagesFromRight
            controller.configuration = c
        }
    }

    /// True for a text area's scroller: its content is the field's text, not a list.
    @_spi(Hooks) open var scrollsTextArea: Bool { false }

    /// Its content's children are a list's rows (not a text area's).
    @_spi(Hooks) override open var presentsChildrenAsList: Bool { !scrollsTextArea }

    /// A scroll area whose value says where the visible content is.
    @_spi(Hooks) override open var accessibilityDescription: AccessibilityDescription? {
        scrollsTextArea ? nil : AccessibilityDescription(role: .scrollArea, label: "", value: positionDescription(at: sampledOffset))
    }

    /// Where the viewport at `offset` is: "Page 2 of 6" when paging, "Rows 10 to 18 of 500"
    /// for a list (a lazy list counts its rows without building them; a stack is a list when
    /// its rows can be picked), else a percentage.
    func positionDescription(at offset: Point) -> String {
        let vertical = configuration.axes.contains(.vertical)
        if configuration.isPagingEnabled {
            let axis: Scrolling.Axis = vertical ? .vertical : .horizontal
            let pages = controller.pageSnapping(axis)
            return environment.strings.format(.pageOf, pages.nearestPage(to: vertical ? offset.y : offset.x) + 1, pageCount)
        }
        // Right to left, a row is counted from its right end.
        let flip = !vertical && laidOutMirrored, contentWidth = content.frame.width
        let lo = (vertical ? offset.y : engineOffset(offset).x) / sampledScale
        let hi = lo + (vertical ? engineViewport.height : frame.width) / sampledScale
        let strings = environment.strings, noun: BuiltInStrings.Word = vertical ? .rowsOf : .itemsOf
        if let lazy = lazyContent {
            guard lazy.count > 0 else { return strings[.empty] }
            return strings.format(noun, lazy.rowIndex(at: lo + 1) + 1, lazy.rowIndex(at: max(lo + 1, hi - 1)) + 1, lazy.count)
        }
        // Rows are a list's: children a person picks (a feed of cards), not the paragraphs of an
        // article, which is read as a share of its length.
        let rows = content.children.filter { !$0.isHidden }
        if rows.count > 1, rows.contains(where: { $0.isFocusable || $0.onTap != nil || $0.onLongPress != nil }) {
            func start(_ v: View) -> Double { vertical ? v.frame.minY : flip ? contentWidth - v.frame.maxX : v.frame.minX }
            func end(_ v: View) -> Double { vertical ? v.frame.maxY : flip ? contentWidth - v.frame.minX : v.frame.maxX }
            let first = rows.firstIndex { end($0) > lo + 1 } ?? 0
            let last = rows.lastIndex { start($0) < hi - 1 } ?? rows.count - 1
            return strings.format(noun, first + 1, max(first, last) + 1, rows.count)
        }
        let length = vertical ? content.frame.height : content.frame.width
        let view = vertical ? engineViewport.height : frame.width
        guard length > view else { return strings[.allShown] }
        return strings.format(.percent, Int((100 * lo / max(1, length - view)).rounded().clampedToPercent))
    }

    // MARK: Layout

    func contentProposal(for size: Size) -> Size {
        let axes = configuration.axes
        if configuration.isZoomEnabled { return size }
        return Size(
            width: axes.contains(.horizontal) ? .infinity : size.width,
            height: axes.contains(.vertical) ? .infinity : size.height)
    }

    /// Along an axis it scrolls, a scroll view takes the space it is offered (none when the
    /// offer is unbounded: it cannot scroll inside something as long as its content); across
    /// it, its content's size, so a horizontal carousel in a vertical stack is as tall as its
    /// pages.
    open override func sizeThatFits(_ proposal: Size) -> Size {
        let p = Size(width: width ?? proposal.width, height: height ?? proposal.height)
        let axes = configuration.isZoomEnabled ? Axes.both : configuration.axes
        let horizontal = axes.contains(.horizontal), vertical = axes.contains(.vertical)
        func offered(_ v: Double) -> Double { v.isFinite ? v : 0 }
        var size = Size(width: offered(p.width), height: offered(p.height))
        if (!horizontal && !p.width.isFinite) || (!vertical && !p.height.isFinite) {
            let fitted = content.sizeThatFits(
                Size(
                    width: horizontal ? .infinity : p.width,
                    height: vertical ? .infinity : p.height))
            if !horizontal && !p.width.isFinite { size.width = fitted.width }
            if !vertical && !p.height.isFinite { size.height = fitted.height }
        }
        return size
    }

    /// A vertical scroll view in a vertical stack shares the height the other children leave.
    @_spi(Hooks) override open var fillsStackHeight: Bool {
        isFlexible || configuration.axes.contains(.vertical) || configuration.isZoomEnabled
    }

    /// A scroll view's padding goes round its content, inside the area that scrolls: it is
    /// the content's padding.
    open override var padding: EdgeInsets {
        get { content.padding }
        set { content.padding = newValue }
    }

    /// Points at the bottom of the viewport that the on-screen keyboard covers: the engine
    /// scrolls as if the viewport ended above the keys (a content inset; the content is not
    /// laid out again), so the end of the content can be scrolled above them.
    package var keyboardInset = 0.0 {
        didSet {
            guard keyboardInset != oldValue, hasLaidOut, let w = host else { return }
            controller.resize(viewport: engineViewport, content: controller.contentSize, at: w.time)
            w.scheduleFrame()
        }
    }

    /// True when the content is larger than the viewport on an axis the view scrolls.
    package var canScroll: Bool {
        (configuration.axes.contains(.vertical) && controller.maximumOffset(.vertical) > 0)
            || (configuration.axes.contains(.horizontal) && controller.maximumOffset(.horizontal) > 0)
    }

    /// The viewport the engine scrolls: the frame less the keyboard's inset.
    var engineViewport: Size { Size(width: frame.width, height: max(0, frame.height - keyboardInset)) }

    /// Each child of the content gets the viewport's length on the scroll axis (full-screen pages).
    public var sizesPagesToViewport = false

    open override func layoutChildren() {
        let viewport = frame.size
        if sizesPagesToViewport, let lazy = lazyContent {
            let length = configuration.axes.contains(.horizontal) ? viewport.width : viewport.height
            if lazy.itemExtent != length { lazy.itemExtent = length }
        } else if sizesPagesToViewport {
            let horizontal = configuration.axes.contains(.horizontal)
            for page in content.children {
                if horizontal, page.width != viewport.width { page.width = viewport.width }
                if !horizontal, page.height != viewport.height { page.height = viewport.height }
            }
        }
        content.frame = Rect(origin: .zero, size: filling(measuredContent(in: viewport)))
        content.layoutChildren()
        if let lazy = lazyContent {
            var offset = sampledOffset
            // A view laid out right to left for the first time is about to start at its right
            // end, and one whose direction changed about to move to the other end: build the
            // rows there, not where the offset was.
            let end = max(0, content.frame.width * sampledScale - frame.width)
            let mirrors = mirrorsHorizontally
            if !hasLaidOut, mirrors, initialPosition == .top {
                offset.x = end
            } else if hasLaidOut, mirrors != laidOutMirrored {
                offset.x = end - offset.x
            }
            _ = lazy.prepare(visible: visibleContentRect(offset: offset, scale: sampledScale), settled: false)
        }
    }

    /// The content's own size for `viewport`. A picture shown whole (`.fit`) as the content of a
    /// zoomable view fills the viewport, letterboxed: at the minimum scale all of it shows, as
    /// in a UIScrollView whose image view fits its picture; zooming magnifies it.
    func measuredContent(in viewport: Size) -> Size {
        if configuration.isZoomEnabled, let image = content as? PictureView, image.showsWholePicture,
            image.width == nil, image.height == nil
        {
            return viewport
        }
        return content.sizeThatFits(contentProposal(for: viewport))
    }

    /// The content's size: `measured`, at least the viewport on an axis that does not scroll
    /// (and on both when zooming).
    func filling(_ measured: Size) -> Size {
        var size = measured
        if !configuration.axes.contains(.horizontal) || configuration.isZoomEnabled { size.width = max(size.width, frame.width) }
        if !configuration.axes.contains(.vertical) || configuration.isZoomEnabled { size.height = max(size.height, frame.height) }
        return size
    }

    /// The part of the content the viewport shows at `offset`, in unscaled content points.
    func visibleContentRect(offset: Point, scale: Double) -> Rect {
        Rect(x: offset.x / scale, y: offset.y / scale, width: frame.width / scale, height: frame.height / scale)
    }

    /// Applies the laid-out sizes to the engine, keeping the held child in place and
    /// applying the initial position the first time. A layout that changed neither
    /// size nor where the held child is leaves the engine alone, so a ticking clock elsewhere
    /// in the window never stops a fling or a page snap; one that did lets the motion carry
    /// on, moved with the held child.
    package func applyLayout(at t: Double) {
        let wasMirrored = laidOutMirrored
        laidOutRightToLeft = isRightToLeft
        let mirrored = laidOutMirrored
        // The engine counts pages from where the content starts: the right end, right to left.
        if controller.configuration.pagesFromRight != mirrored { controller.configuration.pagesFromRight = mirrored }
        let flipped = hasLaidOut && mirrored != wasMirrored
        var shift = Point.zero
        if hasLaidOut, !flipped, let held = heldPosition, let r = contentRect(ofChild: held.id) {
            shift = Point(x: r.minX - held.delta.x - sampledOffset.x, y: r.minY - held.delta.y - sampledOffset.y)
        } else if hasLaidOut, !flipped, mirrored {
            // Right to left, content that grows or shrinks does so at its left end: the view keeps
            // its distance from the right end, where the content starts.
            shift.x = (content.frame.width - controller.contentSize.width / max(sampledScale, 1e-9)) * sampledScale
        }
        // Held for this layout only: a view that leaves the tree (a screen under a navigation
        // stack's top) comes back where it was, not moved by a place held long ago.
        heldPosition = nil
        controller.resize(viewport: engineViewport, content: content.frame.size, shiftedBy: shift, at: t)
        if flipped {
            // The layout direction changed: the same distance from the start, at the other end.
            var o = controller.state(at: t).offset
            o.x = controller.maximumOffset(.horizontal) - o.x
            controller.scroll(to: o, animated: false, at: t)
        }
        if !hasLaidOut {
            hasLaidOut = true
            applyInitialPosition(fromRight: mirrored, at: t)
        }
        sample(at: t)
    }

    /// Scrolls to where the view starts: the top (and, right to left, the right end), an anchor
    /// of the content, or a child.
    private func applyInitialPosition(fromRight: Bool, at t: Double) {
        switch initialPosition {
        case .top:
            if fromRight { controller.scroll(to: Point(x: controller.maximumOffset(.horizontal), y: 0), animated: false, at: t) }
        case let .anchor(a):
            let s = content.frame.size
            let x = fromRight ? 1 - a.x : a.x
            controller.scroll(
                to: Point(x: x * (s.width - frame.width), y: a.y * (s.height - frame.height)),
                animated: false, at: t)
        case let .id(id, anchor):
            if let r = contentRect(ofChild: id) {
                controller.scroll(toReveal: r, anchor: anchor.map(mirrored), animated: false, at: t)
            }
        }
    }

    /// Scrolls along a row that runs from the right: laid out right to left, horizontally.
    /// Its content is mirrored by its own layout; the engine keeps physical offsets (so a flick
    /// moves exactly as its left-to-right twin, mirrored), and the offsets, pages and anchors
    /// the app gives and reads count from the right end (the engine counts pages from there).
    var mirrorsHorizontally: Bool { configuration.axes.contains(.horizontal) && isRightToLeft }
    /// `mirrorsHorizontally` as of the last layout.
    var laidOutMirrored: Bool { laidOutRightToLeft && configuration.axes.contains(.horizontal) }
    /// It laid out right to left (whatever its axes) at the last layout.
    var laidOutRightToLeft = false

    /// `anchor` as the engine takes it: its x counted from the left.
    func mirrored(_ anchor: UnitPoint) -> UnitPoint {
        laidOutMirrored ? UnitPoint(x: 1 - anchor.x, y: anchor.y) : anchor
    }

    /// An offset the app gives or reads (x from the right end, right to left) as the engine's
    /// (x from the left), and back: the same mapping both ways.
    package func engineOffset(_ offset: Point) -> Point {
        guard laidOutMirrored else { return offset }
        return Point(x: controller.maximumOffset(.horizontal) - offset.x, y: offset.y)
    }

    /// Remembers where the reported child sits, before a content change or resize.
    package func holdPosition() {
        guard let id = reportedID, let r = contentRect(ofChild: id) else { heldPosition = nil; return }
        heldPosition = (id, Point(x: r.minX - sampledOffset.x, y: r.minY - sampledOffset.y))
    }

    // MARK: Identity

    /// The children whose identities count: the content's own children (or the content).
    var identifiedChildren: [View] {
        let kids = content.children.filter { $0.id != nil }
        return kids.isEmpty ? (content.id != nil ? [content] : []) : kids
    }

    /// A child's frame in scaled content points.
    package func contentRect(ofChild id: String) -> Rect? {
        guard let v = content.view(withID: id) else {
            return lazyContent?.frame(ofItemWithID: id).map { scaled($0) }
        }
        var r = v.frame
        var p = v.parent
        while let node = p, node !== content {
            r = r.offsetBy(dx: node.frame.minX, dy: node.frame.minY)
            p = node.parent
        }
        return scaled(r)
    }

    private func scaled(_ r: Rect) -> Rect {
        let s = sampledScale
        return Rect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s)
    }

    /// The reported identity at the current sample: the child under the anchor point of the
    /// viewport, or the top-most / leading-most visible child.
    func computeReportedID() -> String? {
        let s = sampledScale, o = sampledOffset
        let vertical = configuration.axes.contains(.vertical)
        let visible = Rect(x: o.x / s, y: o.y / s, width: frame.width / s, height: frame.height / s)
        let kids = identifiedChildren
        if let a = positionAnchor.map(mirrored) {
            let p = Point(x: visible.minX + a.x * visible.width, y: visible.minY + a.y * visible.height)
            var best: (View, Double)?
            for k in kids {
                let f = k.frame
                let d =
                    vertical
                    ? (p.y < f.minY ? f.minY - p.y : max(0, p.y - f.maxY))
                    : (p.x < f.minX ? f.minX - p.x : max(0, p.x - f.maxX))
                if best == nil || d < best!.1 { best = (k, d) }
            }
            return best?.0.id
        }
        if let stack = content as? OrderedChildren, stack.children.count > 32, kids.count == stack.children.count {
            let range = stack.childRange(intersecting: visible)
            for i in range where stack.children[i].frame.intersects(visible) { return stack.children[i].id }
            return nil
        }
        return kids.first { $0.frame.intersects(visible) }?.id
    }

    /// Scrolls to the child with `id`, aligned by `anchor` (default: the view's
    /// position anchor; none: the minimal scroll, and no move if it is fully visible).
    /// Returns false, and does not move, when there is no such child.
    @discardableResult
    public func scrollTo(id: String, anchor: UnitPoint? = nil, animated: Bool? = nil) -> Bool {
        guard let r = contentRect(ofChild: id), let w = host else { return false }
        let animated = animated ?? animatesProgramScrolls, anchor = (anchor ?? positionAnchor).map(mirrored)
        controller.scroll(toReveal: r, anchor: anchor, animated: animated, at: w.currentTime)
        if lazyContent != nil { pendingReveal = LazyReveal(target: .id(id), anchor: anchor, animated: animated) }
        w.scheduleFrame()
        return true
    }

    /// Scrolls to the item at `index` of the content (a lazy stack's row, built when it comes
    /// into view; or a child of the content). Returns false when the index is out of range.
    @discardableResult
    public func scrollTo(index: Int, anchor: UnitPoint? = nil, animated: Bool? = nil) -> Bool {
        guard let w = host, let r = itemRect(index) else { return false }
        let animated = animated ?? animatesProgramScrolls, anchor = (anchor ?? positionAnchor).map(mirrored)
        controller.scroll(toReveal: r, anchor: anchor, animated: animated, at: w.currentTime)
        if lazyContent != nil { pendingReveal = LazyReveal(target: .index(index), anchor: anchor, animated: animated) }
        w.scheduleFrame()
        return true
    }

    private func itemRect(_ index: Int) -> Rect? {
        if let lazy = lazyContent { return lazy.frame(ofItemAt: index).map { scaled($0) } }
        return content.children.indices.contains(index) ? scaled(content.children[index].frame) : nil
    }

    /// Keeps a program scroll aimed at its item while estimates turn into measurements.
    private func refinePendingReveal(at t: Double) {
        guard let reveal = pendingReveal else { return }
        let rect: Rect?, built: Bool
        switch reveal.target {
        case let .index(i): rect = itemRect(i); built = lazyContent?.isBuilt(i) ?? true
        case let .id(id): rect = contentRect(ofChild: id); built = content.view(withID: id) != nil
        }
        let (goesOn, aimed) = reveal.refine(&controller, itemRect: rect, isBuilt: built, at: t)
        if aimed { host?.scheduleFrame() }
        if !goesOn { pendingReveal = nil }
    }

    /// Scrolls to an offset in points (right to left, x counts from the right end).
    public func scroll(to offset: Point, animated: Bool? = nil) {
        guard let w = host else { return }
        controller.scroll(to: engineOffset(offset), animated: animated ?? animatesProgramScrolls, at: w.currentTime)
        w.scheduleFrame()
    }

    /// Back to the start (the top, and right to left the right end) at the smallest zoom, animated.
    package func returnToStart(at t: Double) {
        if configuration.isZoomEnabled {
            controller.zoom(to: configuration.minimumScale, around: Point(x: frame.width / 2, y: frame.height / 2), animated: false, at: t)
        }
        let x = laidOutMirrored ? controller.maximumOffset(.horizontal) : 0
        controller.scroll(to: Point(x: x, y: 0), animated: true, at: t)
        host?.scheduleFrame()
    }

    /// Zooms to `scale` (clamped to the configuration's minimum and maximum) around the middle of
    /// the viewport, on the engine's spring unless `animated` is false; a finger on the content
    /// keeps it. A value that is not a number is ignored.
    public func setZoom(_ scale: Double, animated: Bool = true) {
        guard let w = host, scale.isFinite else { return }
        controller.zoom(to: scale, around: Point(x: frame.width / 2, y: frame.height / 2), animated: animated, at: w.currentTime)
        w.scheduleFrame()
    }

    /// Brings `view` (a descendant) into view with the minimal scroll (focus, selection).
    public func reveal(_ view: View, animated: Bool = true) {
        guard let w = host else { return }
        let vr = view.frameInWindow, mine = frameInWindow
        let r = Rect(
            x: vr.minX - mine.minX + sampledOffset.x, y: vr.minY - mine.minY + sampledOffset.y,
            width: vr.width, height: vr.height)
        controller.scroll(toReveal: r, anchor: nil, animated: animated, at: w.currentTime)
        w.scheduleFrame()
    }

    /// Brings `view` into view in every scroll view around it, innermost first (focus, the
    /// screen reader's next element).

    /// Scrolls towards an edge while a dragged selection is past it, faster the further out
    ///. `point` is in window points; nil stops.
    package func autoscroll(towards point: Point?) {
        guard let w = host else { return }
        controller.autoscroll(velocity: point.map { autoscrollVelocity(for: $0) } ?? .zero, at: w.currentTime)
        w.scheduleFrame()
    }

    /// Points per second for a drag at `point` (window points): zero inside the viewport less a
    /// 24 pt margin, then 10 pt/s per point past it, at most 2000 pt/s.
    package func autoscrollVelocity(for point: Point) -> Point {
        let f = frameInWindow, margin = 24.0
        func speed(_ p: Double, _ lo: Double, _ hi: Double) -> Double {
            if p < lo + margin { return -min(2000, (lo + margin - p) * 10) }
            if p > hi - margin { return min(2000, (p - hi + margin) * 10) }
            return 0
        }
        let axes = configuration.axes
        return Point(
            x: axes.contains(.horizontal) ? speed(point.x, f.minX, f.maxX) : 0,
            y: axes.contains(.vertical) ? speed(point.y, f.minY, f.maxY) : 0)
    }

    // MARK: Sampling

    /// Reads the engine at `t`; reports position and page changes.
    open func sample(at t: Double) {
        var s = controller.state(at: t)
        if let lazy = lazyContent {
            let before = content.frame.size
            let settled = s.phase == .idle && indicatorState.opacity(at: t) == 0
            // The content is drawn at whole pixels: a pinned header placed there stays still.
            let pixels = host?.scaleFactor ?? 1
            let drawn = Point(x: (s.offset.x * pixels).rounded() / pixels, y: (s.offset.y * pixels).rounded() / pixels)
            var shift = lazy.prepare(visible: visibleContentRect(offset: drawn, scale: s.scale), settled: settled)
            // Right to left the lazy content counts from its right end: rows moved forward moved
            // left, and content that grew grew at its left.
            if laidOutMirrored { shift.x = content.frame.width - before.width - shift.x }
            if shift != .zero || content.frame.size != before {
                if shift != .zero { contentShifted = true }
                content.frame.size = filling(content.frame.size)
                controller.changeContent(size: content.frame.size, shiftedBy: shift * s.scale, at: t)
            }
            refinePendingReveal(at: t)
            s = controller.state(at: t)
        }
        sampledOffset = s.offset
        sampledScale = s.scale
        sampledPhase = s.phase
        if s.phase != .idle { lastActiveTime = t }
        if appearTime == nil { appearTime = t }
        let id = computeReportedID()
        if id != reportedID {
            reportedID = id
            onPositionChange?(id)
        }
        if configuration.isPagingEnabled, s.phase == .idle {
            let axis: Scrolling.Axis = configuration.axes.contains(.horizontal) ? .horizontal : .vertical
            let page = controller.currentPage(axis, at: t)
            if page != reportedPage { reportedPage = page; onPageChange?(page) }
        }
    }

    /// The page on screen in the last frame drawn (right to left, counted from the right end).
    public var currentPage: Int {
        let axis: Scrolling.Axis = configuration.axes.contains(.horizontal) ? .horizontal : .vertical
        return controller.pageSnapping(axis).nearestPage(to: sampledOffset[axis])
    }

    /// How many pages (of `configuration.pageSize`, or the viewport's size) the content has along
    /// the scrolling axis.
    public var pageCount: Int {
        controller.pageCount(configuration.axes.contains(.horizontal) ? .horizontal : .vertical)
    }

    /// Moves to `page` (page control taps animate; scrubbing jumps).
    public func setPage(_ page: Int, animated: Bool) {
        guard let w = host else { return }
        let axis: Scrolling.Axis = configuration.axes.contains(.horizontal) ? .horizontal : .vertical
        var target = sampledOffset
        target[axis] = controller.pageSnapping(axis).startOffset(ofPage: page)
        controller.scroll(to: target, animated: animated, at: w.currentTime)
        w.scheduleFrame()
    }

    // MARK: Drawing

    /// Content offset in whole device pixels: content moves by whole pixels, so a scroll frame
    /// never resamples text or images.
    package func contentOffset(pixelsAt scale: Double) -> Point {
        Point(x: (sampledOffset.x * scale).rounded(), y: (sampledOffset.y * scale).rounded())
    }

    /// Its fill, when opaque, is all that lies under the content; else what lies under it.
    @_spi(Hooks) override open var backdrop: Backdrop {
        guard let fill else { return .none }
        return fill.alpha == 255 && cornerRadius == 0 ? .uniform(fill) : .varied
    }

    @_spi(Hooks) override open var clipsContent: Bool { true }
    @_spi(Hooks) override open var clipCornerRadius: Double { cornerRadius }

    @_spi(Hooks) override open func drawChildren(in context: inout DrawContext) {
        context.canvas.save()
        context.clip(toBoundsOf: frame.size, cornerRadius: cornerRadius)
        let o = contentOffset(pixelsAt: context.scale)
        context.canvas.translate(dx: -o.x, dy: -o.y)
        let outer = context.scale
        context.scale *= sampledScale
        // Content is at the origin of the scroll view's content space.
        context.inEnvironment(of: content) { context in
            content.drawBackground(in: &context)
            content.draw(in: &context)
            content.drawChildren(in: &context)
            content.drawOverlay(in: &context)
        }
        context.scale = outer
        context.canvas.restore()
    }

    @_spi(Hooks) override open func drawOverlay(in context: inout DrawContext) {
        for indicator in indicatorGeometry(at: context.time) {
            if let track = indicator.track {
                context.fill(track, cornerRadius: 0, color: Color.indicator.withOpacity(0.06))
            }
            let alpha = UInt8((indicator.opacity * 89).rounded())  // black (white when dark) at 35 %
            context.fill(
                indicator.thumb,
                cornerRadius: indicator.thumb.width < indicator.thumb.height
                    ? indicator.thumb.width / 2 : indicator.thumb.height / 2,
                color: Color.indicator.withOpacity(Double(alpha) / 255))
        }
    }

    @_spi(Hooks) override open var contentTransform: (offset: Point, scale: Double)? { (sampledOffset, sampledScale) }

    @_spi(Hooks) override open func convertToChild(_ p: Point, _ child: View) -> Point {
        Point(
            x: (p.x + sampledOffset.x) / sampledScale - child.frame.minX,
            y: (p.y + sampledOffset.y) / sampledScale - child.frame.minY)
    }

    @_spi(Hooks) override open func hitTest(_ p: Point) -> View? {
        guard !isHidden, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else { return nil }
        return content.hitTest(convertToChild(p, content)) ?? self
    }

    // MARK: Indicators

    package typealias Indicator = ScrollIndicator

    /// The indicators as they stand: what `ScrollIndicators` draws from.
    var indicatorState: ScrollIndicators {
        ScrollIndicators(
            visibility: indicators, hidden: hiddenIndicatorAxes, axes: configuration.axes,
            zooms: configuration.isZoomEnabled, viewport: frame.size,
            content: Size(width: content.frame.width * sampledScale, height: content.frame.height * sampledScale),
            offset: sampledOffset, phase: sampledPhase, lastActive: lastActiveTime, appeared: appearTime,
            onLeft: laidOutRightToLeft)
    }

    /// Nothing it shows changes from `t` until the next input: its engine holds still (a
    /// finger may rest on it) and the last frame drew what the engine holds now.
    package func isStill(at t: Double) -> Bool {
        let s = controller.state(at: t)
        if s.phase == .idle { return !isAnimating(at: t) }
        return controller.isStill(at: t) && s.offset == sampledOffset && s.scale == sampledScale && s.phase == sampledPhase
    }

    /// True while the screen does not yet show this view at rest: the last frame drawn caught it
    /// moving (the engine may have settled since, between frames), or an automatic indicator is
    /// still lingering or fading. The window keeps drawing meanwhile.
    public func isAnimating(at t: Double) -> Bool {
        if sampledPhase != .idle { return true }
        // Only automatic indicators fade; the geometry is empty once faded, and when there is no
        // indicator on any axis (content fits, or a page control hides it).
        return indicators == .automatic && !indicatorGeometry(at: t).isEmpty
    }

    /// Thumb (and track) rectangles in local points (see `ScrollIndicators.geometry(at:)`).
    package func indicatorGeometry(at t: Double) -> [Indicator] { indicatorState.geometry(at: t) }

    /// Long content (more than four viewports) lets a finger on the indicator scrub.
    func scrubbableIndicator(at p: Point, time t: Double) -> Indicator? { indicatorState.scrubbable(at: p, time: t) }

    /// Scrubbing: the thumb follows the finger; the content jumps to match.
    func scrub(_ indicator: Indicator, to p: Point, grabOffset: Double, time t: Double) {
        var target = sampledOffset
        target[indicator.axis] =
            indicatorState.scrubFraction(indicator, at: p, grabOffset: grabOffset)
            * controller.maximumOffset(indicator.axis)
        controller.scroll(to: target, animated: false, at: t)
        lastActiveTime = t
    }
}
