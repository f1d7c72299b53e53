import Geometry
import Raster
import Scrolling

/// Space inside a view's edges, in points.
public struct EdgeInsets: Hashable, Sendable {
    /// Space inside the top edge, in points.
    public var top: Double
    /// Space inside the leading (left) edge, in points.
    public var leading: Double
    /// Space inside the bottom edge, in points.
    public var bottom: Double
    /// Space inside the trailing (right) edge, in points.
    public var trailing: Double
    /// Insets of the given points on each edge; 0 where omitted.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    /// The same inset, `all` points, on all four edges.
    public init(_ all: Double) { self.init(top: all, leading: all, bottom: all, trailing: all) }
    /// `horizontal` points on the leading and trailing edges, `vertical` on the top and bottom.
    public init(horizontal: Double, vertical: Double) {
        self.init(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
    }
    /// No inset on any edge.
    public static let zero = EdgeInsets()
    package var horizontal: Double { leading + trailing }
    package var vertical: Double { top + bottom }
}

/// The stages of a drag delivered to `View.onDrag`.
public enum DragPhase: Hashable, Sendable {
    /// The touch or pointer came down on the view.
    case began
    /// It moved.
    case moved
    /// It lifted.
    case ended
    /// The touch was cancelled instead of lifting.
    case cancelled
}

/// A node of the retained view tree. Frames are in points, in the coordinate space of
/// the parent's content; the window turns points into pixels with its scale factor.
///
/// A class because views have identity: the tree holds them, scroll views and focus refer to
/// them, and apps keep references to update them.
open class View {
    /// Stable identity: reported in state JSON, used by scroll positions and focus.
    public var id: String?
    /// Position and size in the parent's content coordinates (set by the parent's layout; a
    /// custom container sets its children's in `layoutChildren`).
    public var frame: Rect = .zero
    /// The subviews in drawing order: later ones draw on top and are hit by touches first.
    public private(set) var children: [View] = []
    /// The view whose children include this one (held weakly); nil outside a tree.
    public private(set) weak var parent: View?
    /// Fixed size in points; nil lets the view size itself.
    public var width: Double? { didSet { setNeedsLayout() } }
    /// Fixed height in points; nil lets the view size itself.
    public var height: Double? { didSet { setNeedsLayout() } }
    /// Called on a tap (a touch that did not move past the slop, or Enter on the focused view).
    public var onTap: (() -> Void)?
    /// Called when a touch rests on the view for 500 ms without moving past the slop; its lift
    /// is then no tap.
    public var onLongPress: (() -> Void)?
    /// True while a touch presses the view: the nearest view with `onTap` or `onLongPress` under
    /// a touch that rested ~100 ms without scrolling (at once outside scroll views), or briefly
    /// after a quick tap. A touch that turns into a scroll unpresses it. Drawn by `drawPressed`.
    public package(set) var isPressed = false {
        didSet {
            guard isPressed != oldValue else { return }
            setNeedsDisplay()
            pressedChanged()
        }
    }
    /// Called when `isPressed` changes, for a view whose pressed look is more than a shade.
    @_spi(Hooks) open func pressedChanged() {}
    /// Makes the view draggable (a selection handle, an item being moved): a touch or pointer
    /// that starts on it goes to it, in window points, instead of scrolling. While it is held
    /// past the edge of the scroll view around it, that view scrolls towards the finger, faster
    /// the further out.
    public var onDrag: ((DragPhase, Point) -> Void)?
    /// Where the touch that called `onTap` or `onLongPress` was, in window points (nil for a
    /// key): a text field places its caret there.
    package var touchPoint: Point?
    /// What the app said about this view's accessibility (the four modifiers).
    package var accessibility = AccessibilitySettings()
    /// The updates `follow(_:)` keeps running when the app's model changes.
    package var followers: [StateFollower] = []

    /// What a screen reader makes of this view by default: a view that reacts to a tap
    /// is a button that says the texts inside it; other plain views are not elements.
    @_spi(Hooks) open var accessibilityDescription: AccessibilityDescription? {
        if accessibility.adjust != nil {
            return AccessibilityDescription(role: .adjustable, label: containedTexts.joined(separator: ", "), combinesChildren: true)
        }
        // A sheet or a dialog takes a tap beside it to close, but it is no button: read as one,
        // it said all it holds in one breath and hid its buttons (Esc closes it).
        guard onTap != nil || onLongPress != nil, !(self is ModalContent) else { return nil }
        // A tappable row of a list (a child of a scroll view's content) is a list row.
        let inList = parent?.parent?.presentsChildrenAsList == true
        return AccessibilityDescription(
            role: inList ? .listRow : .button, label: containedTexts.joined(separator: ", "),
            combinesChildren: true)
    }

