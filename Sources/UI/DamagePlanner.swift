@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import Geometry
import Raster
import Scrolling

/// Decides what a frame redraws: damage sources (scroll views) whose content moved by
/// whole pixels over a flat backdrop are copied and only the strips they uncover are drawn;
/// indicators, overlays and the focus ring that do not move with the content are redrawn where
/// they were and are; other animated views are redrawn while they animate and once after. The
/// result equals a full redraw. It knows views only by these protocols.
final class DamagePlanner {
    /// Scroll frames move the pixels already drawn; off, every moved viewport is redrawn.
    var reusesScrolledPixels = true
    private var rendered: [ObjectIdentifier: RenderedSample] = [:]
    private var wasAnimating: Set<ObjectIdentifier> = []
    private var renderedFocus: [IntRect] = []
    /// Where those rings' views were, in points: a ring moved by less than a pixel covers the
    /// same pixels but is drawn elsewhere in them.
    private var renderedRingShapes: [Rect] = []

    struct RenderedSample: Equatable {
        var offset: Point
        var scale: Double
        var indicators: [IntRect]
        /// The indicators as drawn (exact thumb rectangles and opacities): a thumb moving by
        /// a fraction of a pixel, or fading, changes only these.
        var indicatorShapes: [ScrollIndicator]
        /// Where the content's pinned views were drawn.
        var pinned: [IntRect]
        var visible: IntRect
    }

    typealias Blit = (rect: IntRect, dx: Int, dy: Int)

    struct Plan {
        /// What must be drawn.
        var damage: Region
        /// Pixels to move first.
        var blits: [Blit]
        /// What changes on screen (reported to the display): the damage and the copies.
        var changed: Region
    }

    /// What a frame's plan gathers as it goes over the animated views.
    private struct Work {
        var damage: Region
        /// Where the rings are drawn this frame.
        var rings: [IntRect]
        var changed = Region()
        var blits: [Blit] = []
        /// Damage sources whose pixels this frame's copies moved (pre-order: outer ones first).
        var pixelsMoved: Set<ObjectIdentifier> = []
    }

    /// The plan for a frame at `t`, starting from the damage views asked for.
    func plan(at t: Double, damage initial: Region, full: Bool, in w: WindowPass) -> Plan {
        // Each ring's view looked up once a frame: where it is (points) and the pixels it covers.
        let ringShapes = w.ringViews.map { w.visibleRect(of: $0) }
        var work = Work(damage: initial, rings: ringShapes.compactMap(w.ringRect(around:)))
        var nowAnimating: Set<ObjectIdentifier> = []
        // Only views still in the window keep a sample: a released lazy row's scroll view must
        // not leave one for a new view that gets its address.
        var samples: [ObjectIdentifier: RenderedSample] = [:]
        for v in w.animatedViews {
            let key = ObjectIdentifier(v)
            let visible = w.pixelRect(w.visibleRect(of: v)) ?? .zero
            let animating = v.isAnimating(at: t)
            if let source = v as? DamageSource {
                samples[key] = planMove(source, visible: visible, at: t, in: w, into: &work)
            } else if animating || wasAnimating.contains(key) {
                work.damage.add(visible)
            }
            if animating { nowAnimating.insert(key) }
        }
        wasAnimating = nowAnimating
        rendered = samples

        if work.rings != renderedFocus || ringShapes != renderedRingShapes {
            for r in renderedFocus + work.rings { work.damage.add(r) }
            renderedFocus = work.rings
            renderedRingShapes = ringShapes
        }
        let bounds = IntRect(x: 0, y: 0, width: w.pixelWidth, height: w.pixelHeight)
        if full { work.damage = Region(bounds); work.blits = [] }
        work.damage = work.damage.clipped(to: bounds)
        work.changed.formUnion(work.damage)
        return Plan(damage: work.damage, blits: work.blits, changed: work.changed.clipped(to: bounds))
    }

    /// A damage source's part of the plan: a copy of its pixels when its content moved by whole
    /// pixels, else damage where it shows; returns what it shows now, for the next frame.
    private func planMove(_ sv: DamageSource, visible: IntRect, at t: Double, in w: WindowPass, into work: inout Work) -> RenderedSample {
        let key = ObjectIdentifier(sv)
        let geometry = sv.indicators(at: t)
        let indicators = geometry.map { indicatorPixels($0, of: sv, in: w) }
        let s = RenderedSample(
            offset: sv.contentOffset(pixelsAt: w.scale), scale: sv.contentScale,
            indicators: indicators, indicatorShapes: geometry,
            // A pixel around: the window places views at the sampled offset, the content is
            // drawn at whole pixels.
            pinned: sv.pinnedViews.compactMap { w.pixelRect(w.visibleRect(of: $0).insetBy(dx: -1, dy: -1))?.intersection(visible) },
            visible: visible)
        let shifted = sv.takeContentShift()
        guard let old = rendered[key] else {
            work.damage.add(visible)
            return s
        }
        if shifted {
            // The lazy content and the offset moved together: same picture, but not by whole
            // pixels, so no copy.
            work.damage.add(old.visible); work.damage.add(visible)
        } else if old.offset == s.offset, old.scale == s.scale, old.indicators.isEmpty, s.indicators.isEmpty,
            let outer = sv.enclosingDamageSource, work.pixelsMoved.contains(ObjectIdentifier(outer))
        {
            // Still inside content that was copied: its pixels moved with it, and what came
            // into view lies in the outer view's exposed strips.
            work.pixelsMoved.insert(key)
        } else if old.offset != s.offset || old.scale != s.scale || old.visible != s.visible {
            guard let blit = scrollBlit(sv, old: old, new: s, in: w) else {
                work.damage.add(old.visible); work.damage.add(visible)
                return s
            }
            work.pixelsMoved.insert(key)
            work.blits.append(blit)
            work.changed.add(visible)
            for r in exposedStrips(blit) { work.damage.add(r) }
            // Pixels drawn over the content (indicators, overlays, the focus ring) do not move
            // with it: redraw where the copy put them too.
            let fixed = old.indicators + s.indicators + old.pinned + s.pinned
            for r in fixed + overlays(above: sv, within: visible, in: w) + work.rings + renderedFocus {
                work.damage.add(r)
                let moved = r.offsetBy(dx: blit.dx, dy: blit.dy).intersection(blit.rect)
                if !moved.isEmpty { work.damage.add(moved) }
            }
        } else if old.indicators != s.indicators || old.indicatorShapes != s.indicatorShapes {
            for r in old.indicators + s.indicators { work.damage.add(r) }
        }
        return s
    }

