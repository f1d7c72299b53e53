import Geometry
import Physics
import Raster
import Runtime
import Scrolling
import Text

/// The root of a screen: lays out the view tree at a scale factor, routes input (hit testing,
/// gesture arbitration between nested scroll views, focus and keys), draws only what changed,
/// and reports its state. It is the `App` a frame loop drives (headless, DRM or remote).
public final class Window: App {
    public let root: View
    public let typography: Typography
    /// Pixels per point.
    public let scaleFactor: Double
    public private(set) var pixelWidth: Int
    public private(set) var pixelHeight: Int
    public var background = Color(rgb: 0xF2F2F7) { didSet { fullDamage = true } }
    /// Colour of the focus ring.
    public var accent = Color(rgb: 0x0A84FF)
    /// The time of the latest frame or input, seconds.
    public private(set) var currentTime = 0.0
    public private(set) var focusedView: View?
    /// The object that built this window and handles its callbacks (an app controller); the
    /// window keeps it alive as long as it is shown.
    public var controller: AnyObject?

    var needsLayout = true
    var fullDamage = true
    var pendingDamage = Region()
    var invalidatedViews: [View] = []
    /// Scroll frames move the pixels already drawn and draw only what was exposed (RAS-3).
    /// The result equals a full redraw; off, every moved viewport is redrawn.
    public var reusesScrolledPixels = true
    var frameScheduled = true
    let rasterCache = RasterCache()
    var scrollViews: [ScrollView] = []
    var animatedViews: [View] = []
    var wasAnimating: Set<ObjectIdentifier> = []
    var rendered: [ObjectIdentifier: RenderedSample] = [:]
    var renderedFocus: IntRect?
    var routes: [Int: TouchRoute] = [:]
    var shiftDown = false
    var pointerButtonDown = false
    var keyScrollView: ScrollView?
    /// Touchpad fingers scrolling a view, with their travel for the release velocity.
    struct FingerScroll {
        var view: ScrollView
        var travelled = Point.zero
        var x = VelocityTracker(), y = VelocityTracker()
    }
    var fingerScroll: FingerScroll?
    let holder: RootView

    struct RenderedSample: Equatable {
        var offset: Point
        var scale: Double
        var indicators: [IntRect]
        /// The indicators as drawn (exact thumb rectangles and opacities): a thumb moving by
        /// a fraction of a pixel, or fading, changes only these.
        var indicatorShapes: [ScrollView.Indicator]
        var visible: IntRect
    }

    /// Points a finger may move before a touch is a drag rather than a tap.
    static let slop = 8.0
    /// Seconds an input event may arrive after its own time and still count at that time.
    static let maximumInputLag = 0.1

    struct TouchRoute {
        var candidates: [ScrollView]
        var claimed: ScrollView?
        var hit: View?
        var down: Point
        var movedPastSlop = false
        var scrub: (view: ScrollView, indicator: ScrollView.Indicator, grab: Double)?
        var control: PageControl?
        /// A view with `onDrag` that the touch drags.
        var drag: View?
    }