    /// Its children in the order a screen reader reads them: as drawn, unless a view draws one
    /// part over the rest that is read first (a navigation bar over the screen it names).
    @_spi(Hooks) open var childrenInReadingOrder: [View] { children }

    /// What this view itself says when a row around it is spoken as one: a label's text, a
    /// field's placeholder; nil for views that say nothing of their own.
    @_spi(Hooks) open var accessibilityText: String? { nil }

    /// Bytes of laid-out text the view keeps between frames (a label's shaped lines), for the
    /// window's memory figures.
    @_spi(Hooks) open var retainedTextBytes: Int { 0 }

    /// The window a tree's root belongs to (the root of a window's tree knows it); nil for
    /// any other view.
    package var rootHost: ViewHost? { nil }
    /// True when its children place themselves (the window's root, whose layers are the keyboard
    /// and the edit menu): showing or hiding one lays nothing out again.
    package var childrenPlaceThemselves: Bool { false }

    /// True for a view whose content's children are the rows of a list (a scroll view): a
    /// tappable row in it is a list row to the screen reader, not a button.
    @_spi(Hooks) open var presentsChildrenAsList: Bool { false }

    /// Takes part in Tab / arrow focus navigation.
    public var isFocusable = false
    /// Hides the view and its subtree: not drawn, not hit by touches, left out of stack layout
    /// and of the accessibility tree.
    public var isHidden = false {
        // Stacks leave hidden views out: showing or hiding one of the app's views lays the tree
        // out again. The window's own layers (the keyboard, the edit menu) place themselves.
        didSet {
            guard isHidden != oldValue else { return }
            if let animation = Transaction.current, let host {
                if isHidden {
                    if leave(with: animation, at: host.time) { host.startedAnimating(self) }
                } else {
                    isLeaving = false
                    host.animateLayout(animation, entering: self)
                }
            }
            if parent?.childrenPlaceThemselves != true { setNeedsLayout() }
            setNeedsDisplay()
        }
    }

    /// Limits stacks keep this view's size within, whatever it asks for or is offered.
    public var minWidth: Double? { didSet { setNeedsLayout() } }
    /// Largest width in points stacks give this view; nil: no limit.
    public var maxWidth: Double? { didSet { setNeedsLayout() } }
    /// Smallest height in points stacks give this view; nil: no limit.
    public var minHeight: Double? { didSet { setNeedsLayout() } }
    /// Largest height in points stacks give this view; nil: no limit.
    public var maxHeight: Double? { didSet { setNeedsLayout() } }

    /// `size` within this view's minimum and maximum sizes.
    package func constrained(_ size: Size) -> Size {
        func clamp(_ v: Double, _ lo: Double?, _ hi: Double?) -> Double {
            var v = v
            if let hi, v > hi { v = hi }
            if let lo, v < lo { v = lo }
            return v
        }
        return Size(width: clamp(size.width, minWidth, maxWidth), height: clamp(size.height, minHeight, maxHeight))
    }

    /// In a row that cannot give every child its ideal width, children with a higher priority
    /// get theirs first (`layoutPriority(_:)`); 0 by default.
    public var layoutPriority = 0.0 { didSet { setNeedsLayout() } }
    /// The view keeps its ideal width in a row, whatever is left for the others (`fixedSize()`).
    public var isFixedSize = false { didSet { setNeedsLayout() } }

    /// Takes a share of the height a vertical stack's other children leave (`flexible()`).
    public var isFlexible = false { didSet { setNeedsLayout() } }

    /// True when this view, given no height, shares the height a vertical stack's other
    /// children leave: flexible views, spacers, and scroll views that scroll vertically (as a
    /// SwiftUI `ScrollView` or `List` takes the space its parent offers).
    @_spi(Hooks) open var fillsStackHeight: Bool { isFlexible }

    /// A view with the identity `id` (nil: none), no children and a zero frame.
    public init(id: String? = nil) { self.id = id }

    // MARK: Background, padding and alignment (every view)

