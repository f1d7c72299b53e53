import Geometry
import Physics
import AppContract
import Scrolling
@_spi(Hooks) import ViewCore

/// What takes touches before the arena while it is on (the screen reader): every touch that
/// begins with no other under way goes to it instead.
package protocol TouchInterceptor: AnyObject {
    func touch(_ phase: InputEvent.TouchPhase, slot: Int, at p: Point, time t: Double)
}

/// Decides who gets each touch, wheel turn and touchpad scroll: a second finger on a
/// zoomable view pinches; a view with `onDrag` takes its touch; a `TouchTarget` (a page
/// control, an app's own control) hears it alongside the scroll views around it until one side
/// claims it; a finger on a long list's indicator scrubs; otherwise the gesture participants
/// under the finger (scroll views) form an arena, and the innermost that starts dragging along
/// the finger's axis claims it; a touch that never moved past the window's one slop is a tap.
/// It decides among participants and targets by their protocols alone.
package final class TouchRouter {
    /// Where touches are hit-tested: the window's tree, the app under the edit menu.
    package let root: View
    /// The window's timers: a press or long press due later wakes a sleeping loop.
    package let timers: LoopScheduler
    /// The slop, the long-press time and the press delay (the window's environment).
    package var gestures = GestureSettings()
    /// While the screen reader is on, touches that begin with no other under way go to it.
    package var screenReader: TouchInterceptor?
    /// The participant a finger, wheel or touchpad moved last: keys go there without focus.
    package private(set) var lastScrolled: GestureParticipant?

    /// One finger on the screen: where it came down and was last seen, what it landed on, and
    /// who has it.
    struct Touch {
        var down: Point
        /// Where the finger was last seen: a lift reported at no usable place ends there.
        var last: Point?
        /// The view it landed on.
        var hit: View?
        var movedPastSlop = false
        var route: Route
    }

    /// Who a touch belongs to, decided when it comes down and refined as it moves.
    enum Route {
        /// A view with `onDrag` drags with it.
        case drag(View)
        /// It scrubs `sv`'s indicator: the function follows the finger.
        case scrub(GestureParticipant, (Point, Double) -> Void)
        /// A touch target hears it, and the participants around it watch until it decides.
        case target(TouchTarget, around: [GestureParticipant])
        /// The participants under it compete for it; it may press, tap or long-press a view.
        case arena(Arena)
    }

    /// The participants a touch is offered to, innermost first, the one that claimed it, and
    /// the view it presses.
    struct Arena {
        var candidates: [GestureParticipant]
        var claimed: GestureParticipant?
        var press: Press?
    }

    /// A touch on a view with `onTap` or `onLongPress` (UIScrollView's delaysContentTouches):
    /// pressed once it has rested `delay` without scrolling, long-pressed at 500 ms.
    struct Press {
        var view: View
        var down: Double
        var delay: Double
        var longPressed = false
        var timers: [LoopTimer] = []
    }
    /// Views shown pressed for a moment after a quick tap, until the time given.
    private var flashes: [(view: View, until: Double)] = []
    private var routes: [Int: Touch] = [:]
    private var pointerButtonDown = false

    /// Touchpad fingers scrolling a view, with their travel for the release velocity.
    private struct FingerScroll {
        var view: GestureParticipant
        var travelled = Point.zero
        var x = VelocityTracker(), y = VelocityTracker()
    }
    private var fingerScroll: FingerScroll?

    /// A pointer's left button acts as a finger on this slot.
    package static let pointerSlot = 1 << 20

    package init(root: View, timers: LoopScheduler) {
        self.root = root
        self.timers = timers
    }

    /// True while a finger holds content (a drag or a scrub): the window is not at rest.
    package var isHolding: Bool {
        routes.values.contains {
            switch $0.route {
            case .scrub: true
            case let .arena(arena): arena.claimed != nil
            case .drag, .target: false
            }
        }
    }

    package func pointerMoved(to p: Point, time t: Double) {
        if pointerButtonDown { touch(.move, slot: Self.pointerSlot, at: p, time: t) }
    }

    package func pointerButton(pressed: Bool, at p: Point, time t: Double) {
        pointerButtonDown = pressed
        touch(pressed ? .down : .up, slot: Self.pointerSlot, at: p, time: t)
    }

    private func cancel(_ participants: [GestureParticipant], slot: Int, at p: Point, time t: Double) {
        for sv in participants { sv.follow(.cancelled, slot: slot, at: p, time: t) }
    }

    /// `p` in window points.
    package func touch(_ phase: InputEvent.TouchPhase, slot: Int, at p: Point, time t: Double) {
        if let screenReader, routes.isEmpty {
            screenReader.touch(phase, slot: slot, at: p, time: t)
            return
        }
        dropDepartedViews(at: t)
        switch phase {
        case .down: began(slot: slot, at: p, time: t)
        case .move:
            routes[slot]?.last = p
            moved(slot: slot, to: p, time: t)
        case .up, .cancel: ended(slot: slot, at: p, time: t, cancelled: phase == .cancel)
        }
    }

    /// A lift whose place is unusable (NaN, absurd): the touch ends where it was last seen,
    /// so a bad report never leaves a finger down for good.
    package func lift(slot: Int, time t: Double, cancelled: Bool) {
        dropDepartedViews(at: t)
        guard let touch = routes[slot] else { return }
        ended(slot: slot, at: touch.last ?? touch.down, time: t, cancelled: cancelled)
    }

    /// Fingers followed at once: touchscreens report ten or so. More (a script or a remote
    /// client sending thousands) are ignored until some lift, so the work per event stays
    /// the same however many arrive.
    static let maximumTouches = 10
    /// Injected fingers (`InputEvent.injectedSlots`) followed at once. The touchscreen always
    /// wins: its finger finds room, ending the oldest injected touch if it must, so a remote
    /// client holding fingers down never locks out the person at the screen.
    static let maximumInjectedTouches = 5

    private func began(slot: Int, at p: Point, time t: Double) {
        guard routes[slot] == nil else { return }
        let injected = routes.keys.filter { InputEvent.injectedSlots.contains($0) }
        if InputEvent.injectedSlots.contains(slot) {
            guard injected.count < Self.maximumInjectedTouches, routes.count < Self.maximumTouches else { return }
        } else if routes.count >= Self.maximumTouches {
            guard let oldest = injected.min(), let touch = routes[oldest] else { return }
            ended(slot: oldest, at: touch.last ?? touch.down, time: t, cancelled: true)
        }
        let hit = root.hitTest(p)
        let chain = hit.map { Array($0.selfAndAncestors) } ?? []
        func start(_ route: Route) { routes[slot] = Touch(down: p, hit: hit, route: route) }
        // A second finger on a zoomable view that already has one: a pinch.
        for (_, touch) in routes {
            let first: GestureParticipant?
            switch touch.route {
            case let .arena(arena): first = arena.claimed ?? arena.candidates.first
            case let .target(_, around): first = around.first
            case .drag, .scrub: first = nil
            }
            guard let sv = first, sv.takesPinch, chain.contains(where: { $0 === sv }) else { continue }
            start(.arena(Arena(candidates: [sv], claimed: sv)))
            sv.follow(.began, slot: slot, at: p, time: t)
            return
        }
        if let dragged = chain.first(where: { $0.onDrag != nil }) {
            start(.drag(dragged))
            dragged.onDrag?(.began, p)
            return
        }
        let arena = chain.compactMap { $0 as? GestureParticipant }
        if let target = chain.lazy.compactMap({ $0 as? TouchTarget }).first(where: { $0.wantsTouch(at: p) }) {
            // The participants around it hear the touch too: a move it releases is theirs.
            start(.target(target, around: arena))
            target.touchBegan(at: p, time: t)
            for sv in arena { sv.follow(.began, slot: slot, at: p, time: t) }
            return
        }
        for sv in arena {
            if let scrub = sv.scrubber(at: p, time: t) {
                start(.scrub(sv, scrub))
                lastScrolled = sv
                return
            }
        }
        var contest = Arena(candidates: arena)
        // A touch that stops moving content is not a tap, so it presses nothing.
        if arena.allSatisfy({ $0.isAtRest(at: t) }),
            let pressable = chain.first(where: { $0.onTap != nil || $0.onLongPress != nil })
        {
            contest.press = beginPress(pressable, at: t, insideScrollView: !arena.isEmpty)
        }
        start(.arena(contest))
        // Keys go to the view the finger is on, if it can scroll at all (a sidebar whose tabs
        // all fit is no place for Page Down).
        let scrollable = arena.filter { $0.canScroll }
        if let first = scrollable.first { lastScrolled = scrollable.first { $0.gestureAxes.contains(.vertical) } ?? first }
        for sv in arena { sv.follow(.began, slot: slot, at: p, time: t) }
        updatePresses(at: t)
    }

    private func moved(slot: Int, to p: Point, time t: Double) {
        guard var touch = routes[slot] else { return }
        let moved = p - touch.down
        if moved.length > gestures.touchSlop { touch.movedPastSlop = true }
        switch touch.route {
        case let .drag(dragged):
            dragged.onDrag?(.moved, p)
            dragged.enclosingAutoscroller?.autoscroll(towards: p)
            return
        case let .scrub(_, scrub):
            routes[slot] = touch
            scrub(p, t)
            return
        case let .target(target, around):
            switch target.touchMoved(to: p, time: t) {
            case .undecided:
                routes[slot] = touch
            case .claimed:
                cancel(around, slot: slot, at: p, time: t)
                touch.route = .target(target, around: [])
                routes[slot] = touch
            case .released:
                target.touchEnded(at: p, time: t, cancelled: true)
                var arena = Arena(candidates: around)
                contest(&arena, slot: slot, moved: moved, to: p, time: t)
                touch.route = .arena(arena)
                routes[slot] = touch
            }
        case var .arena(arena):
            contest(&arena, slot: slot, moved: moved, to: p, time: t)
            if touch.movedPastSlop || arena.claimed != nil, let press = arena.press {
                endPress(press)
                arena.press = nil
            }
            touch.route = .arena(arena)
            routes[slot] = touch
        }
    }

    /// A move offered to the arena: the claimant follows it, or the candidates along the
    /// finger's axis do until one claims it.
    private func contest(_ arena: inout Arena, slot: Int, moved: Point, to p: Point, time t: Double) {
        if let sv = arena.claimed {
            sv.follow(.moved, slot: slot, at: p, time: t)
            return
        }
        // Innermost first: the first participant that starts dragging claims the touch and the
        // others let go. Only those that drag along the axis the finger mostly moved on take
        // part, so a steep first move over a horizontal carousel still goes to the vertical
        // list around it.
        let axis: Axes = abs(moved.x) > abs(moved.y) ? .horizontal : .vertical
        let along = arena.candidates.filter { !$0.gestureAxes.isDisjoint(with: axis) }
        for sv in along.isEmpty ? arena.candidates : along {
            sv.follow(.moved, slot: slot, at: p, time: t)
            if sv.hasClaimedTouch(at: t) {
                arena.claimed = sv
                cancel(arena.candidates.filter { $0 !== sv }, slot: slot, at: p, time: t)
                break
            }
        }
    }

    private func ended(slot: Int, at p: Point, time t: Double, cancelled: Bool) {
        guard let touch = routes.removeValue(forKey: slot) else { return }
        switch touch.route {
        case let .drag(dragged):
            dragged.enclosingAutoscroller?.autoscroll(towards: nil)
            dragged.onDrag?(cancelled ? .cancelled : .ended, p)
        case .scrub:
            break
        case let .target(target, around):
            target.touchEnded(at: p, time: t, cancelled: cancelled)
            cancel(around, slot: slot, at: p, time: t)
            // A target that holds other views (a navigation stack watching for its edge swipe)
            // and never took the touch leaves a tap to the view it landed on; one that is what
            // the finger touched (a page control) handles its taps itself.
            if !cancelled, !touch.movedPastSlop, let hit = touch.hit, hit !== target, isInTree(hit) { Self.deliverTap(from: hit, at: p) }
        case let .arena(arena):
            ended(arena, touch: touch, slot: slot, at: p, time: t, cancelled: cancelled)
        }
    }

    /// The lift of a touch in the arena: the claimant's, else a tap if every candidate saw one
    /// and the finger stayed within the slop.
    private func ended(_ arena: Arena, touch: Touch, slot: Int, at p: Point, time t: Double, cancelled: Bool) {
        if let sv = arena.claimed {
            sv.follow(cancelled ? .cancelled : .ended, slot: slot, at: p, time: t)
            return
        }
        let gestures = arena.candidates.map { $0.follow(cancelled ? .cancelled : .ended, slot: slot, at: p, time: t) }
        let isTap =
            !cancelled && !touch.movedPastSlop
            && gestures.allSatisfy {
                if case .tap = $0 { return true }
                if case .doubleTap = $0 { return true }
                return false
            }
        // The window sampled presses at this time before the lift came here.
        let press = arena.press
        let wasShown = press?.view.isPressed ?? false
        if let press { endPress(press) }
        if press?.longPressed == true { return }  // a long press is not a tap
        guard isTap, let hit = touch.hit, isInTree(hit) else { return }
        if let press, !wasShown {
            // A tap quicker than the press delay still shows it, briefly.
            press.view.isPressed = true
            flashes.append((press.view, t + Self.tapFlash))
            wakeForPresses(at: t + Self.tapFlash, now: t)
        }
        Self.deliverTap(from: hit, at: p)
    }

    // MARK: Views that leave the tree

    /// Whether `view` is still in this router's window: a view that left (a dismissed alert's
    /// button, a stepper rebuilt under a resting finger) has no host.
    private func isInTree(_ view: View) -> Bool {
        guard let host = view.host else { return false }
        return host === root.host
    }

    /// Cancels what touches hold of views that left the tree, as UIKit cancels the touches of a
    /// view removed from its window: such a view hears nothing more (its actions may reach a
    /// container that is gone), its press ends, and a touch that has nobody left to go to ends.
    /// Participants still in the tree keep the touch: a row a lazy list let go under a dragging
    /// finger does not stop the list.
    private func dropDepartedViews(at t: Double) {
        for (slot, touch) in routes {
            switch touch.route {
            case let .drag(dragged):
                if !isInTree(dragged) { routes[slot] = nil }
            case let .scrub(sv, _):
                if !isInTree(sv) { routes[slot] = nil }
            case let .target(target, around):
                let staying = around.filter(isInTree)
                if !isInTree(target) {
                    // It hears the touch cancelled, which acts on nothing but itself (a pressed
                    // look, a knob dragged), and the participants around it decide the rest.
                    target.touchEnded(at: touch.last ?? touch.down, time: t, cancelled: true)
                    routes[slot]?.route = .arena(Arena(candidates: staying))
                } else if staying.count != around.count {
                    routes[slot]?.route = .target(target, around: staying)
                }
            case var .arena(arena):
                // A press on a departed view ends without its action.
                if let press = arena.press, !isInTree(press.view) {
                    endPress(press)
                    arena.press = nil
                }
                arena.candidates = arena.candidates.filter(isInTree)
                routes[slot]?.route = .arena(arena)
                let claimantLeft = arena.claimed.map { !isInTree($0) } ?? false
                let nothingLeft = arena.candidates.isEmpty && arena.press == nil && !(touch.hit.map(isInTree) ?? false)
                if claimantLeft || nothingLeft { routes[slot] = nil }
            }
        }
    }

    // MARK: Pressed states and long presses

    /// How long a quick tap shows the view pressed.
    static let tapFlash = 0.1

    private func beginPress(_ view: View, at t: Double, insideScrollView: Bool) -> Press {
        var press = Press(view: view, down: t, delay: insideScrollView ? gestures.pressDelay : 0)
        // Timers wake a sleeping loop when a press is due; the state itself is decided by
        // `updatePresses`, at whatever time the window samples.
        var due = [t + press.delay]
        if view.onLongPress != nil { due.append(t + gestures.longPressDuration) }
        press.timers = due.filter { $0 > t }.map { wakeForPresses(at: $0, now: t) }
        return press
    }

    /// A window timer at `time` that updates the presses: it wakes a sleeping loop, which then
    /// draws what changed.
    @discardableResult
    private func wakeForPresses(at time: Double, now: Double) -> LoopTimer {
        timers.after(max(0, time - (timers.now ?? now))) { [weak self, timers] in self?.updatePresses(at: timers.now ?? time) }
    }

    private func endPress(_ press: Press) {
        for timer in press.timers { timer.cancel() }
        press.view.isPressed = false
    }

    /// Presses views whose touch has rested long enough, long-presses those held 500 ms, and
    /// ends the brief presses of quick taps. Runs whenever the window samples, and on timers.
    package func updatePresses(at t: Double) {
        dropDepartedViews(at: t)
        for (slot, touch) in routes {
            guard case var .arena(arena) = touch.route, var press = arena.press else { continue }
            if t >= press.down + press.delay { press.view.isPressed = true }
            let longPress = !press.longPressed && t >= press.down + gestures.longPressDuration ? press.view.onLongPress : nil
            if longPress != nil { press.longPressed = true }
            arena.press = press
            routes[slot]?.route = .arena(arena)
            if let longPress {
                press.view.touchPoint = touch.last ?? touch.down
                longPress()
            }
        }
        guard !flashes.isEmpty else { return }
        let pressedNow = Set(
            routes.values.compactMap { touch -> ObjectIdentifier? in
                guard case let .arena(arena) = touch.route, let press = arena.press else { return nil }
                return ObjectIdentifier(press.view)
            })
        flashes.removeAll { flash in
            guard t >= flash.until else { return false }
            if !pressedNow.contains(ObjectIdentifier(flash.view)) { flash.view.isPressed = false }
            return true
        }
    }

    /// The tap goes to the nearest view with `onTap`, from `view` up; `point` (window points)
    /// is where the finger lifted, nil for Enter.
    package static func deliverTap(from view: View, at point: Point? = nil) {
        // A view out of every window (a button of a dismissed alert, a row a lazy list let go)
        // taps nothing: its action may reach a container that is gone.
        guard view.host != nil else { return }
        var v: View? = view
        while let c = v {
            if let action = c.onTap { c.touchPoint = point; action(); return }
            v = c.parent
        }
    }

    // MARK: Wheel and touchpad

    /// A wheel or rotary encoder scrolls the innermost participant under the pointer along an
    /// axis it has (vertical by default; a horizontal-only view takes vertical turns too).
    package func wheel(_ delta: Point, at p: Point, time t: Double) {
        guard let (sv, d) = wheelTarget(delta, at: p) else { return }
        sv.scroll(by: d, at: t)
        lastScrolled = sv
    }

    /// The innermost participant under `p` that scrolls along `delta`, and the delta on its axes;
    /// when none does, a vertical wheel turns the innermost horizontal-only one (a carousel
    /// alone on screen), but never one inside a list that scrolls vertically.
    private func wheelTarget(_ delta: Point, at p: Point) -> (GestureParticipant, Point)? {
        let chain = root.hitTest(p)?.selfAndAncestors.compactMap { $0 as? GestureParticipant } ?? []
        if let sv = chain.first(where: { Self.along($0, delta, turning: false) != .zero }) {
            return (sv, Self.along(sv, delta, turning: false))
        }
        if let sv = chain.first(where: { Self.along($0, delta, turning: true) != .zero }) {
            return (sv, Self.along(sv, delta, turning: true))
        }
        return nil
    }

    /// `delta` on `sv`'s axes; `turning`: a vertical-only delta turns a horizontal-only view.
    static func along(_ sv: GestureParticipant, _ delta: Point, turning: Bool) -> Point {
        let axes = sv.gestureAxes
        if turning, axes == .horizontal, delta.x == 0 { return Point(x: delta.y, y: 0) }
        return Point(x: axes.contains(.horizontal) ? delta.x : 0, y: axes.contains(.vertical) ? delta.y : 0)
    }

    /// Touchpad two-finger scrolling: the content follows the fingers 1:1, and when they
    /// lift it carries on with their speed, estimated as for a touch, with the same friction.
    package func fingerScroll(_ delta: Point, at p: Point, time t: Double) {
        if delta == .zero {
            guard let s = fingerScroll else { return }
            fingerScroll = nil
            let v = Point(x: s.x.velocity(releaseTime: t), y: s.y.velocity(releaseTime: t))
            s.view.release(velocity: v, at: t)
            return
        }
        if fingerScroll == nil || fingerScroll?.view.host !== root.host {
            guard let (sv, _) = wheelTarget(delta, at: p) else { return }
            fingerScroll = FingerScroll(view: sv)
        }
        guard var s = fingerScroll else { return }
        let d = Self.along(s.view, delta, turning: true)
        s.view.drag(by: d, at: t)
        s.travelled = s.travelled + d
        s.x.add(time: t, position: s.travelled.x)
        s.y.add(time: t, position: s.travelled.y)
        fingerScroll = s
        lastScrolled = s.view
    }
}
