import Localization
@_spi(Hooks) import ViewCore
import Geometry
import Physics
import Raster
import Scrolling

/// Screens on a stack, as UINavigationController and SwiftUI's `NavigationStack` keep them
///: `push` slides a screen in from the trailing edge over the one below, the bar's back
/// button, Esc or `pop` slide it away, and a finger from the leading edge drags it away and
/// lets it go: it completes or cancels by where and how fast it was released. A screen below
/// stays as it was (its scroll views keep their position) while it is off the tree.
///
/// The edge swipe is a gesture among the others: from the leading 20 points it is the stack's,
/// anywhere else a horizontal scroll view under the finger takes it.
public final class NavigationStack: View, AnimatedView, TouchTarget, BackNavigating {
    package var canGoBack: Bool { canPop && !isTransitioning }
    package func goBack() { pop() }
    package func goBackToStart() { popToRoot() }

    /// The screens, bottom (root) first. A popped screen stays last until its slide ends.
    public private(set) var screens: [View]
    /// Each screen's title, looked up in the app's catalog whenever the bar shows it.
    private var titles: [LocalizedStringKey?]
    /// Shows the bar with the title and the back button; off, the app draws its own way back
    /// (and the edge swipe and Esc still work).
    public var showsBar = true { didSet { setNeedsLayout() } }
    package let bar: NavigationBar
    /// Called after a screen was pushed or popped (when its slide ends), with the screens.
    public var onChange: (([View]) -> Void)?

    /// How the top two screens move: the upper one (pushed, or leaving) sits `x` points from
    /// its place; the lower one a third as far, behind a shade.
    package struct ScreenSlide {
        package enum Kind: String { case push, pop, interactive }
        package var kind: Kind
        package var upper: View
        package var lower: View
        package var x: Double
        /// The slide after a push, pop or release; nil while a finger holds the screen.
        package var motion: (spring: SpringSimulation, start: Double)?
        /// Ends with the upper screen gone (a pop), not in place (a push or cancelled swipe).
        package var removesUpper: Bool
    }
    package private(set) var slide: ScreenSlide?
    /// The finger of an edge swipe: where it came down, and whether it took the screen yet.
    private var edgeTouch: (down: Point, dragging: Bool, tracker: VelocityTracker)?

    static let edgeWidth = 20.0
    static let parallax = 0.3
    /// The slides move as program scrolls do.
    static let spring = ScrollConfiguration().animationSpring
    /// Points per second past which a release completes or cancels whatever the position.
    static let flickVelocity = 300.0

    /// A stack whose bottom screen is `root`, with no title in the bar.
    public convenience init(id: String? = nil, root: View) {
        self.init(id: id, root: root, titled: nil)
    }

    private init(id: String?, root: View, titled title: LocalizedStringKey?) {
        screens = [root]
        titles = [title]
        bar = NavigationBar(id: id.map { "\($0)-bar" }, backID: id.map { "\($0)-back" } ?? "back")
        super.init(id: id)
        add(root)
        add(bar)
        bar.back.onTap = { [weak self] in _ = self?.pop() }
        updateBar()
    }

    /// A stack whose bottom screen is `root`, titled `title` in the bar: a literal is a catalog
    /// key, looked up as a label's is.
    public convenience init(id: String? = nil, root: View, title: LocalizedStringKey) {
        self.init(id: id, root: root, titled: title)
    }

    /// A stack titled with `title` as it is, never looked up (a `String` variable).
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(id: String? = nil, root: View, title: S) {
        self.init(id: id, root: root, title: LocalizedStringKey(verbatim: String(title)))
    }

    /// The bar is drawn over the screens (a sliding screen passes under it) but read first: its
    /// title names the screen, and its back button comes before the content, as on a phone.
    @_spi(Hooks) override public var childrenInReadingOrder: [View] { [bar] + children.filter { $0 !== bar } }

    /// Like SwiftUI's, it takes the height its stack offers.
    @_spi(Hooks) override public var fillsStackHeight: Bool { true }