    /// Painted under the view's own drawing and its children: a filled, optionally rounded
    /// rectangle with a border drawn inside its edge (`.background(_:cornerRadius:border:)`).
    /// Changed inside `withAnimation`, the colour moves from the old one to the new.
    public var fill: Color? {
        didSet {
            if let oldValue, let fill, oldValue != fill, Transaction.current != nil, host != nil {
                let theme = environment.theme
                animate(.fill, from: theme.resolve(oldValue).animatableValues, to: theme.resolve(fill).animatableValues)
            } else {
                animations[.fill] = nil
            }
            setNeedsDisplay()
        }
    }
    /// Radius of the background's and border's corners, in points; 0 (the default) draws square
    /// corners. Animated inside `withAnimation`.
    public var cornerRadius = 0.0 {
        didSet {
            // A built-in view's corners were the theme's: an animation starts from those.
            let from = themedCorner.map { environment.theme.cornerRadii[keyPath: $0] } ?? oldValue
            themedCorner = nil
            animate(.cornerRadius, from: [from], to: [cornerRadius])
            setNeedsDisplay()
        }
    }

    /// The theme's radius a built-in view's corners take (a button's), until `cornerRadius` is set.
    package var themedCorner: KeyPath<CornerRadii, Double>? { didSet { setNeedsDisplay() } }
    /// Gives the view's corners the theme's radius at `role` (a built-in view's look).
    @discardableResult
    package func cornered(_ role: KeyPath<CornerRadii, Double>) -> Self { themedCorner = role; return self }
    /// The corner radius under `theme`: the theme's for a built-in view, else `cornerRadius`.
    package func cornerRadius(in theme: Theme) -> Double {
        themedCorner.map { theme.cornerRadii[keyPath: $0] } ?? cornerRadius
    }

    // MARK: Effects (drawn, not laid out; animated inside `withAnimation`)

    /// How opaque the view and its subtree are drawn, as one layer: 1 (the default) opaque, 0
    /// invisible (still laid out and touchable). Animated inside `withAnimation`.
    public var opacity = 1.0 {
        didSet {
            if !opacity.isFinite { opacity = 1; return }
            opacity = min(max(opacity, 0), 1)
            animate(.opacity, from: [oldValue], to: [opacity])
            setNeedsDisplay()
        }
    }
    /// Points the view and its subtree are drawn moved by, its layout and touches unchanged
    /// (SwiftUI's `offset`). Animated inside `withAnimation`.
    public var offset = Point.zero {
        willSet { setNeedsDisplay() }
        didSet {
            if !offset.isFinite || abs(offset.x) > 1e6 || abs(offset.y) > 1e6 { offset = .zero; return }
            animate(.offset, from: [oldValue.x, oldValue.y], to: [offset.x, offset.y])
            setNeedsDisplay()
        }
    }
    /// The view and its subtree drawn scaled about the view's centre (1, the default: its own
    /// size), sharp at every scale: it is drawn again at that size, not stretched. Layout and
    /// touches are unchanged. Animated inside `withAnimation`.
    public var scaleEffect = 1.0 {
        willSet { setNeedsDisplay() }
        didSet {
            if !scaleEffect.isFinite { scaleEffect = 1; return }
            scaleEffect = min(max(scaleEffect, 0), 16)
            animate(.scale, from: [oldValue], to: [scaleEffect])
            setNeedsDisplay()
        }
    }
    /// Degrees the view and its subtree are drawn turned clockwise about the view's centre (0,
    /// the default: upright): drawn as a layer, then turned with bilinear sampling and
    /// anti-aliased edges. Layout and touches are unchanged. Animated inside `withAnimation`
    /// (a spinner: `withAnimation(.linear(duration: 1).repeatForever(autoreverses: false))
    /// { icon.rotationEffect = 360 }`).
    public var rotationEffect = 0.0 {
        willSet { setNeedsDisplay() }
        didSet {
            if !rotationEffect.isFinite || abs(rotationEffect) > 1e6 { rotationEffect = 0; return }
            animate(.rotation, from: [oldValue], to: [rotationEffect])
            setNeedsDisplay()
        }
    }
    /// The soft shadow drawn under the view's background (`shadow(radius:y:)`); nil: none.
    package var shadowStyle: ShadowStyle? {
        willSet { setNeedsDisplay() }
        didSet { setNeedsDisplay() }
    }
    /// How the view comes in when it is added, and goes when it is removed, inside
    /// `withAnimation`; nil (the default): `.opacity`.
    public var transition: Transition?

