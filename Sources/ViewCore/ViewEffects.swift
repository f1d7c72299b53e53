import Geometry
import Raster

/// The drawn effects of a view (opacity, offset, scale, rotation, and animated fill and corners) and
/// the animations that move them: values as drawn at a frame's time, and the transitions of
/// views that come and go inside `withAnimation`.
extension View {
    /// Starts an animation of `property` from `from` to `to` when inside `withAnimation` and in a
    /// window; otherwise drops any running one, so the new value shows at once. A property
    /// already moving starts from where it is drawn now, so a change mid-way does not jump.
    package func animate(_ property: AnimatedProperty, from: [Double], to: [Double]) {
        guard let animation = Transaction.current, let host, from != to else {
            animations[property] = nil
            return
        }
        let t = host.time
        let start = animations[property].map { $0.isFinished(at: t) ? $0.to : $0.values(at: t) } ?? from
        animations[property] = PropertyAnimation(animation: animation, start: t, from: start, to: to)
        host.startedAnimating(self)
    }

    /// The values of `property` drawn at `t`, when an animation moves it.
    func presented(_ property: AnimatedProperty, at t: Double) -> [Double]? {
        animations[property].map { $0.isFinished(at: t) ? $0.to : $0.values(at: t) }
    }

    /// The opacity drawn at `t`.
    package func presentedOpacity(at t: Double) -> Double { min(max(presented(.opacity, at: t)?[0] ?? opacity, 0), 1) }
    /// The offset drawn at `t`: its own, and what is left of a move by layout.
    package func presentedOffset(at t: Double) -> Point {
        var o = presented(.offset, at: t).map { Point(x: $0[0], y: $0[1]) } ?? offset
        if let moved = presented(.layout, at: t) { o.x += moved[0]; o.y += moved[1] }
        return o
    }
    /// The scale drawn at `t`.
    package func presentedScale(at t: Double) -> Double { max(presented(.scale, at: t)?[0] ?? scaleEffect, 0) }
    /// The rotation drawn at `t`, in degrees clockwise.
    package func presentedRotation(at t: Double) -> Double { presented(.rotation, at: t)?[0] ?? rotationEffect }
    /// The corner radius drawn at `t`.
    package func presentedCornerRadius(at t: Double, in theme: Theme) -> Double {
        max(presented(.cornerRadius, at: t)?[0] ?? cornerRadius(in: theme), 0)
    }
    /// The fill drawn at `t` (a colour moving between two fills is resolved in the theme it
    /// started in).
    package func presentedFill(at t: Double) -> Color? {
        guard fill != nil, let values = presented(.fill, at: t) else { return fill }
        return Color(animatableValues: values)
    }

    /// True when the view is drawn other than its frame and fill say: see-through, moved,
    /// scaled, or animating.
    package var hasVisualEffects: Bool { opacity != 1 || isMovedByEffects }

    /// True when the view may be drawn off its frame: moved, scaled, turned, or animating.
    package var isMovedByEffects: Bool { offset != .zero || scaleEffect != 1 || rotationEffect != 0 || !animations.isEmpty }

    /// Where the view is drawn at `t` before any rotation, in its parent's content points: its
    /// frame moved by its offset and scaled about its centre.
    package func scaledFrame(at t: Double) -> Rect {
        guard hasVisualEffects else { return frame }
        let o = presentedOffset(at: t), k = presentedScale(at: t)
        let w = frame.width * k, h = frame.height * k
        return Rect(x: frame.minX + o.x + (frame.width - w) / 2, y: frame.minY + o.y + (frame.height - h) / 2, width: w, height: h)
    }

    /// What the view covers at `t`, in its parent's content points: its scaled frame, and when
    /// it is turned, the box around the turned frame.
    package func visualFrame(at t: Double) -> Rect {
        guard hasVisualEffects else { return frame }
        return Self.box(around: scaledFrame(at: t), turnedBy: presentedRotation(at: t))
    }

    /// The box around `frame` turned by `degrees` about its centre (`frame` itself unturned).
    package static func box(around frame: Rect, turnedBy degrees: Double) -> Rect {
        guard degrees.truncatingRemainder(dividingBy: 360) != 0 else { return frame }
        let (c, s) = (abs(cosine(degrees: degrees)), abs(sine(degrees: degrees)))
        let w = frame.width * c + frame.height * s, h = frame.width * s + frame.height * c
        return Rect(x: frame.midX - w / 2, y: frame.midY - h / 2, width: w, height: h)
    }

    /// Drops the animations that ended by `t`; true while any still runs.
    package func dropFinishedAnimations(at t: Double) -> Bool {
        animations = animations.filter { !$0.value.isFinished(at: t) }
        return !animations.isEmpty
    }

    /// True while only animations that never end move the view (a pulse): off screen, it need
    /// not be drawn.
    package var animatesOnlyForever: Bool { !animations.isEmpty && animations.values.allSatisfy { $0.animation.passes == .max } }

    /// The transition this view comes and goes by.
    var shownTransition: Transition { transition ?? .opacity }

    /// Comes in by its transition: from the transition's opacity, offset and scale to its own.
    /// Called once the layout placed it (the slide's distance is its size).
    package func enter(with animation: Animation, at t: Double) {
        let tr = shownTransition.insertion
        let out = tr.offset(for: frame.size, rightToLeft: isRightToLeft)
        func start(_ p: AnimatedProperty, _ from: [Double], _ to: [Double]) {
            guard from != to else { return }
            animations[p] = PropertyAnimation(animation: animation, start: t, from: from, to: to)
        }
        start(.opacity, [tr.opacity * opacity], [opacity])
        start(.offset, [offset.x + out.x, offset.y + out.y], [offset.x, offset.y])
        start(.scale, [tr.scale * scaleEffect], [scaleEffect])
    }

    /// Goes out by its transition, from where it is drawn at `t`: true when there is anything
    /// to see go.
    package func leave(with animation: Animation, at t: Double) -> Bool {
        let tr = shownTransition.removal
        guard !tr.isIdentity else { return false }
        let out = tr.offset(for: frame.size, rightToLeft: isRightToLeft)
        let o = presentedOffset(at: t)
        animations = [
            .opacity: PropertyAnimation(animation: animation, start: t, from: [presentedOpacity(at: t)], to: [tr.opacity * opacity]),
            .offset: PropertyAnimation(animation: animation, start: t, from: [o.x, o.y], to: [offset.x + out.x, offset.y + out.y]),
            .scale: PropertyAnimation(animation: animation, start: t, from: [presentedScale(at: t)], to: [tr.scale * scaleEffect]),
        ]
        isLeaving = true
        return frame.width > 0 && frame.height > 0
    }

    /// Stops going out (taken back, or shown again): no longer drawn by the parent it left.
    package func stopLeaving() {
        if let from = departedFrom { from.departing.removeAll { $0 === self } }
        departedFrom = nil
        if isLeaving { isLeaving = false; animations = [:] }
    }

    /// Moves the view from where the last layout drew it to where the new one placed it:
    /// `delta` (old position less new) eases to zero.
    package func moveByLayout(_ delta: Point, with animation: Animation, at t: Double) {
        var from = [delta.x, delta.y]
        if let moving = presented(.layout, at: t) { from = [from[0] + moving[0], from[1] + moving[1]] }
        animations[.layout] = PropertyAnimation(animation: animation, start: t, from: from, to: [0, 0])
    }
}