    /// The last of `screens`: the screen shown, or the one leaving while a pop slides.
    public var topScreen: View { screens[screens.count - 1] }
    /// True when a screen lies above the root, so `pop` has something to take away.
    public var canPop: Bool { screens.count > 1 }
    /// True while screens slide: after an animated push or pop, or while an edge swipe holds one.
    public var isTransitioning: Bool { slide != nil }

    // MARK: Pushing and popping

    /// Puts `screen` on top with no title, sliding in from the trailing edge unless `animated`
    /// is false.
    public func push(_ screen: View, animated: Bool = true) {
        push(screen, titled: nil, animated: animated)
    }

    /// Puts `screen` on top, titled `title` (a literal is a catalog key), sliding in from the
    /// trailing edge unless `animated` is false.
    public func push(_ screen: View, title: LocalizedStringKey, animated: Bool = true) {
        push(screen, titled: title, animated: animated)
    }

    private func push(_ screen: View, titled title: LocalizedStringKey?, animated: Bool) {
        finishTransition()
        guard !screens.contains(where: { $0 === screen }) else { return }
        let lower = topScreen
        screens.append(screen)
        titles.append(title)
        insert(screen, at: children.count - 1)
        updateBar()
        if animated, let t = host?.time {
            slide = ScreenSlide(
                kind: .push, upper: screen, lower: lower, x: frame.width,
                motion: nil, removesUpper: false)
            slide(to: 0, velocity: 0, at: t)
        } else {
            lower.removeFromParent()
            onChange?(screens)
        }
    }

    /// Puts `screen` on top, titled with `title` as it is (a model's name, never looked up).
    @_disfavoredOverload
    public func push<S: StringProtocol>(_ screen: View, title: S, animated: Bool = true) {
        push(screen, title: LocalizedStringKey(verbatim: String(title)), animated: animated)
    }

    /// Takes the top screen away (sliding unless `animated` is false) and returns it; nil when
    /// only the bottom screen is left.
    @discardableResult
    public func pop(animated: Bool = true) -> View? {
        finishTransition()
        guard canPop else { return nil }
        let upper = topScreen, lower = screens[screens.count - 2]
        insert(lower, at: 0)
        if animated, let t = host?.time {
            slide = ScreenSlide(kind: .pop, upper: upper, lower: lower, x: 0, motion: nil, removesUpper: true)
            slide(to: frame.width, velocity: 0, at: t)
        } else {
            slide = ScreenSlide(kind: .pop, upper: upper, lower: lower, x: frame.width, motion: nil, removesUpper: true)
            finishTransition()
        }
        return upper
    }

    /// Pops every screen above the bottom one; only the last slides.
    public func popToRoot(animated: Bool = true) {
        finishTransition()
        while screens.count > 2 {
            screens.remove(at: screens.count - 2)
            titles.remove(at: titles.count - 2)
        }
        pop(animated: animated)
    }

    private func slide(to target: Double, velocity: Double, at t: Double) {
        guard var tr = slide else { return }
        tr.removesUpper = target > 0
        let v = SpringSimulation.noCrossingVelocity(velocity, displacement: tr.x - target, spring: Self.spring)
        tr.motion = (
            SpringSimulation(
                spring: Self.spring, position: tr.x, velocity: v, target: target,
                tolerance: .standard), t
        )
        slide = tr
        place()
        host?.scheduleFrame()
    }

    /// Ends a running slide where it was going.
    private func finishTransition() {
        guard let tr = slide else { return }
        slide = nil
        if tr.removesUpper {
            tr.upper.removeFromParent()
            if let i = screens.lastIndex(where: { $0 === tr.upper }) { screens.remove(at: i); titles.remove(at: i) }
        } else {
            tr.lower.removeFromParent()
        }
        edgeTouch = nil
        place()
        updateBar()
        setNeedsDisplay()
        if tr.removesUpper || tr.kind == .push { onChange?(screens) }
    }

    private func updateBar() {
        bar.title.setText(titles.last.flatMap { $0 } ?? LocalizedStringKey(verbatim: ""))
        bar.back.isHidden = !canPop
        bar.backTitle = titles.count > 1 ? titles[titles.count - 2] : nil
        bar.updateBackText()
    }

    // MARK: Layout and drawing

    var barHeight: Double { showsBar ? NavigationBar.height : 0 }