    /// The animations running on this view's properties.
    package var animations: [AnimatedProperty: PropertyAnimation] = [:]
    /// Children removed inside `withAnimation`, drawn leaving by their transition until it ends.
    package var departing: [View] = []
    /// Where the view was drawn last, in its parent's content points: what a frame that moves
    /// it must redraw besides where it is now.
    package var drawnVisualFrame: Rect?
    /// True while the view goes out by its transition (hidden or removed inside `withAnimation`):
    /// drawn until the transition ends.
    package var isLeaving = false
    /// The parent a departing view left, which draws it until its transition ends.
    package weak var departedFrom: View?
    /// Colour of the border drawn inside the view's edge; nil (the default) draws none.
    public var borderColor: Color? { didSet { setNeedsDisplay() } }
    /// Width of the border in points, 1 by default (at least 2 under high contrast); 0 draws none.
    public var borderWidth = 1.0 { didSet { setNeedsDisplay() } }

    /// Space between the view's edges (and its background) and its content: a label's text,
    /// a container's children, a stack's rows (`.padding(_:)`).
    // A value set again unchanged lays nothing out: a view that sets its parts' padding while it
    // lays out (a sheet's panel) would otherwise ask for a layout every frame and never rest.
    open var padding: EdgeInsets = .zero { didSet { if padding != oldValue { setNeedsLayout() } } }

    /// Where content smaller than the view sits in it (`.frame(width:height:alignment:)`): a
    /// label's text, or the children of a plain container, each at its own size. Nil: a
    /// label's text starts at the top and children fill the view.
    public var contentAlignment: UnitPoint? { didSet { if contentAlignment != oldValue { setNeedsLayout() } } }

    /// The view's bounds less its padding, in local points.
    package var contentBounds: Rect {
        Rect(
            x: padding.leading, y: padding.top, width: max(0, frame.width - padding.horizontal),
            height: max(0, frame.height - padding.vertical))
    }

    /// What the background alone paints: nothing, a flat colour (uniform), or more (a border,
    /// rounded corners). The backdrop of views that draw nothing else.
    package var backgroundBackdrop: Backdrop {
        let bordered = borderColor != nil && borderWidth > 0
        guard let fill else { return bordered ? .varied : .none }
        return fill.alpha == 255 && !bordered && cornerRadius == 0 && themedCorner == nil ? .uniform(fill) : .varied
    }

    /// Draws `fill` and the border; the window calls it before `draw(in:)`.
    package func drawBackground(in context: inout DrawContext) {
        guard fill != nil || borderColor != nil else { return }
        let bounds = Rect(origin: .zero, size: frame.size)
        let cornerRadius = presentedCornerRadius(at: context.time, in: context.theme)
        if let fill = presentedFill(at: context.time) { context.fill(bounds, cornerRadius: cornerRadius, color: context.fillColor(fill)) }
        if let borderColor, borderWidth > 0 {
            context.stroke(
                bounds, cornerRadius: cornerRadius, lineWidth: context.isHighContrast ? max(2, borderWidth) : borderWidth,
                color: context.borderColor(borderColor))
        }
    }

    /// Set once the window warned that this view, holding content, was laid out with no area.
    package var warnedEmpty = false

    // MARK: Tree

    /// Appends `child` as the last, topmost child, taking it from its old parent first.
    public func add(_ child: View) { insert(child, at: children.count) }

    /// Inserts `child` at `index` among the children (clamped to the list), taking it from its
    /// old parent first.
    public func insert(_ child: View, at index: Int) {
        // Moved from another parent, it goes at once; taken back while leaving, it stays.
        Transaction.immediately { child.removeFromParent() }
        child.stopLeaving()
        child.parent = self
        children.insert(child, at: max(0, min(children.count, index)))
        joined(child)
        if let animation = Transaction.current { host?.animateLayout(animation, entering: child) }
        setNeedsLayout()
    }

    /// `child` joined this view's children: its subtree's followers post to this window's loop.
    private func joined(_ child: View) {
        // Under another parent its environment may differ (a subtree with its own theme).
        host?.environmentChanged()
        if let scheduler = host?.timers { child.adoptFollowers(scheduler) }
    }

