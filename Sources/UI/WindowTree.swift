import Geometry
import Raster
import AppContract
import Scrolling
@_spi(Hooks) import ViewCore
@_spi(Hooks) import Widgets

/// The window's upkeep of its tree: what asks for a frame, the layout, the walk that collects
/// the views that animate and scroll, the warnings about views laid out wrong, and the sampling
/// of each frame.
extension Window {
    // MARK: Invalidation

    package func invalidate(_ view: View) {
        // Where it was (now) and, at the next render, where it is then.
        if let r = pixelRect(drawnRect(of: view)) { pendingDamage.add(r) }
        invalidatedViews.append(view)
        frameScheduled = true
        note(asker: view)
    }

    /// Asks for a frame even though nothing is animating (a program scroll was requested).
    package func scheduleFrame() { frameScheduled = true }

    /// Views joined or left the tree between layouts.
    package func treeChanged() { needsCollect = true; frameScheduled = true }

    // MARK: Layout

    /// Lays the tree out now if anything changed (frames are then valid for `frameInWindow`).
    package func layoutIfNeeded() { layoutIfNeeded(at: currentTime) }

    func layoutIfNeeded(at t: Double) {
        guard needsLayout else { collectIfNeeded(at: t); return }
        closeOrphanedModals()
        for sv in scrollViews where sv.hasLaidOut { sv.holdPosition() }
        needsLayout = false
        let positions = positionsBeforeLayout()
        holder.frame = Rect(origin: .zero, size: sizeInPoints)
        // A field outside scroll views moves up with the whole screen above the keyboard.
        root.frame = holder.frame.offsetBy(dx: 0, dy: -keyboardHost.pan)
        root.layoutChildren()
        if modalLayer.parent != nil {
            modalLayer.frame = holder.frame
            modalLayer.layoutChildren()
        }
        keyboardHost.layout()
        collect()
        for sv in scrollViews { sv.applyLayout(at: t) }
        navigator.dropIfGone()
        animateLayoutMoves(from: positions)
        fullDamage = true
    }

    package func warn(_ message: String) { log.warning("\(message)") }

    /// The views animating at `t` (what keeps the window from rest).
    package func animatingViews(at t: Double) -> [View] { animatedViews.filter { $0.isAnimating(at: t) } }

    package func warn(_ message: String, about view: View) {
        // The view's id is a field of its own in the journal (GLIDE_VIEW).
        log.warning("\(message)", metadata: view.id.map { ["view": .string($0)] })
        if layoutProblems.count < 100 { layoutProblems.append(LayoutProblem(view: view, message: message)) }
    }

    /// A view that holds content but was given no width or height shows nothing and takes no
    /// touches, silently: say so once, naming it.
    private func warnEmpty(_ view: View) {
        guard !view.warnedEmpty else { return }
        view.warnedEmpty = true
        warn(
            """
            \(view.logTitle(String(describing: type(of: view)))) was laid out \(view.frame.width)x\(view.frame.height) \
            points and shows none of its content: give it a size (.frame), or put it in a stack with room for it
            """, about: view)
    }

    private func collectIfNeeded(at t: Double) {
        guard needsCollect else { return }
        collect()
        for sv in scrollViews where !sv.hasLaidOut { sv.applyLayout(at: t) }
        navigator.dropIfGone()
    }

    /// The animated views and scroll views in tree order (outer before inner); views sampled
    /// after another (page controls) come after all the others. The same walk finds views
    /// laid out with no room for their content (the outermost of each such subtree).
    private func collect() {
        needsCollect = false
        scrollViews = []
        var independent: [AnimatedView] = [], dependent: [AnimatedView] = []
        func walk(_ v: View, insideEmpty: Bool = false) {
            guard !v.isHidden else { return }
            let empty = !v.children.isEmpty && (v.frame.width <= 0 || v.frame.height <= 0)
            if empty && !insideEmpty { warnEmpty(v) }
            if let animated = v as? AnimatedView {
                if (animated as? DependentAnimation)?.sampledAfter == nil {
                    independent.append(animated)
                } else {
                    dependent.append(animated)
                }
            }
            if let sv = v as? ScrollingContainer {
                scrollViews.append(sv)
                sv.adopt(sv.environment.gestures, resampling: touchResampling)
            }
            for c in v.children { walk(c, insideEmpty: insideEmpty || empty) }
        }
        walk(root)
        if modalLayer.parent != nil { walk(modalLayer) }
        let before = animatedViews, now = Set((independent + dependent).map { ObjectIdentifier($0) })
        animatedViews = independent + dependent
        for case let v as SampledWhileShown in before where !now.contains(ObjectIdentifier(v)) { v.stoppedBeingSampled() }
    }

    // MARK: Geometry helpers

    /// The window as its helpers see it for one pass.
    var pass: WindowPass {
        WindowPass(
            scale: scaleFactor, pixelWidth: pixelWidth, pixelHeight: pixelHeight, animatedViews: animatedViews,
            ringViews: ringViews)
    }

    /// `view`'s visible part in window points: its frame clipped by every clipping ancestor.
    package func visibleRect(of view: View) -> Rect { WindowPass.visibleRect(of: view, within: sizeInPoints) }

    func pixelRect(_ r: Rect) -> IntRect? { WindowPass.pixelRect(r, scale: scaleFactor, width: pixelWidth, height: pixelHeight) }

    /// Samples every animated view at `t` in the collected order (a lazy list builds rows
    /// here, which may add animated views: they are sampled too), then the touches' pressed
    /// states.
    func sampleAnimatedViews(at t: Double) {
        keyboardHost.sample(at: t)
        if needsLayout { layoutIfNeeded(at: t) }
        for v in animatedViews { v.sample(at: t) }
        if needsCollect {
            collectIfNeeded(at: t)
            for v in animatedViews { v.sample(at: t) }
        }
        router.updatePresses(at: t)
    }
}
