import Geometry
import Physics

/// The scroll and zoom gesture state machine of one scroll view: dragging,
/// flicks, elastic edges, paging, zoom, and scrolling by keys and by the program.
///
/// A value type with no clock: touches bring their own timestamps, program requests take a time,
/// and `state(at:)` answers for any moment. Motions are closed-form simulations started at a
/// known time, so the same inputs give the same positions at any frame rate.
package struct ScrollController: Sendable {
    package var configuration: ScrollConfiguration
    package private(set) var viewportSize: Size
    package private(set) var contentSize: Size

    // MARK: State

    enum AxisMotion: Sendable {
        case still(Double)
        case ballistic(BouncingScrollSimulation, start: Double)
        case spring(SpringSimulation, start: Double, phase: ScrollPhase)
        /// Constant speed until `limit` (autoscroll).
        case linear(from: Double, velocity: Double, start: Double, limit: Double)

        func position(at t: Double) -> Double {
            switch self {
            case let .linear(x0, v, start, limit):
                let x = x0 + v * (t - start)
                return v > 0 ? min(x, max(limit, x0)) : max(x, min(limit, x0))
            case let .still(x): return x
            case let .ballistic(s, start): return s.isDone(at: t - start) ? s.finalPosition : s.position(at: t - start)
            case let .spring(s, start, _): return s.isDone(at: t - start) ? s.target : s.position(at: t - start)
            }
        }
        func velocity(at t: Double) -> Double {
            switch self {
            case .still: return 0
            case let .ballistic(s, start): return s.isDone(at: t - start) ? 0 : s.velocity(at: t - start)
            case let .spring(s, start, _): return s.isDone(at: t - start) ? 0 : s.velocity(at: t - start)
            case .linear: return phase(at: t) == .idle ? 0 : linearVelocity
            }
        }
        func phase(at t: Double) -> ScrollPhase {
            switch self {
            case .still: return .idle
            case let .ballistic(s, start):
                if s.isDone(at: t - start) { return .idle }
                return s.stage(at: t - start) == .bouncing ? .bouncing : .decelerating
            case let .spring(s, start, phase): return s.isDone(at: t - start) ? .idle : phase
            case let .linear(x0, v, start, limit):
                let x = x0 + v * (t - start)
                return (v > 0 ? x < limit : x > limit) ? .animating : .idle
            }
        }
        var linearVelocity: Double {
            if case let .linear(_, v, _, _) = self { return v }
            return 0
        }
        /// Where a program or key animation is heading (for repeated key presses).
        var destination: Double? {
            if case let .spring(s, _, phase) = self, phase == .animating { return s.target }
            return nil
        }
    }

    /// A zoom that animates scale around a focus point while steering the offset to a valid
    /// resting place at the new scale.
    struct ZoomAnimation: Sendable {
        var scale: SpringSimulation
        var start: Double
        var fromScale: Double
        var focus: Point
        var fromOffset: Point
        var correction: Point

        func offset(forScale s: Double) -> Point {
            let focused = (focus + fromOffset) * (s / fromScale) - focus
            let span = scale.target - fromScale
            let progress = span == 0 ? 1 : (s - fromScale) / span
            return focused + correction * progress
        }
        func isDone(at t: Double) -> Bool { scale.isDone(at: t - start) }
        func currentScale(at t: Double) -> Double {
            isDone(at: t) ? scale.target : scale.position(at: t - start)
        }
    }

    struct Drag: Sendable {
        var id: Int
        /// The touch point that corresponds to `startRaw` (past the slop, so no jump).
        var origin: Point
        /// Unconstrained offset at the start of the drag (inverse rubber band of what was shown).
        var startRaw: Point
        var axes: Axes
        var startPage: [Int]
        /// Where the newest sample puts the content; frames may draw it resampled.
        var offset: Point
        /// The finger's newest samples since the drag began, for resampling.
        var path: [TouchSample]
        static let pathLength = 8
    }

    struct Pinch: Sendable {
        var ids: (Int, Int)
        var startMidpoint: Point
        var startDistance: Double
        var startOffset: Point
        var startRawScale: Double
        var startScale: Double
        var offset: Point
        var scale: Double
        var midpoint: Point
    }

    enum Mode: Sendable {
        /// No finger; motions (if any) run.
        case free
        /// A finger is down, not yet past the slop. `stoppedMotion`: it stopped moving content,
        /// so its lift is not a tap.
        case tracking(id: Int, down: Point, stoppedMotion: Bool)
        case dragging(Drag)
        case pinching(Pinch)
    }

    var mode: Mode = .free
    var motions: [AxisMotion]
    var zoom: ZoomAnimation?
    var scale = 1.0
    var touches: [Int: Point] = [:]
    var trackers: [Int: (x: VelocityTracker, y: VelocityTracker)] = [:]
    var taps = TapSequence()
    var lastFocus = Point.zero
    var lastTime = -Double.infinity

    package init(
        viewportSize: Size, contentSize: Size, configuration: ScrollConfiguration = .init(),
        offset: Point = .zero
    ) {
        self.configuration = configuration
        self.viewportSize = Self.sanitized(viewportSize)
        self.contentSize = Self.sanitized(contentSize)
        scale = max(configuration.minimumScale, min(configuration.maximumScale, 1))
        motions = [.still(0), .still(0)]
        let clamped = clampedOffset(offset.isFinite ? offset : .zero, scale: scale)
        motions = [.still(clamped.x), .still(clamped.y)]
    }

    static func sanitized(_ size: Size) -> Size {
        func ok(_ v: Double) -> Double { v.isFinite ? max(0, min(v, 1e9)) : 0 }
        return Size(width: ok(size.width), height: ok(size.height))
    }

    // MARK: Geometry

    /// The largest resting offset on `axis` at scale `s`.
    package func maximumOffset(_ axis: Axis, scale s: Double? = nil) -> Double {
        max(0, contentSize[axis] * (s ?? scale) - viewportSize[axis])
    }

    func canScroll(_ axis: Axis) -> Bool {
        let c = configuration
        guard c.axes.contains(axis.member) || c.isZoomEnabled else { return false }
        return maximumOffset(axis) > 0 || c.alwaysBounces(axis)
    }

    func clampedOffset(_ p: Point, scale s: Double) -> Point {
        Point(
            x: max(0, min(maximumOffset(.horizontal, scale: s), p.x)),
            y: max(0, min(maximumOffset(.vertical, scale: s), p.y)))
    }

    /// The pages along `axis`: the page size less the overlap, and the end of the content.
    package func pageSnapping(_ axis: Axis) -> PageSnapping {
        let size = (configuration.pageSize ?? viewportSize[axis]) - configuration.pageOverlap
        return PageSnapping(
            pageSize: size, maximumOffset: maximumOffset(axis),
            flickVelocity: configuration.pagingFlickVelocity,
            countsFromEnd: axis == .horizontal && configuration.pagesFromRight)
    }

    /// What the finger's unconstrained offset shows: itself inside the bounds, rubber-banded
    /// past them (or clamped when elasticity is off on that axis).
    func shownOffset(raw: Double, axis: Axis) -> Double {
        let hi = maximumOffset(axis), d = viewportSize[axis]
        guard configuration.bounces(axis) else { return max(0, min(hi, raw)) }
        if raw < 0 { return -rubberBand(overshoot: -raw, dimension: d) }
        if raw > hi { return hi + rubberBand(overshoot: raw - hi, dimension: d) }
        return raw
    }

    func rawOffset(shown: Double, axis: Axis) -> Double {
        let hi = maximumOffset(axis), d = viewportSize[axis]
        if shown < 0 { return -rubberBandInverse(shown: -shown, dimension: d) }
        if shown > hi { return hi + rubberBandInverse(shown: shown - hi, dimension: d) }
        return shown
    }

    /// Pinching past a scale limit is rubber-banded like an edge, on the excess scale.
    func shownScale(raw: Double) -> Double {
        let lo = configuration.minimumScale, hi = configuration.maximumScale
        if raw > hi { return hi + rubberBand(overshoot: raw - hi, dimension: hi) }
        if raw < lo { return lo - rubberBand(overshoot: lo - raw, dimension: lo / 2) }
        return raw
    }

    func rawScale(shown: Double) -> Double {
        let lo = configuration.minimumScale, hi = configuration.maximumScale
        if shown > hi { return hi + rubberBandInverse(shown: shown - hi, dimension: hi) }
        if shown < lo { return lo - rubberBandInverse(shown: lo - shown, dimension: lo / 2) }
        return shown
    }

    // MARK: Queries

    /// The state at time `t` (seconds on the same timeline as the events).
    package func state(at t: Double) -> ScrollState {
        switch mode {
        case let .dragging(drag):
            var offset = drag.offset
            if let resampling = configuration.touchResampling,
                let p = resampling.position(at: t, in: drag.path)
            {
                offset = dragOffset(drag, fingerAt: p)
            }
            return ScrollState(offset: offset, scale: scale, velocity: fingerVelocity(drag.id), phase: .dragging)
        case let .pinching(p):
            return ScrollState(offset: p.offset, scale: p.scale, velocity: .zero, phase: .zooming)
        case .tracking:
            return ScrollState(
                offset: Point(x: motions[0].position(at: t), y: motions[1].position(at: t)),
                scale: scale, velocity: .zero, phase: .touching)
        case .free:
            if let zoom {
                let s = zoom.currentScale(at: t)
                let done = zoom.isDone(at: t)
                return ScrollState(
                    offset: zoom.offset(forScale: s), scale: s, velocity: .zero,
                    phase: done ? .idle : .zooming)
            }
            let offset = Point(x: motions[0].position(at: t), y: motions[1].position(at: t))
            let velocity = Point(x: motions[0].velocity(at: t), y: motions[1].velocity(at: t))
            let phases = motions.map { $0.phase(at: t) }
            let order: [ScrollPhase] = [.bouncing, .snapping, .animating, .decelerating]
            let phase = order.first { phases.contains($0) } ?? .idle
            return ScrollState(offset: offset, scale: scale, velocity: velocity, phase: phase)
        }
    }

    /// Where a running program or key scroll is heading; nil when none runs.
    package func destination(at t: Double) -> Point? {
        guard case .free = mode, zoom == nil else { return nil }
        let x = motions[0].destination, y = motions[1].destination
        guard x != nil || y != nil else { return nil }
        return Point(x: x ?? motions[0].position(at: t), y: y ?? motions[1].position(at: t))
    }

    /// True when nothing moves at `t` and no finger is down: the app can stop drawing and the
    /// board's CPU can sleep.
    package func isAtRest(at t: Double) -> Bool { state(at: t).phase == .idle }

    /// True when the state stays what it is at `t` until the next touch or request: at rest,
    /// or a finger resting on the content, pinching without moving, or dragging with its last
    /// move far enough back that resampling draws it where it is (the frame trails by the
    /// resampling latency and predicts at most `maximumPrediction` past the newest sample).
    package func isStill(at t: Double) -> Bool {
        switch mode {
        case .tracking, .pinching: return true
        case let .dragging(drag):
            let horizon = configuration.touchResampling.map { $0.latency + TouchResampling.maximumPrediction } ?? 0
            return t - (drag.path.last?.time ?? -.infinity) >= horizon
        case .free: return isAtRest(at: t)
        }
    }

    /// The current page on each axis (nearest page start), for page controls.
    package func currentPage(_ axis: Axis, at t: Double) -> Int {
        pageSnapping(axis).nearestPage(to: state(at: t).offset[axis])
    }

    package func pageCount(_ axis: Axis) -> Int { pageSnapping(axis).pageCount }

    func fingerVelocity(_ id: Int) -> Point {
        guard let tr = trackers[id] else { return .zero }
        return Point(x: -tr.x.velocity(), y: -tr.y.velocity())
    }

    // MARK: Freezing motion

    /// Replaces running motions by their values at `t`, so the next change starts from there.
    mutating func freeze(at t: Double) {
        let s = state(at: t)
        zoom = nil
        // A zoom springing back from a pinch past a limit is stopped at the limit: a program
        // scroll that interrupts it must not leave the scale outside for good.
        scale = max(configuration.minimumScale, min(configuration.maximumScale, s.scale))
        motions = [.still(s.offset.x), .still(s.offset.y)]
    }

    /// Stays at `x` when it is inside the content, else springs back to the nearer edge.
    func resting(at x: Double, _ axis: Axis, _ t: Double) -> AxisMotion {
        x >= 0 && x <= maximumOffset(axis) ? .still(x) : fling(from: x, velocity: 0, axis, t)
    }

    /// Friction from `x` at `v` from time `t`, and a bounce at an edge (or straight back from
    /// past one), within the current content.
    func fling(from x: Double, velocity v: Double, _ axis: Axis, _ t: Double) -> AxisMotion {
        let c = configuration
        return .ballistic(
            BouncingScrollSimulation(
                position: x, velocity: v, leadingExtent: 0, trailingExtent: maximumOffset(axis), rate: c.decelerationRate,
                bounceSpring: c.bounceSpring, maximumBounceVelocity: c.bounces(axis) ? c.maximumBounceVelocity : 0,
                tolerance: c.tolerance), start: t)
    }

    // MARK: Touches

    /// Feeds one touch sample. Returns a tap or double tap when the touch meant one.
    @discardableResult
    package mutating func handle(_ event: TouchEvent) -> Gesture? {
        var p = event.location, time = event.time
        if !(p.isFinite && abs(p.x) < 1e7 && abs(p.y) < 1e7 && time.isFinite) {
            // A sample with an absurd place or time is dropped, but a lift never is: a finger
            // that stayed down for good would hold the content forever. It ends where and when
            // the finger was last seen.
            guard event.phase == .ended || event.phase == .cancelled, let last = touches[event.id] else { return nil }
            p = last
            time = lastTime
        }
        // Out-of-order time is clamped rather than trusted: motion must never run backwards.
        let t = max(time, lastTime)
        lastTime = t
        switch event.phase {
        case .began: return began(id: event.id, at: p, time: t)
        case .moved: moved(id: event.id, to: p, time: t); return nil
        case .ended: return ended(id: event.id, at: p, time: t, cancelled: false)
        case .cancelled: return ended(id: event.id, at: p, time: t, cancelled: true)
        }
    }

    mutating func began(id: Int, at p: Point, time t: Double) -> Gesture? {
        touches[id] = p
        var tracker = (x: VelocityTracker(), y: VelocityTracker())
        tracker.x.add(time: t, position: p.x); tracker.y.add(time: t, position: p.y)
        trackers[id] = tracker
        switch mode {
        case .free:
            let moving = !isAtRest(at: t)
            freeze(at: t)
            mode = .tracking(id: id, down: p, stoppedMotion: moving)
        case let .tracking(first, _, _):
            startPinchIfPossible(first, id, time: t)
        case let .dragging(drag):
            startPinchIfPossible(drag.id, id, time: t)
        case .pinching:
            break  // a third finger does not take part
        }
        return nil
    }

    mutating func startPinchIfPossible(_ a: Int, _ b: Int, time t: Double) {
        guard configuration.isZoomEnabled, let pa = touches[a], let pb = touches[b] else { return }
        let current = state(at: t)
        let mid = (pa + pb) / 2
        let distance = max(1, (pa - pb).length)
        mode = .pinching(
            Pinch(
                ids: (a, b), startMidpoint: mid, startDistance: distance,
                startOffset: current.offset, startRawScale: rawScale(shown: current.scale),
                startScale: current.scale, offset: current.offset, scale: current.scale,
                midpoint: mid))
        lastFocus = mid
    }

    mutating func moved(id: Int, to p: Point, time t: Double) {
        guard touches[id] != nil else { return }
        touches[id] = p
        trackers[id]?.x.add(time: t, position: p.x)
        trackers[id]?.y.add(time: t, position: p.y)
        switch mode {
        case .free: break
        case let .tracking(trackedID, down, _):
            guard trackedID == id else { return }
            var delta = p - down
            if !canScroll(.horizontal) { delta.x = 0 }
            if !canScroll(.vertical) { delta.y = 0 }
            let distance = delta.length
            guard distance > configuration.touchSlop else { return }
            // The drag's origin sits on the slop circle, so content starts from zero movement.
            let origin = down + delta * (configuration.touchSlop / distance)
            var axes: Axes = []
            if delta.x != 0 { axes.insert(.horizontal) }
            if delta.y != 0 { axes.insert(.vertical) }
            if axes == .both && configuration.isDirectionalLockEnabled && !configuration.isZoomEnabled {
                let tan30 = 0.577_350_269
                if abs(delta.y) <= abs(delta.x) * tan30 {
                    axes = .horizontal
                } else if abs(delta.x) <= abs(delta.y) * tan30 {
                    axes = .vertical
                }
            }
            if canScroll(.horizontal) && configuration.isZoomEnabled { axes.insert(.horizontal) }
            if canScroll(.vertical) && configuration.isZoomEnabled { axes.insert(.vertical) }
            startDrag(id: id, origin: origin, axes: axes, time: t)
            updateDrag(to: p, time: t)
        case .dragging(let drag):
            guard drag.id == id else { return }
            updateDrag(to: p, time: t)
        case var .pinching(pinch):
            guard let a = touches[pinch.ids.0], let b = touches[pinch.ids.1] else { return }
            let mid = (a + b) / 2
            let distance = max(1, (a - b).length)
            let s = shownScale(raw: pinch.startRawScale * distance / pinch.startDistance)
            pinch.scale = s
            pinch.midpoint = mid
            pinch.offset = (pinch.startMidpoint + pinch.startOffset) * (s / pinch.startScale) - mid
            scale = s
            lastFocus = mid
            mode = .pinching(pinch)
        }
    }

    mutating func startDrag(id: Int, origin: Point, axes: Axes, time t: Double) {
        let shown = state(at: t).offset
        let raw = Point(x: rawOffset(shown: shown.x, axis: .horizontal), y: rawOffset(shown: shown.y, axis: .vertical))
        let pages = Axis.allCases.map { pageSnapping($0).nearestPage(to: shown[$0]) }
        // The path starts at the origin: a resampled frame never shows the content moving
        // before the drag began.
        mode = .dragging(
            Drag(
                id: id, origin: origin, startRaw: raw, axes: axes, startPage: pages, offset: shown,
                path: [TouchSample(time: t, location: origin)]))
    }

    /// The offset that shows the finger at `p`.
    func dragOffset(_ drag: Drag, fingerAt p: Point) -> Point {
        var offset = drag.offset
        for axis in Axis.allCases where drag.axes.contains(axis.member) {
            offset[axis] = shownOffset(raw: drag.startRaw[axis] + (drag.origin[axis] - p[axis]), axis: axis)
        }
        return offset
    }

    /// The finger is at `p`; `time` adds it to the drag's path (nil: the same finger position
    /// seen again after the content changed under it).
    mutating func updateDrag(to p: Point, time: Double? = nil) {
        guard case var .dragging(drag) = mode else { return }
        drag.offset = dragOffset(drag, fingerAt: p)
        if let time {
            if drag.path.count == Drag.pathLength { drag.path.removeFirst() }
            drag.path.append(TouchSample(time: time, location: p))
        }
        motions = [.still(drag.offset.x), .still(drag.offset.y)]
        lastFocus = p
        mode = .dragging(drag)
    }

    mutating func ended(id: Int, at p: Point, time t: Double, cancelled: Bool) -> Gesture? {
        guard touches[id] != nil else { return nil }
        touches[id] = nil
        defer { trackers[id] = nil }
        switch mode {
        case .free:
            return nil
        case let .tracking(trackedID, down, stoppedMotion):
            guard trackedID == id else { return nil }
            mode = .free
            settle(velocity: .zero, startPages: nil, time: t)
            guard !cancelled, !stoppedMotion else { taps.reset(); return nil }
            return recordTap(at: down, time: t)
        case let .dragging(drag):
            guard drag.id == id else { return nil }
            mode = .free
            var velocity = Point.zero
            if !cancelled, let tr = trackers[id] {
                velocity = Point(x: -tr.x.velocity(releaseTime: t), y: -tr.y.velocity(releaseTime: t))
            }
            for axis in Axis.allCases where !drag.axes.contains(axis.member) { velocity[axis] = 0 }
            taps.reset()
            release(velocity: velocity, startPages: drag.startPage, at: t)
            return nil
        case let .pinching(pinch):
            scale = pinch.scale
            motions = [.still(pinch.offset.x), .still(pinch.offset.y)]
            let remaining = id == pinch.ids.0 ? pinch.ids.1 : pinch.ids.0
            if let q = touches[remaining] {
                // The other finger keeps panning, from where it is, with a fresh velocity history.
                var tracker = (x: VelocityTracker(), y: VelocityTracker())
                tracker.x.add(time: t, position: q.x); tracker.y.add(time: t, position: q.y)
                trackers[remaining] = tracker
                startDrag(id: remaining, origin: q, axes: .both, time: t)
            } else {
                mode = .free
                settle(velocity: .zero, startPages: nil, time: t)
            }
            taps.reset()
            return nil
        }
    }

    mutating func recordTap(at p: Point, time t: Double) -> Gesture {
        if taps.tap(at: p, time: t, interval: configuration.doubleTapInterval, distance: configuration.doubleTapDistance) {
            if configuration.isZoomEnabled {
                let target =
                    scale > configuration.minimumScale + 0.01
                    ? configuration.minimumScale
                    : configuration.doubleTapScale
                zoom(to: target, around: p, at: t)
            }
            return .doubleTap(p)
        }
        return .tap(p)
    }

    // MARK: Release

    /// Starts the motion that a finger release with `velocity` (offset points per second)
    /// would: a fling with friction, an edge bounce, or a page snap. Used by touch releases,
    /// touchpad kinetic scrolling and the feel lab.
    package mutating func release(velocity: Point, at t: Double) {
        freeze(at: t)
        let pages = Axis.allCases.map { pageSnapping($0).nearestPage(to: state(at: t).offset[$0]) }
        release(velocity: velocity, startPages: pages, at: t)
    }

    mutating func release(velocity raw: Point, startPages: [Int]?, at t: Double) {
        var v = raw.isFinite ? raw : .zero
        let speed = v.length
        if speed > configuration.maximumFlingVelocity { v = v * (configuration.maximumFlingVelocity / speed) }
        if speed < configuration.minimumFlingVelocity { v = .zero }
        settle(velocity: v, startPages: startPages, time: t)
    }

    /// Chooses the motion after a release: springs back a scale past its limits, snaps pages,
    /// or flings each axis.
    mutating func settle(velocity v: Point, startPages: [Int]?, time t: Double) {
        let c = configuration
        if c.isZoomEnabled, scale < c.minimumScale || scale > c.maximumScale {
            zoom(to: max(c.minimumScale, min(c.maximumScale, scale)), around: lastFocus, at: t)
            return
        }
        let current = state(at: t).offset
        motions = Axis.allCases.map { axis in
            let x = current[axis]
            let hi = maximumOffset(axis)
            let vx = canScroll(axis) ? v[axis] : 0
            if c.isPagingEnabled {
                let snap = pageSnapping(axis)
                let start = startPages?[axis.rawValue] ?? snap.nearestPage(to: x)
                let target = snap.startOffset(ofPage: snap.targetPage(startPage: start, offset: x, velocity: vx))
                if target == x && vx == 0 { return .still(x) }
                let safe = SpringSimulation.noCrossingVelocity(vx, displacement: x - target, spring: c.animationSpring)
                return .spring(
                    SpringSimulation(
                        spring: c.animationSpring, position: x, velocity: safe,
                        target: target, tolerance: c.tolerance), start: t, phase: .snapping)
            }
            if vx == 0 && x >= 0 && x <= hi { return .still(x) }
            return fling(from: x, velocity: vx, axis, t)
        }
    }

    // MARK: Program and key scrolling

    /// Scrolls to `offset` (clamped to the content), animated with the animation spring unless
    /// `animated` is false.
    package mutating func scroll(to offset: Point, animated: Bool = true, at t: Double) {
        guard offset.isFinite else { return }
        let current = state(at: t)
        freeze(at: t)
        if case .dragging = mode { return }
        if case .pinching = mode { return }
        let target = clampedOffset(offset, scale: scale)
        motions = Axis.allCases.map { axis in
            let x = current.offset[axis], goal = target[axis]
            guard animated, abs(goal - x) > configuration.tolerance.distance else { return .still(goal) }
            let v = SpringSimulation.noCrossingVelocity(
                current.velocity[axis], displacement: x - goal,
                spring: configuration.animationSpring)
            return .spring(
                SpringSimulation(
                    spring: configuration.animationSpring, position: x, velocity: v,
                    target: goal, tolerance: configuration.tolerance),
                start: t, phase: .animating)
        }
    }

    /// The offset that reveals `rect` (in scaled content points). With an anchor, the anchor
    /// point of the rect lines up with the same anchor point of the viewport; without one, the
    /// minimal scroll that brings it into view, or none if it is already fully visible.
    package func offset(revealing rect: Rect, anchor: UnitPoint?, from current: Point) -> Point {
        var target = current
        for axis in Axis.allCases {
            let lo = axis == .horizontal ? rect.minX : rect.minY
            let len = axis == .horizontal ? rect.width : rect.height
            let view = viewportSize[axis]
            if let anchor {
                let a = axis == .horizontal ? anchor.x : anchor.y
                target[axis] = lo + a * len - a * view
            } else if lo < current[axis] || len > view {
                target[axis] = lo
            } else if lo + len > current[axis] + view {
                target[axis] = lo + len - view
            }
        }
        return clampedOffset(target, scale: scale)
    }

    /// Scrolls so that `rect` (scaled content points) is visible, placed at `anchor` (nil:
    /// the least scrolling that shows it): scrolling to an item, a selection or a focused item.
    package mutating func scroll(toReveal rect: Rect, anchor: UnitPoint? = nil, animated: Bool = true, at t: Double) {
        let base = state(at: t).offset
        scroll(to: offset(revealing: rect, anchor: anchor, from: base), animated: animated, at: t)
    }

    /// Scrolls by `delta` points from where a running program, key or wheel scroll is heading
    /// (so quick wheel notches add up), animated (a mouse wheel or rotary encoder).
    package mutating func scroll(by delta: Point, animated: Bool = true, at t: Double) {
        guard delta.isFinite else { return }
        let now = state(at: t).offset
        let base = Point(x: motions[0].destination ?? now.x, y: motions[1].destination ?? now.y)
        scroll(to: base + delta, animated: animated, at: t)
    }

    /// Scrolls at a steady `velocity` (points per second) until the content's edge or until
    /// called again with zero (dragging a selection past an edge).
    package mutating func autoscroll(velocity: Point, at t: Double) {
        guard velocity.isFinite else { return }
        if case .dragging = mode { return }
        // A zoom animation finishes first (frozen halfway, the content could rest out of
        // bounds at a passing scale); the view asks again on its next frame.
        if let zoom, !zoom.isDone(at: t) { return }
        let running = zoom == nil ? motions : nil
        let current = state(at: t).offset
        freeze(at: t)
        motions = Axis.allCases.map { axis in
            let v = velocity[axis]
            guard v != 0, canScroll(axis) else {
                // Not autoscrolled: a running autoscroll stops where it is, but a fling or a
                // bounce back from past an edge carries on (stopping it there would leave the
                // content out of bounds for good).
                if let motion = running?[axis.rawValue], motion.linearVelocity == 0 { return motion }
                return resting(at: current[axis], axis, t)
            }
            return .linear(from: current[axis], velocity: v, start: t, limit: v > 0 ? maximumOffset(axis) : 0)
        }
    }

    /// Arrow keys, Page Up/Down, Home/End. Repeated presses accumulate from where the running
    /// key animation is heading, so three Page Downs move three pages.
    package mutating func perform(_ command: ScrollCommand, at t: Double) {
        let now = state(at: t).offset
        let base = Point(x: motions[0].destination ?? now.x, y: motions[1].destination ?? now.y)
        let page = Point(x: pageSnapping(.horizontal).pageSize, y: pageSnapping(.vertical).pageSize)
        let line = configuration.lineScroll
        var target = base
        switch command {
        case .lineUp: target.y -= line
        case .lineDown: target.y += line
        case .lineLeft: target.x -= line
        case .lineRight: target.x += line
        case .pageUp: target.y -= page.y
        case .pageDown: target.y += page.y
        case .pageLeft: target.x -= page.x
        case .pageRight: target.x += page.x
        case .home:
            if canScroll(.vertical) { target.y = 0 } else { target.x = 0 }
        case .end:
            if canScroll(.vertical) { target.y = maximumOffset(.vertical) } else { target.x = maximumOffset(.horizontal) }
        }
        scroll(to: target, animated: true, at: t)
    }

    // MARK: Zoom

    /// Animates the scale to `target` (clamped to the limits) keeping the content point under
    /// `focus` (view points) in place, then settling the offset inside the content.
    package mutating func zoom(to target: Double, around focus: Point, animated: Bool = true, at t: Double) {
        guard target.isFinite, focus.isFinite else { return }
        // A finger on the content owns it: a zoom under a resting, dragging or pinching finger
        // would fight it (a resting finger's drag starts from the scale it saw).
        guard case .free = mode else { return }
        let c = configuration
        let current = state(at: t)
        freeze(at: t)
        let goal = max(c.minimumScale, min(c.maximumScale, target))
        let focused = (focus + current.offset) * (goal / current.scale) - focus
        let final = clampedOffset(focused, scale: goal)
        guard animated, abs(goal - current.scale) > 1e-6 else {
            scale = goal
            motions = [.still(final.x), .still(final.y)]
            return
        }
        // Scale is animated in its own units; the tolerance shrinks so the settle is invisible.
        let tolerance = Tolerance(distance: 0.0005, velocity: 0.01)
        zoom = ZoomAnimation(
            scale: SpringSimulation(
                spring: c.animationSpring, position: current.scale,
                velocity: 0, target: goal, tolerance: tolerance),
            start: t, fromScale: current.scale, focus: focus, fromOffset: current.offset,
            correction: final - focused)
        scale = goal
        motions = [.still(final.x), .still(final.y)]
    }

    // MARK: Geometry changes

    /// The content changed length while it may be moving (a lazy list measured rows it had
    /// estimated) and everything in it moved by `shift` points: the running fling, drag, page
    /// snap or program scroll carries on as if nothing happened, only `shift` further along, so
    /// what is on screen stays put.
    package mutating func changeContent(size: Size, shiftedBy shift: Point, at t: Double) {
        resize(viewport: viewportSize, content: size, shiftedBy: shift, at: t)
    }

    /// New viewport or content size (rotation, a keyboard, rows inserted, a label that grew), with
    /// everything in the content moved by `shift` points (the row being read held in place when
    /// content is inserted above it). Sizes and a shift that change nothing change nothing: a
    /// window lays out whenever any label changes, and that must never touch motion (a flick or a
    /// paging snap). Otherwise motion carries on in the new bounds: a fling from where it is at its
    /// speed, a drag under the finger, a program scroll towards its goal (clamped), and a page snap
    /// towards the same page at the new page size, so it always ends on a page.
    package mutating func resize(viewport: Size, content: Size, shiftedBy shift: Point = .zero, at t: Double) {
        // Content is at most 1e9 points long: a larger shift is no measurement, and springs
        // started that far away overflow.
        let d = shift.isFinite ? Point(x: max(-1e9, min(1e9, shift.x)), y: max(-1e9, min(1e9, shift.y))) : .zero
        let newViewport = Self.sanitized(viewport), newContent = Self.sanitized(content)
        guard newViewport != viewportSize || newContent != contentSize || d != .zero else { return }
        // Pages are counted in the old geometry and found again in the new one.
        let oldPages =
            configuration.isPagingEnabled && newViewport != viewportSize
            ? Axis.allCases.map { pageSnapping($0) } : nil
        viewportSize = newViewport
        contentSize = newContent
        switch mode {
        case var .dragging(drag):
            drag.startRaw = drag.startRaw + d
            mode = .dragging(drag)
            updateDrag(to: lastFocus)
            return
        case .pinching:
            return
        case .free, .tracking:
            break
        }
        // A zoom animation (even a finished one, which still holds the offset) steers to a
        // resting place in the old bounds: stop it here and settle into the new ones.
        if zoom != nil { freeze(at: t) }
        motions = Axis.allCases.map { axis in
            let motion = motions[axis.rawValue]
            let x = motion.position(at: t) + d[axis], v = motion.velocity(at: t)
            let hi = maximumOffset(axis)
            /// The start of the page `offset` was nearest to, in the new geometry.
            func samePage(_ offset: Double) -> Double? {
                guard let old = oldPages?[axis.rawValue] else { return nil }
                return pageSnapping(axis).startOffset(ofPage: old.nearestPage(to: offset))
            }
            func rest() -> AxisMotion { .still(samePage(x - d[axis]) ?? max(0, min(hi, x))) }
            switch motion {
            case .still:
                return rest()
            case .ballistic:
                // Friction forgets its past: restarting from here at this speed is the same
                // trajectory, with the new bounds.
                return fling(from: x, velocity: v, axis, t)
            case let .spring(s, start, phase):
                guard !s.isDone(at: t - start) else { return rest() }
                let target = samePage(s.target) ?? max(0, min(hi, s.target + d[axis]))
                return .spring(
                    SpringSimulation(
                        spring: s.spring, position: x, velocity: v, target: target,
                        tolerance: s.tolerance), start: t, phase: phase)
            case let .linear(_, velocity, _, _):
                guard x >= 0 && x <= hi else { return resting(at: x, axis, t) }
                return .linear(from: x, velocity: velocity, start: t, limit: velocity > 0 ? hi : 0)
            }
        }
    }
}