    /// Takes the view out of its parent's children; does nothing when it has no parent. Inside
    /// `withAnimation` it goes out by its `transition`, drawn where it was until that ends.
    public func removeFromParent() {
        guard let p = parent else { return }
        let host = p.host
        let leavingAt = Transaction.current.flatMap { animation in host.map { (animation, $0.time) } }
        p.children.removeAll { $0 === self }
        parent = nil
        p.setNeedsLayout()
        if let (animation, t) = leavingAt, let host, leave(with: animation, at: t) {
            departedFrom = p
            p.departing.append(self)
            host.startedAnimating(self)
        }
    }

    /// Adds `child` at `index` without asking the window for a layout: a lazy stack places the
    /// rows it builds itself, between layouts.
    /// A row that holds animated views (a carousel in a lazy list) makes the window collect
    /// them again.
    package func attach(_ child: View, at index: Int) {
        child.removeFromParent()
        child.parent = self
        children.insert(child, at: max(0, min(children.count, index)))
        joined(child)
        if child.holdsAnimatedView { host?.treeChanged() }
    }

    /// Removes the child at `index` without asking the window for a layout.
    package func detachChild(at index: Int) {
        if children[index].holdsAnimatedView { host?.treeChanged() }
        let child = children.remove(at: index)
        child.parent = nil
    }

    private var holdsAnimatedView: Bool {
        self is AnimatedView || children.contains { $0.holdsAnimatedView }
    }

    /// Replaces all children (re-ordering keeps identities; a scroll view holding a position
    /// keeps it on screen).
    /// Inside `withAnimation`, the views that go and the views that come do so by their
    /// transitions.
    public func setChildren(_ views: [View]) {
        let host = host, animation = Transaction.current
        for c in children where !views.contains(where: { $0 === c }) {
            c.parent = nil
            if let animation, let host, c.leave(with: animation, at: host.time) {
                c.departedFrom = self
                departing.append(c)
                host.startedAnimating(c)
            }
        }
        let scheduler = host?.timers
        if views.contains(where: { $0.parent !== self }) { host?.environmentChanged() }
        for v in views where v.parent !== self {
            Transaction.immediately { v.removeFromParent() }
            v.stopLeaving()
            v.parent = self
            if let scheduler { v.adoptFollowers(scheduler) }
            if let animation { host?.animateLayout(animation, entering: v) }
        }
        children = views
        setNeedsLayout()
    }

    /// This view, then its parent and so on up to the root: a walk, nothing is allocated.
    package var selfAndAncestors: UnfoldFirstSequence<View> { sequence(first: self, next: { $0.parent }) }
    /// Its parent, then the parent's parent and so on up to the root.
    package var ancestors: DropFirstSequence<UnfoldFirstSequence<View>> { selfAndAncestors.dropFirst() }

    /// How a line of the log names this view among others: its id in quotes, else its kind
    /// ("'cart'", "Label").
    package var logName: String { id.map { "'\($0)'" } ?? String(describing: type(of: self)) }

    /// How a line of the log about this view starts: `kind` and its id ("Stack 'prices'",
    /// "Slider without an id").
    package func logTitle(_ kind: String) -> String { "\(kind) \(id.map { "'\($0)'" } ?? "without an id")" }

    /// The window whose tree holds this view, known by what views need of it; nil while it is
    /// in none. (`window` gives the window itself, in `UI`.)
    package var host: ViewHost? {
        for v in selfAndAncestors where v.parent == nil { return v.rootHost }
        return nil
    }

    /// What the tree hands down to this view: the window's environment, changed by every
    /// ancestor's `transformEnvironment(_:)` from the root down.
    package var environment: ViewEnvironment {
        var environment = parent?.environment ?? rootHost?.environment ?? ViewEnvironment()
        applyOwnEnvironment(to: &environment)
        return environment
    }

    /// Changes what the parent hands down as this view's own settings do: its
    /// `layoutDirection(_:)`, then its `transformEnvironment(_:)`. The one place both apply, in
    /// `environment` and when drawing.
    package func applyOwnEnvironment(to environment: inout ViewEnvironment) {
        if let explicitLayoutDirection { environment.layoutDirection = explicitLayoutDirection }
        environmentChange?(&environment)
    }

    /// This view changes the environment of its subtree.
    package var changesEnvironment: Bool { explicitLayoutDirection != nil || environmentChange != nil }

    /// The direction set on this view with `layoutDirection(_:)`, if any.
    package private(set) var explicitLayoutDirection: LayoutDirection?

