@_spi(Hooks) import ViewCore
import Geometry
import Raster

/// Property animations and transitions: the views that move are redrawn where they were drawn
/// and where they are at each frame's time, while any of them shows; layouts made inside
/// `withAnimation` glide the views they move, and views added or shown there come in by their
/// transitions.
extension Window {
    package func startedAnimating(_ view: View) {
        if !animating.contains(where: { $0 === view }) { animating.append(view) }
        frameScheduled = true
    }

    package func animateLayout(_ animation: Animation, entering view: View?) {
        layoutAnimation = animation
        if let view { entering.append(view) }
        needsLayout = true
        frameScheduled = true
    }

    /// Where the views of the tree sit in their parents before a layout made inside
    /// `withAnimation` (nil when no such layout is pending).
    func positionsBeforeLayout() -> [ObjectIdentifier: (view: View, frame: Rect)]? {
        guard layoutAnimation != nil else { return nil }
        var positions: [ObjectIdentifier: (view: View, frame: Rect)] = [:]
        func walk(_ v: View) {
            positions[ObjectIdentifier(v)] = (v, v.frame)
            v.children.forEach(walk)
        }
        walk(root)
        return positions
    }

    /// After that layout: each view it moved glides from its old place, and each view that came
    /// in does so by its transition.
    func animateLayoutMoves(from positions: [ObjectIdentifier: (view: View, frame: Rect)]?) {
        guard let animation = layoutAnimation else { return }
        layoutAnimation = nil
        let t = time
        let entered = entering.filter { $0.window === self && !$0.isHidden }
        entering = []
        if let positions {
            for (view, old) in positions.values where view.window === self && !old.size.isEmptySize {
                guard !entered.contains(where: { $0 === view }) else { continue }
                let delta = Point(x: old.minX - view.frame.minX, y: old.minY - view.frame.minY)
                guard delta != .zero else { continue }
                view.moveByLayout(delta, with: animation, at: t)
                startedAnimating(view)
            }
        }
        for view in entered {
            view.enter(with: animation, at: t)
            startedAnimating(view)
        }
    }

    /// What the animations change at `t`: where each moving view was drawn and where it is
    /// drawn now, in the window's pixels (through the scroll offsets of now: a copied scroll
    /// moved the old pixels with their content). A view whose animations ended is drawn once
    /// more, at rest; one that left is let go. A view that pulses off screen costs nothing.
    func animationDamage(at t: Double) -> Region {
        var damage = Region()
        var still: [View] = []
        for v in animating {
            guard let parent = v.parent ?? v.departedFrom, parent.window === self else {
                v.drawnVisualFrame = nil
                continue
            }
            let running = v.dropFinishedAnimations(at: t)
            let now = v.drawnExtent(of: v.visualFrame(at: t))
            let rects = [now, v.drawnVisualFrame].compactMap { $0 }.compactMap { pixelRect(visibleRect(ofChildRect: $0, in: parent)) }
            if running && v.animatesOnlyForever && rects.isEmpty {
                still.append(v)
                continue
            }
            for r in rects { damage.add(r) }
            if running {
                v.drawnVisualFrame = now
                still.append(v)
            } else {
                v.drawnVisualFrame = nil
                if v.isLeaving { v.stopLeaving() }
            }
        }
        animating = still
        return damage
    }

    /// True while a property animation shows: the loop keeps drawing.
    func animationsShow(at t: Double) -> Bool {
        animating.contains { v in
            guard let parent = v.parent ?? v.departedFrom, parent.window === self else { return false }
            guard v.animatesOnlyForever else { return true }
            return !visibleRect(ofChildRect: v.drawnExtent(of: v.visualFrame(at: t)), in: parent).isEmpty
        }
    }

    /// The part of the screen `view` draws on: its visible frame, and its shadow where it casts one.
    func drawnRect(of view: View) -> Rect {
        let r = visibleRect(of: view)
        guard view.shadowStyle != nil, let parent = view.parent else { return r }
        let shadow = visibleRect(ofChildRect: view.drawnExtent(of: view.visualFrame(at: currentTime)), in: parent)
        guard !r.isEmpty else { return shadow }
        return shadow.isEmpty ? r : r.union(shadow)
    }

    /// `r` (in `parent`'s content points) in window points, clipped by `parent` when it clips
    /// its content, by every clipping view around it and by the screen.
    func visibleRect(ofChildRect r: Rect, in parent: View) -> Rect {
        var rect = parent.windowRect(ofChildRect: r)
        for a in parent.selfAndAncestors where a.clipsContent { rect = rect.intersection(a.frameInWindow) }
        return rect.intersection(Rect(origin: .zero, size: sizeInPoints))
    }
}

extension Size {
    fileprivate var isEmptySize: Bool { width <= 0 || height <= 0 }
}