    public override func layoutChildren() {
        if bar.isHidden == showsBar { bar.isHidden = !showsBar }
        bar.frame = Rect(x: 0, y: 0, width: frame.width, height: barHeight)
        bar.layoutChildren()
        for screen in children where screen !== bar {
            screen.frame = Rect(x: 0, y: barHeight, width: frame.width, height: max(0, frame.height - barHeight))
            screen.layoutChildren()
        }
        place()
    }

    /// Moves the sliding screens to where the transition has them.
    private func place() {
        for screen in children where screen !== bar { screen.frame.origin.x = 0 }
        guard let tr = slide else { return }
        // Right to left, screens come in from the left and go back out to it.
        let sign = isRightToLeft ? -1.0 : 1.0
        tr.upper.frame.origin.x = (sign * tr.x).rounded()
        tr.lower.frame.origin.x = (-sign * (frame.width - tr.x) * Self.parallax).rounded()
    }

    @_spi(Hooks) override public var clipsContent: Bool { true }

    @_spi(Hooks) override public func drawChildren(in context: inout DrawContext) {
        for c in children where !c.isHidden {
            context.drawChild(c)
            if let tr = slide, c === tr.lower, frame.width > 0 {
                // The screen below darkens as the one above covers it (only its uncovered part
                // is shaded: the rest is drawn over).
                let shade = 0.12 * (1 - tr.x / frame.width)
                let upper = tr.upper.frame
                let uncovered =
                    upper.minX < 0
                    ? Rect(x: upper.maxX, y: c.frame.minY, width: frame.width - upper.maxX, height: c.frame.height)
                    : Rect(x: 0, y: c.frame.minY, width: upper.minX, height: c.frame.height)
                if !uncovered.isEmpty { context.fill(uncovered, color: Color.shadow.withOpacity(shade)) }
            }
        }
    }

    /// While screens slide, touches reach none of them.
    @_spi(Hooks) override public func hitTest(_ p: Point) -> View? {
        guard slide?.motion != nil, p.x >= 0, p.y >= 0, p.x < frame.width, p.y < frame.height else {
            return super.hitTest(p)
        }
        return self
    }

    // MARK: AnimatedView

    public func sample(at t: Double) {
        guard var tr = slide, let motion = tr.motion else { return }
        if motion.spring.isDone(at: t - motion.start) { finishTransition(); return }
        tr.x = motion.spring.position(at: t - motion.start)
        slide = tr
        place()
        setNeedsDisplay()
    }

    public func isAnimating(at t: Double) -> Bool { slide != nil }

    // MARK: The edge swipe (TouchTarget)

    /// `point` (window points) as seen from the leading edge: mirrored across the stack right to
    /// left, where the swipe back starts at the right edge and runs leftwards.
    private func fromLeading(_ point: Point) -> Point {
        guard isRightToLeft else { return point }
        let f = frameInWindow
        return Point(x: f.minX + f.maxX - point.x, y: point.y)
    }

    package func wantsTouch(at point: Point) -> Bool {
        let f = frameInWindow, point = fromLeading(point)
        return canPop && slide == nil && point.x - f.minX <= Self.edgeWidth && point.y - f.minY >= barHeight
    }

    package func touchBegan(at point: Point, time t: Double) {
        let point = fromLeading(point)
        var tracker = VelocityTracker()
        tracker.add(time: t, position: point.x)
        edgeTouch = (point, false, tracker)
    }

    package func touchMoved(to point: Point, time t: Double) -> TouchDisposition {
        guard var touch = edgeTouch else { return .released }
        let point = fromLeading(point)
        touch.tracker.add(time: t, position: point.x)
        edgeTouch = touch
        let d = point - touch.down, slop = environment.gestures.touchSlop
        if !touch.dragging {
            guard d.length > slop else { return .undecided }
            // Towards the trailing edge and mostly sideways: the screen's. Anything else is the
            // content's.
            guard d.x > 0, d.x > abs(d.y), canPop, slide == nil else { edgeTouch = nil; return .released }
            let lower = screens[screens.count - 2]
            insert(lower, at: 0)
            slide = ScreenSlide(
                kind: .interactive, upper: topScreen, lower: lower, x: 0, motion: nil,
                removesUpper: false)
            touch.down.x += slop  // no jump: the screen follows from the slop on
            touch.dragging = true
            edgeTouch = touch
        }
        guard var tr = slide else { return .released }
        tr.x = max(0, min(frame.width, point.x - touch.down.x))
        slide = tr
        place()
        setNeedsDisplay()
        return .claimed
    }