    /// Lays out this view and its subtree in `direction`, whatever the window's (a Latin
    /// phone-number row inside an Arabic screen, an Arabic card on an English one).
    @discardableResult
    public func layoutDirection(_ direction: LayoutDirection) -> Self {
        explicitLayoutDirection = direction
        setNeedsLayout()
        setNeedsDisplay()
        return self
    }

    /// The direction this view lays out in: the nearest `layoutDirection(_:)` up the tree, else
    /// the window's. A walk up the tree that builds nothing, so layout can ask it of every view.
    package var resolvedLayoutDirection: LayoutDirection {
        for v in selfAndAncestors {
            if let d = v.explicitLayoutDirection { return d }
            if v.parent == nil { return v.rootHost?.layoutDirection ?? .leftToRight }
        }
        return .leftToRight
    }

    /// True when this view lays out right to left.
    package var isRightToLeft: Bool { resolvedLayoutDirection == .rightToLeft }

    /// Mirrors the children's frames across this view's vertical centre line when it lays out
    /// right to left. Containers place children left to right, then call this: padding,
    /// alignment and the order of a row all mirror, and a child's own layout is untouched
    /// (it is in the child's coordinates).
    package func mirrorChildrenIfRightToLeft() {
        guard isRightToLeft else { return }
        for c in children { c.frame.origin.x = frame.width - c.frame.maxX }
    }

    /// Changes the environment of this view and its subtree (a theme, gesture settings; the
    /// layout direction is `layoutDirection(_:)`'s, which layout reads without this closure),
    /// after the changes made before.
    package func transformEnvironment(_ change: @escaping (inout ViewEnvironment) -> Void) {
        let earlier = environmentChange
        environmentChange = { environment in
            earlier?(&environment)
            change(&environment)
        }
        host?.environmentChanged()
        setNeedsLayout()
        setNeedsDisplay()
    }
    private var environmentChange: ((inout ViewEnvironment) -> Void)?

    /// The first view in this subtree (self included) with `id`.
    public func view(withID id: String) -> View? {
        if self.id == id { return self }
        for c in children { if let found = c.view(withID: id) { return found } }
        return nil
    }

    // MARK: Invalidation

    /// Marks the window's layout out of date: it lays out its tree again before it next draws
    /// or handles input. Does nothing outside a window. Inside `withAnimation`, the views the
    /// layout moves glide to their new places.
    public func setNeedsLayout() {
        guard let host else { return }
        host.layoutRequested(by: self)
        if let animation = Transaction.current { host.animateLayout(animation, entering: nil) }
    }
    /// Redraws the view (where it is now and where it ends up) in the next frame, which it
    /// schedules. Does nothing outside a window.
    public func setNeedsDisplay() { host?.invalidate(self) }

    // MARK: Layout (override points)

    /// The size this view wants within `proposal` (a side may be infinite: as much as wanted).
    open func sizeThatFits(_ proposal: Size) -> Size {
        Size(
            width: width ?? (proposal.width.isFinite ? proposal.width : 0),
            height: height ?? (proposal.height.isFinite ? proposal.height : 0))
    }

    /// Places the children inside `bounds` (local coordinates). Default: each child fills the
    /// bounds less the padding, or, with a content alignment, sits there at its own size.
    open func layoutChildren() {
        let inner = contentBounds
        for c in children {
            if let a = contentAlignment {
                var s = c.constrained(c.sizeThatFits(Size(width: c.width ?? inner.width, height: c.height ?? .infinity)))
                s.width = min(s.width, inner.width); s.height = min(s.height, inner.height)
                c.frame = Rect(
                    x: inner.minX + (inner.width - s.width) * a.x, y: inner.minY + (inner.height - s.height) * a.y,
                    width: s.width, height: s.height)
            } else {
                c.frame = inner
            }
            c.layoutChildren()
        }
        mirrorChildrenIfRightToLeft()
    }

    // MARK: Drawing (override points)

    /// Draws this view's own content in local coordinates (children are drawn after it).
    open func draw(in context: inout DrawContext) {}

    /// Draws children; scroll views and stacks override to translate, clip and cull.
    @_spi(Hooks) open func drawChildren(in context: inout DrawContext) {
        for c in children where !c.isHidden { context.drawChild(c) }
    }

    /// What this view paints under its children. `.varied` unless a subclass (or, from another
    /// module of the package, `declaredBackdrop`) knows better, so a view that draws anything
    /// is never scrolled over by copying pixels.
    @_spi(Hooks) open var backdrop: Backdrop { declaredBackdrop ?? .varied }
    package var declaredBackdrop: Backdrop?