    /// A scroll that only moved its content by whole pixels can reuse the pixels: same scale,
    /// same place on screen, straight edges, and a move shorter than the viewport.
    func scrollBlit(_ sv: DamageSource, old: RenderedSample, new: RenderedSample, in w: WindowPass) -> Blit? {
        guard reusesScrolledPixels, old.scale == new.scale, old.visible == new.visible, !new.visible.isEmpty,
            sv.clipCornerRadius == 0
        else { return nil }
        guard !sv.ancestors.contains(where: { $0.clipsContent && $0.clipCornerRadius > 0 }) else { return nil }
        // Only a viewport on whole pixels: a partly covered edge pixel mixes in a neighbour.
        let scale = w.scale
        let r = w.visibleRect(of: sv)
        let x0 = r.minX * scale, y0 = r.minY * scale, x1 = r.maxX * scale, y1 = r.maxY * scale
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-9 }
        guard whole(x0), whole(y0), whole(x1), whole(y1), x1 > x0, y1 > y0 else { return nil }
        let viewport = IntRect(
            x: Int(x0.rounded()), y: Int(y0.rounded()), width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
        guard hasUniformBackdrop(sv, within: viewport, in: w) else { return nil }
        let dx = Int(old.offset.x - new.offset.x), dy = Int(old.offset.y - new.offset.y)
        guard abs(dx) < viewport.width, abs(dy) < viewport.height else { return nil }
        return (viewport, dx, dy)
    }

    /// True when what is painted under `sv`'s content is one flat colour (its own opaque fill, or
    /// the uniform backdrop of an ancestor with nothing earlier overlapping): moving the pixels
    /// then moves only content, never a background that should have stayed put. Views say what
    /// they paint (`View.backdrop`), so an app's own view that draws is never copied over.
    func hasUniformBackdrop(_ sv: View, within visible: IntRect, in w: WindowPass) -> Bool {
        if case .uniform = sv.backdrop { return true }
        var node: View = sv
        while let parent = node.parent {
            switch parent.backdrop {
            case .varied: return false
            case .uniform: return earlierSiblingsMiss(node, in: parent, visible, pass: w)
            case .none:
                guard earlierSiblingsMiss(node, in: parent, visible, pass: w) else { return false }
                node = parent
            }
        }
        return true  // the window background
    }

    func earlierSiblingsMiss(_ node: View, in parent: View, _ visible: IntRect, pass w: WindowPass) -> Bool {
        guard let i = parent.children.firstIndex(where: { $0 === node }) else { return false }
        let scale = w.scale
        for earlier in parent.children[..<i] where !earlier.isHidden {
            let e = w.visibleRect(of: earlier)
            let r = IntRect(enclosing: Rect(x: e.minX * scale, y: e.minY * scale, width: e.width * scale, height: e.height * scale))
            if !e.isEmpty, !r.intersection(visible).isEmpty { return false }
        }
        return true
    }

    /// The parts of a blitted viewport that the move uncovered.
    func exposedStrips(_ b: Blit) -> [IntRect] {
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
    func overlays(above sv: View, within visible: IntRect, in w: WindowPass) -> [IntRect] {
        var out: [IntRect] = []
        var node: View = sv
        while let parent = node.parent {
            if let i = parent.children.firstIndex(where: { $0 === node }) {
                for later in parent.children[(i + 1)...] where !later.isHidden {
                    if let r = w.pixelRect(w.visibleRect(of: later)), !r.intersection(visible).isEmpty {
                        out.append(r.intersection(visible))
                    }
                }
            }
            node = parent
        }
        return out
    }

    func indicatorPixels(_ ind: ScrollIndicator, of sv: View, in w: WindowPass) -> IntRect {
        let f = sv.frameInWindow
        let r = (ind.track ?? ind.thumb).offsetBy(dx: f.minX, dy: f.minY)
        let thumb = ind.thumb.offsetBy(dx: f.minX, dy: f.minY)
        let both = Rect(
            x: min(r.minX, thumb.minX), y: min(r.minY, thumb.minY),
            width: max(r.maxX, thumb.maxX) - min(r.minX, thumb.minX),
            height: max(r.maxY, thumb.maxY) - min(r.minY, thumb.minY))
        return w.pixelRect(both) ?? .zero
    }
}