    package func touchEnded(at point: Point, time t: Double, cancelled: Bool) {
        guard let touch = edgeTouch else { return }
        edgeTouch = nil
        // A touch that never dragged was a tap near the edge: the router gives it to the view it
        // landed on.
        guard touch.dragging, let tr = slide else { return }
        let v = cancelled ? 0 : touch.tracker.velocity(releaseTime: t)
        let completes = !cancelled && (v > Self.flickVelocity || (tr.x > frame.width / 2 && v > -Self.flickVelocity))
        slide(to: completes ? frame.width : 0, velocity: v, at: t)
    }

    /// The state JSON's description of the stack.
    package var stateKind: String { slide?.kind.rawValue ?? "none" }
}

/// The bar over a navigation stack's screens: the back button (labelled with the title of the
/// screen it goes back to) at the leading edge and the top screen's title in the middle.
package final class NavigationBar: View {
    package static let height = 50.0
    package let back: Label
    package let title: Label
    /// The title of the screen the back button returns to; nil: the built-in word "Back".
    var backTitle: LocalizedStringKey?

    /// Sets the back button's text from `backTitle` or the environment's word.
    func updateBackText() {
        let environment = environment
        let backText = backTitle.map(environment.localized)
        let text = backText ?? environment.strings[.back]
        if back.text != text { back.text = text }
        // Room for the chevron at the leading edge.
        let room = environment.layoutDirection == .rightToLeft ? EdgeInsets(trailing: Self.iconRoom) : EdgeInsets(leading: Self.iconRoom)
        if back.padding != room { back.padding = room }
        // Said as what it does, then where it goes: "Back, Wayfinder", never the chevron.
        let word = environment.strings[.back]
        back.accessibility.label = backText.map { "\(word), \($0)" } ?? word
    }

    init(id: String?, backID: String) {
        back = Label("", id: backID, color: .accent, maxLines: 1).font(.title3)
        title = Label("", color: .primaryText, alignment: .center, maxLines: 1).font(.title3)
        super.init(id: id)
        updateBackText()
        fill = .bar
        back.contentAlignment = UnitPoint(x: 0, y: 0.5)
        back.isFocusable = true  // Tab reaches it, Enter goes back, as a tap does
        title.contentAlignment = .center
        add(title)
        add(back)
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }

    package override func layoutChildren() {
        // The words are the window's, known once the bar is in its tree (a new language lays
        // out again).
        updateBackText()
        let inner = contentBounds
        let backWidth = min(inner.width / 3, back.sizeThatFits(Size(width: .infinity, height: .infinity)).width + 12)
        back.frame = Rect(x: inner.minX, y: inner.minY, width: backWidth, height: inner.height)
        title.frame = Rect(
            x: inner.minX + backWidth, y: inner.minY, width: max(0, inner.width - 2 * backWidth),
            height: inner.height)
        mirrorChildrenIfRightToLeft()
    }

    /// Points before the back button's words: the chevron, and a margin either side of it.
    static let iconRoom = 34.0
    /// The chevron that points back, towards the leading edge (mirrored right to left).
    static let backIcon = Icon("chevron_left")

    package override func draw(in context: inout DrawContext) {
        context.fill(Rect(x: 0, y: frame.height - 1, width: frame.width, height: 1), color: Color.separator)
        guard !back.isHidden, back.frame.width >= Self.iconRoom else { return }
        let side = 30.0, f = back.frame
        let x = isRightToLeft ? f.maxX - Self.iconRoom + 2 : f.minX + 2
        Self.backIcon.draw(
            in: Rect(x: x, y: f.midY - side / 2, width: side, height: side), color: back.color, rightToLeft: isRightToLeft,
            context: context)
    }
}