    /// True when children are clipped to the bounds (the window then clips their damage).
    @_spi(Hooks) open var clipsContent: Bool { false }

    /// The corner radius of that clip (a rounded clip is never scrolled by copying pixels).
    @_spi(Hooks) open var clipCornerRadius: Double { 0 }

    /// Drawn after children (indicators, focus rings). Local coordinates.
    @_spi(Hooks) open func drawOverlay(in context: inout DrawContext) {}

    /// The pressed look, drawn over the view and its children while `isPressed`: a light shade
    /// of its shape. Override for another look.
    @_spi(Hooks) open func drawPressed(in context: inout DrawContext) {
        context.fill(Rect(origin: .zero, size: frame.size), cornerRadius: pressedCornerRadius(in: context.theme), color: Color.pressedShade)
    }

    /// The corners of the pressed shade: a wrapper (one child that fills it) looks like what
    /// it wraps, so a card wrapped in an `Adaptive` gets the card's rounded corners.
    @_spi(Hooks) open func pressedCornerRadius(in theme: Theme) -> Double {
        guard children.count == 1, let only = children.first, only.frame.size == frame.size else { return 0 }
        return only.pressedCornerRadius(in: theme)
    }

    // MARK: Hit testing

    /// How this view moves and zooms what it holds, as last sampled (a scroll view's content
    /// offset and scale); nil when its children sit where their frames say.
    @_spi(Hooks) open var contentTransform: (offset: Point, scale: Double)? { nil }

    /// Converts a point in this view's local coordinates into a child's local coordinates.
    @_spi(Hooks) open func convertToChild(_ p: Point, _ child: View) -> Point {
        Point(x: p.x - child.frame.minX, y: p.y - child.frame.minY)
    }

    /// The deepest visible view containing `p` (local coordinates), topmost first.
    @_spi(Hooks) open func hitTest(_ p: Point) -> View? {
        guard !isHidden, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else { return nil }
        for c in children.reversed() {
            if let hit = c.hitTest(convertToChild(p, c)) { return hit }
        }
        return self
    }

    /// `point` (window points) in this view's own points.
    package func localPoint(fromWindow point: Point) -> Point {
        let f = frameInWindow
        return Point(x: point.x - f.minX, y: point.y - f.minY)
    }

    /// `r`, in this view's content points (where its children's frames are), in window points.
    package func windowRect(ofChildRect r: Rect) -> Rect {
        let (origin, k) = childPlacement
        return Rect(x: origin.x + r.minX * k, y: origin.y + r.minY * k, width: r.width * k, height: r.height * k)
    }

    /// This view's frame in window points, at the scroll offsets the window last sampled.
    public var frameInWindow: Rect {
        let (origin, scale) = parent?.childPlacement ?? (Point.zero, 1)
        let size = Size(width: frame.width * scale, height: frame.height * scale)
        return Rect(origin: origin + Point(x: frame.minX, y: frame.minY) * scale, size: size)
    }

    /// Where this view's children show: a child's frame, scaled by `scale` and moved by `origin`,
    /// in window points. From the root down, each view's place, then its content transform (a
    /// scroll view's offset and zoom). Asked many times a frame (hit tests, damage, a clip's
    /// covering walk), it walks up without building the chain of ancestors.
    private var childPlacement: (origin: Point, scale: Double) {
        var (origin, scale) = parent?.childPlacement ?? (Point.zero, 1)
        origin = origin + Point(x: frame.minX, y: frame.minY) * scale
        if let transform = contentTransform {
            origin = origin - transform.offset
            scale *= transform.scale
        }
        return (origin, scale)
    }
}

/// Holds views that are out of a window's tree (not drawn, not found by id, not read) but are
/// measured with its fonts and text size: the layouts a `ViewThatFits` does not show.
package final class Shelf: View {
    /// The view in the tree whose window the views on the shelf measure with.
    package weak var owner: View?
    override package var rootHost: ViewHost? { owner?.host }
}

/// The root of a window's tree: how a view finds its window.
package final class RootView: View {
    package weak var windowHost: ViewHost?
    override package var rootHost: ViewHost? { windowHost }
    override package var childrenPlaceThemselves: Bool { true }
    @_spi(Hooks) override public var backdrop: Backdrop { .none }
}