    /// - Parameters: size in pixels, scale factor (pixels per point), the fonts, and the root
    ///   view, which fills the window.
    public init(width: Int, height: Int, scaleFactor: Double = 1, typography: Typography, root: View) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        self.scaleFactor = scaleFactor.isFinite && scaleFactor > 0 ? scaleFactor : 1
        self.typography = typography
        self.root = root
        holder = RootView()
        holder.owner = self
        holder.add(root)
    }

    // MARK: Timers and work from other threads (APP-2)

    /// The window's timers and posted work, run by the loop on its clock.
    let timers = LoopScheduler()
    public var scheduler: LoopScheduler? { timers }

    /// Runs `action` every `seconds` on the loop's clock (headless: at exact virtual times),
    /// first `seconds` after now, or after the first frame when called before the loop runs.
    @discardableResult
    public func every(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.every(seconds, action)
    }

    /// Runs `action` once, `seconds` from now on the loop's clock.
    @discardableResult
    public func after(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.after(seconds, action)
    }

    /// Runs `work` on the loop's thread before the next frame; call it from any thread (it
    /// wakes a sleeping loop). To hand a result to views, use a `channel`: its handler runs on
    /// the loop and may touch views, while only the value crosses threads.
    @discardableResult
    public func post(_ work: @escaping @Sendable () -> Void) -> Bool { timers.post(work) }

    /// A mailbox whose `receive` runs on the loop's thread for each value sent from any thread.
    public func channel<Value: Sendable>(_ receive: @escaping (Value) -> Void) -> LoopChannel<Value> {
        timers.channel(receive)
    }

    /// The loop's time: inside a timer, the time it was due; else the time the loop last ran
    /// its timers (before each frame and input), or the latest frame or input before the loop ran.
    public var time: Double { timers.now ?? currentTime }

    public var sizeInPoints: Size { Size(width: Double(pixelWidth) / scaleFactor, height: Double(pixelHeight) / scaleFactor) }

    // MARK: Invalidation

    func invalidate(_ view: View) {
        // Where it was (now) and, at the next render, where it is then.
        if let r = pixelRect(visibleRect(of: view)) { pendingDamage.add(r) }
        invalidatedViews.append(view)
        frameScheduled = true
    }

    /// Asks for a frame even though nothing is animating (a program scroll was requested).
    public func scheduleFrame() { frameScheduled = true }

    // MARK: Layout

    /// Lays the tree out now if anything changed (frames are then valid for `frameInWindow`).
    public func layoutIfNeeded() { layoutIfNeeded(at: currentTime) }

    func layoutIfNeeded(at t: Double) {
        guard needsLayout else { return }
        for sv in scrollViews where sv.hasLaidOut { sv.holdPosition() }
        needsLayout = false
        holder.frame = Rect(origin: .zero, size: sizeInPoints)
        root.frame = holder.frame
        root.layoutChildren()
        scrollViews = []; animatedViews = []
        collect(root)
        for sv in scrollViews { sv.applyLayout(at: t) }
        if let f = focusedView, f.window !== self { focusedView = nil }
        fullDamage = true
    }

    private func collect(_ v: View) {
        guard !v.isHidden else { return }
        if let sv = v as? ScrollView { scrollViews.append(sv); animatedViews.append(sv) }
        if v is PageControl { animatedViews.append(v) }
        for c in v.children { collect(c) }
    }

    // MARK: Geometry helpers

    /// `view`'s visible part in window points: its frame clipped by every scrolling ancestor.
    func visibleRect(of view: View) -> Rect {
        var r = view.frameInWindow
        var p = view.parent
        while let a = p {
            if a is ScrollView || (a as? Box)?.clipsChildren == true { r = r.intersection(a.frameInWindow) }
            p = a.parent
        }
        return r.intersection(Rect(origin: .zero, size: sizeInPoints))
    }

    func pixelRect(_ r: Rect) -> IntRect? {
        guard !r.isEmpty else { return nil }
        let s = scaleFactor
        let px = IntRect(enclosing: Rect(x: r.minX * s - 1, y: r.minY * s - 1, width: r.width * s + 2, height: r.height * s + 2))
        let clipped = px.intersection(IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))
        return clipped.isEmpty ? nil : clipped
    }

    func sampleScrollViews(at t: Double) {
        for sv in scrollViews { sv.sample(at: t) } // pre-order: outer before inner
        for case let control as PageControl in animatedViews { control.sample(at: t) } // after their scroll views
    }

    // MARK: App

    public func resize(width: Int, height: Int) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        needsLayout = true
        fullDamage = true
        frameScheduled = true
    }

    public func isAtRest(at t: Double) -> Bool {
        if needsLayout || frameScheduled || !pendingDamage.isEmpty || fullDamage { return false }
        for v in animatedViews {
            if let sv = v as? ScrollView, !sv.controller.isAtRest(at: t) { return false }
            if v.isAnimating(at: t) { return false }
        }
        return routes.isEmpty || routes.values.allSatisfy { $0.claimed == nil && $0.scrub == nil }
    }

    public func render(into frame: PixelBuffer, at t: Double) -> Region {
        currentTime = max(currentTime, t)
        if frame.width != pixelWidth || frame.height != pixelHeight { resize(width: frame.width, height: frame.height) }
        layoutIfNeeded(at: t)
        sampleScrollViews(at: t)
        var damage = pendingDamage
        pendingDamage = Region()
        for v in invalidatedViews where v.window === self {
            if let r = pixelRect(visibleRect(of: v)) { damage.add(r) }
        }
        invalidatedViews = []
        frameScheduled = false
        let bounds = IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
        // What changes on screen (reported to the display) and, within it, what must be drawn:
        // blitted areas are changed but already hold the right pixels.
        var changed = Region()
        var blits: [(rect: IntRect, dx: Int, dy: Int)] = []

        var nowAnimating: Set<ObjectIdentifier> = []
        // Scroll views whose pixels this frame's copies moved (pre-order: outer ones first).
        var pixelsMoved: Set<ObjectIdentifier> = []
        for v in animatedViews {
            let key = ObjectIdentifier(v)
            let visible = pixelRect(visibleRect(of: v)) ?? .zero
            if let sv = v as? ScrollView {
                let geometry = sv.indicatorGeometry(at: t)
                let indicators = geometry.map { indicatorPixels($0, of: sv) }
                let s = RenderedSample(offset: sv.pixelOffset(scale: scaleFactor), scale: sv.sampledScale,
                                       indicators: indicators, indicatorShapes: geometry, visible: visible)
                if let old = rendered[key] {
                    if old.offset == s.offset, old.scale == s.scale, old.indicators.isEmpty, s.indicators.isEmpty,
                       let outer = sv.enclosingScrollView, pixelsMoved.contains(ObjectIdentifier(outer)) {
                        // Still inside content that was copied: its pixels moved with it, and
                        // what came into view lies in the outer view's exposed strips.
                        pixelsMoved.insert(key)
                    } else if old.offset != s.offset || old.scale != s.scale || old.visible != s.visible {
                        if let blit = scrollBlit(sv, old: old, new: s) {
                            pixelsMoved.insert(key)
                            blits.append(blit)
                            changed.add(visible)
                            for r in exposedStrips(blit) { damage.add(r) }
                            // Pixels drawn over the content (indicators, overlays, the focus
                            // ring) do not move with it: redraw where the copy put them too.
                            let still = old.indicators + s.indicators + overlays(above: sv, within: visible)
                                + (renderedFocus.map { [$0] } ?? [])
                            for r in still {
                                damage.add(r)
                                let moved = r.offsetBy(dx: blit.dx, dy: blit.dy).intersection(blit.rect)
                                if !moved.isEmpty { damage.add(moved) }
                            }
                        } else {
                            damage.add(old.visible); damage.add(visible)
                        }
                    } else if old.indicators != s.indicators || old.indicatorShapes != s.indicatorShapes {
                        for r in old.indicators + s.indicators { damage.add(r) }
                    }
                } else {
                    damage.add(visible)
                }
                rendered[key] = s
            } else if v.isAnimating(at: t) || wasAnimating.contains(key) {
                damage.add(visible)
            }
            if v.isAnimating(at: t) { nowAnimating.insert(key) }
        }
        wasAnimating = nowAnimating

        let focusRect = focusedView.flatMap { pixelRect(visibleRect(of: $0).insetBy(dx: -4, dy: -4)) }
        if focusRect != renderedFocus {
            if let r = renderedFocus { damage.add(r) }
            if let r = focusRect { damage.add(r) }
            renderedFocus = focusRect
        }
        if fullDamage { damage = Region(bounds); blits = []; fullDamage = false }
        damage = damage.clipped(to: bounds)
        if !blits.isEmpty {
            let canvas = Canvas(frame, cache: rasterCache)
            for b in blits { canvas.copy(rect: b.rect.offsetBy(dx: -b.dx, dy: -b.dy).intersection(b.rect), dx: b.dx, dy: b.dy) }
        }
        for rect in damage.rects { draw(rect, into: frame, at: t) }
        changed.formUnion(damage)
        return changed.clipped(to: bounds)
    }

    /// A scroll that only moved its content by whole pixels can reuse the pixels: same scale,
    /// same place on screen, straight edges, and a move shorter than the viewport.
    func scrollBlit(_ sv: ScrollView, old: RenderedSample, new: RenderedSample) -> (rect: IntRect, dx: Int, dy: Int)? {
        guard reusesScrolledPixels, old.scale == new.scale, old.visible == new.visible, !new.visible.isEmpty,
              sv.cornerRadius == 0 else { return nil }
        var p = sv.parent
        while let a = p {
            if let box = a as? Box, box.clipsChildren, box.cornerRadius > 0 { return nil }
            if let outer = a as? ScrollView, outer.cornerRadius > 0 { return nil }
            p = a.parent
        }
        // Only a viewport on whole pixels: a partly covered edge pixel mixes in a neighbour.
        let r = visibleRect(of: sv)
        let x0 = r.minX * scaleFactor, y0 = r.minY * scaleFactor, x1 = r.maxX * scaleFactor, y1 = r.maxY * scaleFactor
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-9 }
        guard whole(x0), whole(y0), whole(x1), whole(y1), x1 > x0, y1 > y0 else { return nil }
        let viewport = IntRect(x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
        guard hasUniformBackdrop(sv, within: viewport) else { return nil }
        let dx = Int(old.offset.x - new.offset.x), dy = Int(old.offset.y - new.offset.y)
        guard abs(dx) < viewport.width, abs(dy) < viewport.height else { return nil }
        return (viewport, dx, dy)
    }

    /// True when what is painted under `sv`'s content is one flat colour (its own opaque fill, or
    /// plain fills of its ancestors with nothing earlier overlapping): moving the pixels then
    /// moves only content, never a background that should have stayed put.
    func hasUniformBackdrop(_ sv: ScrollView, within visible: IntRect) -> Bool {
        if let fill = sv.fill, fill.alpha == 255 { return true }
        var node: View = sv
        while let parent = node.parent {
            if parent is ImageView || parent is Label { return false }
            if let box = parent as? Box, box.fill != nil || box.borderColor != nil {
                // A flat fill covering the whole viewport is fine; rounded corners or a border
                // near the viewport are not.
                guard let fill = box.fill, fill.alpha == 255, box.borderColor == nil || box.borderWidth == 0,
                      box.cornerRadius == 0 else { return false }
                return earlierSiblingsMiss(node, in: parent, visible)
            }
            guard earlierSiblingsMiss(node, in: parent, visible) else { return false }
            node = parent
        }
        return true // the window background
    }

    func earlierSiblingsMiss(_ node: View, in parent: View, _ visible: IntRect) -> Bool {
        guard let i = parent.children.firstIndex(where: { $0 === node }) else { return false }
        for earlier in parent.children[..<i] where !earlier.isHidden {
            let e = visibleRect(of: earlier)
            let r = IntRect(enclosing: Rect(x: e.minX * scaleFactor, y: e.minY * scaleFactor,
                                            width: e.width * scaleFactor, height: e.height * scaleFactor))
            if !e.isEmpty, !r.intersection(visible).isEmpty { return false }
        }
        return true
    }

    /// The parts of a blitted viewport that the move uncovered.
    func exposedStrips(_ b: (rect: IntRect, dx: Int, dy: Int)) -> [IntRect] {
        let r = b.rect
        var strips: [IntRect] = []
        if b.dy > 0 { strips.append(IntRect(x: r.x, y: r.y, width: r.width, height: b.dy)) }
        if b.dy < 0 { strips.append(IntRect(x: r.x, y: r.maxY + b.dy, width: r.width, height: -b.dy)) }
        if b.dx > 0 { strips.append(IntRect(x: r.x, y: r.y, width: b.dx, height: r.height)) }
        if b.dx < 0 { strips.append(IntRect(x: r.maxX + b.dx, y: r.y, width: -b.dx, height: r.height)) }
        return strips
    }

    /// Screen rectangles of views painted after `sv` (later siblings of it and of its
    /// ancestors) that overlap `visible`: they do not move with the content.
    func overlays(above sv: View, within visible: IntRect) -> [IntRect] {
        var out: [IntRect] = []
        var node: View = sv
        while let parent = node.parent {
            if let i = parent.children.firstIndex(where: { $0 === node }) {
                for later in parent.children[(i + 1)...] where !later.isHidden {
                    if let r = pixelRect(visibleRect(of: later)), !r.intersection(visible).isEmpty { out.append(r.intersection(visible)) }
                }
            }
            node = parent
        }
        if let f = focusedView, let r = pixelRect(visibleRect(of: f).insetBy(dx: -4, dy: -4)) { out.append(r) }
        return out
    }

    func indicatorPixels(_ ind: ScrollView.Indicator, of sv: ScrollView) -> IntRect {
        let f = sv.frameInWindow
        let r = (ind.track ?? ind.thumb).offsetBy(dx: f.minX, dy: f.minY)
        let thumb = ind.thumb.offsetBy(dx: f.minX, dy: f.minY)
        let both = Rect(x: min(r.minX, thumb.minX), y: min(r.minY, thumb.minY),
                        width: max(r.maxX, thumb.maxX) - min(r.minX, thumb.minX),
                        height: max(r.maxY, thumb.maxY) - min(r.minY, thumb.minY))
        return pixelRect(both) ?? .zero
    }

    /// Draws everything that intersects `rect` (device pixels), clipped to it: the same pixels
    /// a full redraw gives there.
    func draw(_ rect: IntRect, into frame: PixelBuffer, at t: Double) {
        var canvas = Canvas(frame, cache: rasterCache)
        canvas.clip(toDeviceRect: rect)
        canvas.clear(color: background.premultiplied)
        var context = DrawContext(canvas: canvas, typography: typography, scale: scaleFactor, time: t)
        context.drawChild(root)
        if let focused = focusedView {
            let r = visibleRect(of: focused)
            if !r.isEmpty {
                context.stroke(r.insetBy(dx: -3, dy: -3), cornerRadius: 8, lineWidth: 3, color: accent)
            }
        }
    }

    // MARK: Input

    public func handle(_ event: InputEvent) {
        guard event.time.isFinite else { return }
        let now = max(currentTime, event.time)
        currentTime = now
        layoutIfNeeded(at: now)
        sampleScrollViews(at: now)
        frameScheduled = true
        // The engines get the event's own time even when it arrives after a frame drawn later
        // (a board reads input between frames): velocities and gestures then depend on when
        // the finger moved, not on when the loop got round to it, and a recording replays
        // the same. At most `maximumInputLag` back, so a bad timestamp cannot rewrite history.
        let t = max(event.time, now - Self.maximumInputLag)
        switch event.kind {
        case let .touch(phase, slot, position):
            guard position.isFinite, abs(position.x) < 1e7, abs(position.y) < 1e7 else { return }
            handleTouch(phase, slot: slot, at: position / scaleFactor, time: t)
        case let .key(key, pressed):
            handleKey(key, pressed: pressed, time: t)
        case let .wheel(delta, position):
            guard delta.isFinite, position.isFinite else { return }
            handleWheel(delta / scaleFactor, at: position / scaleFactor, time: t)
        case let .fingerScroll(delta, position):
            guard delta.isFinite, position.isFinite else { return }
            handleFingerScroll(delta / scaleFactor, at: position / scaleFactor, time: t)
        case let .pointerMotion(position):
            guard position.isFinite else { return }
            if pointerButtonDown { handleTouch(.move, slot: Self.pointerSlot, at: position / scaleFactor, time: t) }
        case let .pointerButton(code, pressed, position):
            guard position.isFinite, code == 0x110 else { return }
            pointerButtonDown = pressed
            handleTouch(pressed ? .down : .up, slot: Self.pointerSlot, at: position / scaleFactor, time: t)
        case .touchFrame:
            break
        }
    }

    /// A pointer's left button acts as a finger on this slot (KEY-3).
    static let pointerSlot = 1 << 20

    func localPoint(_ p: Point, in sv: ScrollView) -> Point {
        let f = sv.frameInWindow
        return Point(x: p.x - f.minX, y: p.y - f.minY)
    }

    func feed(_ sv: ScrollView, _ phase: TouchEvent.Phase, slot: Int, at p: Point, time t: Double) -> Gesture? {
        sv.controller.handle(TouchEvent(phase, id: slot, location: localPoint(p, in: sv), time: t))
    }

    func handleTouch(_ phase: InputEvent.TouchPhase, slot: Int, at p: Point, time t: Double) {
        switch phase {
        case .down:
            guard routes[slot] == nil else { return }
            let hit = root.hitTest(p)
            let chain = (hit?.ancestry ?? []).reversed()
            // A second finger on a zoomable view that already has one: a pinch.
            for (_, route) in routes {
                if let sv = route.claimed ?? route.candidates.first, sv.configuration.isZoomEnabled,
                   chain.contains(where: { $0 === sv }) {
                    routes[slot] = TouchRoute(candidates: [sv], claimed: sv, hit: hit, down: p)
                    _ = feed(sv, .began, slot: slot, at: p, time: t)
                    return
                }
            }
            if let dragged = chain.first(where: { $0.onDrag != nil }) {
                routes[slot] = TouchRoute(candidates: [], hit: hit, down: p, drag: dragged)
                dragged.onDrag?(.began, p)
                return
            }
            let scrolls = chain.compactMap { $0 as? ScrollView }
            if let control = chain.lazy.compactMap({ $0 as? PageControl }).first {
                // The scroll views around the control hear the touch too: a drag across the
                // control (or any drag when it does not scrub) is theirs, not a tap on a dot.
                routes[slot] = TouchRoute(candidates: scrolls, hit: hit, down: p, control: control)
                control.touchBegan(at: p, time: t)
                for sv in scrolls { _ = feed(sv, .began, slot: slot, at: p, time: t) }
                return
            }
            for sv in scrolls {
                if let ind = sv.scrubbableIndicator(at: localPoint(p, in: sv), time: t) {
                    let local = localPoint(p, in: sv)
                    let grab = ind.axis == .vertical ? local.y - ind.thumb.minY : local.x - ind.thumb.minX
                    routes[slot] = TouchRoute(candidates: [], hit: hit, down: p, scrub: (sv, ind, grab))
                    keyScrollView = sv
                    return
                }
            }
            routes[slot] = TouchRoute(candidates: scrolls, hit: hit, down: p)
            if let first = scrolls.first { keyScrollView = scrolls.first { $0.configuration.axes.contains(.vertical) } ?? first }
            for sv in scrolls { _ = feed(sv, .began, slot: slot, at: p, time: t) }
        case .move:
            guard var route = routes[slot] else { return }
            if let dragged = route.drag {
                dragged.onDrag?(.moved, p)
                dragged.enclosingScrollView?.autoscroll(towards: p)
                return
            }
            if let control = route.control {
                let d = p - route.down
                let handOver = !control.scrubbing && d.length > Self.slop
                    && (abs(d.y) > abs(d.x) || control.backgroundStyle == .minimal)
                if !handOver {
                    control.touchMoved(to: p, time: t)
                    if control.scrubbing {
                        for sv in route.candidates { _ = feed(sv, .cancelled, slot: slot, at: p, time: t) }
                        route.candidates = []
                    }
                    routes[slot] = route
                    return
                }
                control.touchEnded(at: p, time: t, cancelled: true)
                route.control = nil
            }
            if let scrub = route.scrub {
                scrub.view.scrub(scrub.indicator, to: localPoint(p, in: scrub.view), grabOffset: scrub.grab, time: t)
                return
            }
            let moved = p - route.down
            if moved.length > Self.slop { route.movedPastSlop = true }
            if let sv = route.claimed {
                _ = feed(sv, .moved, slot: slot, at: p, time: t)
            } else {
                // Innermost first: the first view whose engine starts dragging claims the touch
                // and the others let go (VIEW-2). Only views that scroll along the axis the finger
                // mostly moved on take part, so a steep first move over a horizontal carousel
                // still goes to the vertical list around it.
                let axis: Axes = abs(moved.x) > abs(moved.y) ? .horizontal : .vertical
                let along = route.candidates.filter { !$0.configuration.axes.isDisjoint(with: axis) }
                for sv in along.isEmpty ? route.candidates : along {
                    _ = feed(sv, .moved, slot: slot, at: p, time: t)
                    let phase = sv.controller.state(at: t).phase
                    if phase == .dragging || phase == .zooming {
                        route.claimed = sv
                        for other in route.candidates where other !== sv { _ = feed(other, .cancelled, slot: slot, at: p, time: t) }
                        break
                    }
                }
            }
            routes[slot] = route
        case .up, .cancel:
            guard let route = routes.removeValue(forKey: slot) else { return }
            let cancelled = phase == .cancel
            if let dragged = route.drag {
                dragged.enclosingScrollView?.autoscroll(towards: nil)
                dragged.onDrag?(cancelled ? .cancelled : .ended, p)
                return
            }
            if let control = route.control {
                control.touchEnded(at: p, time: t, cancelled: cancelled)
                for sv in route.candidates { _ = feed(sv, .cancelled, slot: slot, at: p, time: t) }
                return
            }
            if route.scrub != nil { return }
            if let sv = route.claimed {
                _ = feed(sv, cancelled ? .cancelled : .ended, slot: slot, at: p, time: t)
                return
            }
            var gestures: [Gesture?] = []
            for sv in route.candidates { gestures.append(feed(sv, cancelled ? .cancelled : .ended, slot: slot, at: p, time: t)) }
            let isTap = !cancelled && !route.movedPastSlop && gestures.allSatisfy {
                if case .tap = $0 { return true }
                if case .doubleTap = $0 { return true }
                return false
            }
            if isTap, let hit = route.hit { deliverTap(from: hit) }
        }
    }

    func deliverTap(from view: View) {
        var v: View? = view
        while let c = v {
            if let action = c.onTap { action(); return }
            v = c.parent
        }
    }

    // MARK: Keys and focus (KEY-1, KEY-2)

    /// Focusable views in tree order.
    func focusOrder() -> [View] {
        var out: [View] = []
        func walk(_ v: View) {
            guard !v.isHidden else { return }
            if v.isFocusable { out.append(v) }
            for c in v.children { walk(c) }
        }
        walk(root)
        return out
    }

    /// Moves focus to `view` (nil clears it) and scrolls every enclosing scroll view the
    /// minimal amount to show it (POS-5).
    public func focus(_ view: View?) {
        focusedView = view
        frameScheduled = true
        guard let view else { return }
        var p = view.parent
        while let a = p {
            if let sv = a as? ScrollView { sv.reveal(view) }
            p = a.parent
        }
    }

    func moveFocus(by step: Int) {
        let order = focusOrder()
        guard !order.isEmpty else { return }
        let index = order.firstIndex { $0 === focusedView }
        let next: Int
        if let index { next = (index + step + order.count) % order.count }
        else { next = step > 0 ? 0 : order.count - 1 }
        focus(order[next])
    }

    /// The scroll view that keys act on: the one holding focus, else the last touched, else the
    /// first that scrolls vertically.
    func keyTarget() -> ScrollView? {
        if let f = focusedView {
            var p = f.parent
            while let a = p { if let sv = a as? ScrollView { return sv }; p = a.parent }
        }
        if let k = keyScrollView, scrollViews.contains(where: { $0 === k }) { return k }
        return scrollViews.first { $0.configuration.axes.contains(.vertical) } ?? scrollViews.first
    }

    func handleKey(_ key: Key, pressed: Bool, time t: Double) {
        if key == .leftShift || key == .rightShift { shiftDown = pressed; return }
        guard pressed else { return }
        let target = keyTarget()
        func run(_ c: ScrollCommand) { target?.controller.perform(c, at: t) }
        switch key {
        case .tab: moveFocus(by: shiftDown ? -1 : 1)
        case .escape: focus(nil)
        case .enter: if let f = focusedView { deliverTap(from: f) }
        case .up: if focusedView != nil { moveFocus(by: -1) } else { run(.lineUp) }
        case .down: if focusedView != nil { moveFocus(by: 1) } else { run(.lineDown) }
        case .left: if focusedView != nil { moveFocus(by: -1) } else { run(.lineLeft) }
        case .right: if focusedView != nil { moveFocus(by: 1) } else { run(.lineRight) }
        case .pageUp: run(.pageUp)
        case .pageDown: run(.pageDown)
        case .space: run(shiftDown ? .pageUp : .pageDown)
        case .home: run(.home)
        case .end: run(.end)
        default: break
        }
    }

    /// A wheel or rotary encoder scrolls the innermost scroll view under the pointer along an
    /// axis it has (vertical by default; a horizontal-only view takes vertical turns too).
    func handleWheel(_ delta: Point, at p: Point, time t: Double) {
        guard let (sv, d) = wheelTarget(delta, at: p) else { return }
        sv.controller.scroll(by: d, animated: true, at: t)
        keyScrollView = sv
    }

    /// The innermost scroll view under `p` that scrolls along `delta`, and the delta on its axes;
    /// when none does, a vertical wheel turns the innermost horizontal-only view (a carousel
    /// alone on screen), but never one inside a list that scrolls vertically.
    func wheelTarget(_ delta: Point, at p: Point) -> (ScrollView, Point)? {
        let chain = (root.hitTest(p)?.ancestry ?? []).reversed().compactMap { $0 as? ScrollView }
        if let sv = chain.first(where: { Self.along($0, delta, turning: false) != .zero }) {
            return (sv, Self.along(sv, delta, turning: false))
        }
        if let sv = chain.first(where: { Self.along($0, delta, turning: true) != .zero }) {
            return (sv, Self.along(sv, delta, turning: true))
        }
        return nil
    }

    /// `delta` on `sv`'s axes; `turning`: a vertical-only delta turns a horizontal-only view.
    static func along(_ sv: ScrollView, _ delta: Point, turning: Bool) -> Point {
        let axes = sv.configuration.axes
        if turning, axes == .horizontal, delta.x == 0 { return Point(x: delta.y, y: 0) }
        return Point(x: axes.contains(.horizontal) ? delta.x : 0, y: axes.contains(.vertical) ? delta.y : 0)
    }

    /// Touchpad two-finger scrolling (KEY-3): the content follows the fingers 1:1, and when they
    /// lift it carries on with their speed, estimated as for a touch, with the same friction.
    func handleFingerScroll(_ delta: Point, at p: Point, time t: Double) {
        if delta == .zero {
            guard let s = fingerScroll else { return }
            fingerScroll = nil
            let v = Point(x: s.x.velocity(releaseTime: t), y: s.y.velocity(releaseTime: t))
            s.view.controller.release(velocity: v, at: t)
            return
        }
        if fingerScroll == nil || fingerScroll?.view.window !== self {
            guard let (sv, _) = wheelTarget(delta, at: p) else { return }
            fingerScroll = FingerScroll(view: sv)
        }
        guard var s = fingerScroll else { return }
        let d = Self.along(s.view, delta, turning: true)
        // From where the content is now, not where a running fling was heading.
        let now = s.view.controller.state(at: t).offset
        s.view.controller.scroll(to: now + d, animated: false, at: t)
        s.travelled = s.travelled + d
        s.x.add(time: t, position: s.travelled.x)
        s.y.add(time: t, position: s.travelled.y)
        fingerScroll = s
        keyScrollView = s.view
    }
}
