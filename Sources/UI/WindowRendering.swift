@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import Geometry
import Raster
import AppContract

/// Frames: what changed since the last one (the damage planner's plan), drawn in bands on the
/// render threads, and the memory the window's caches may hold.
extension Window {
    package func resize(width: Int, height: Int) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        needsLayout = true
        fullDamage = true
        frameScheduled = true
    }

    /// Still, with no finger on a scroll view's content or an indicator.
    package func isAtRest(at t: Double) -> Bool {
        isStill(at: t) && !router.isHolding && scrollViews.allSatisfy { $0.isAtRest(at: t) }
    }

    /// Like `isAtRest`, but a finger that rests or holds still changes nothing: the loop draws
    /// no frames until the next input or timer.
    package func isStill(at t: Double) -> Bool {
        if needsLayout || needsCollect || frameScheduled || !pendingDamage.isEmpty || fullDamage { return false }
        if animationsShow(at: t) { return false }
        if keyboardHost.isAnimating(at: t) { return false }
        for v in animatedViews {
            if let source = v as? DamageSource {
                if !source.isStill(at: t) { return false }
            } else if v.isAnimating(at: t) {
                return false
            }
        }
        return true
    }

    package func render(into frame: PixelBuffer, at t: Double) -> Region {
        currentTime = max(currentTime, t)
        if frame.width != pixelWidth || frame.height != pixelHeight { resize(width: frame.width, height: frame.height) }
        layoutIfNeeded(at: t)
        sampleAnimatedViews(at: t)
        var damage = pendingDamage
        pendingDamage = Region()
        damage.formUnion(animationDamage(at: t))
        for v in invalidatedViews where v.window === self {
            if let r = pixelRect(drawnRect(of: v)) { damage.add(r) }
        }
        invalidatedViews = []
        frameScheduled = false
        let plan = planner.plan(at: t, damage: damage, full: fullDamage, in: pass)
        fullDamage = false
        if !plan.blits.isEmpty {
            let canvas = Canvas(frame, cache: rasterCache)
            for b in plan.blits { canvas.copy(rect: b.rect.offsetBy(dx: -b.dx, dy: -b.dy).intersection(b.rect), dx: b.dx, dy: b.dy) }
        }
        let rects = plan.damage.rects
        // A small damage (a scroll's exposed strip, a ticking label) is drawn here at once:
        // recording it and handing out bands would cost more than they save.
        if renderThreads > 1 && !rects.isEmpty && bandRenderer.bandCount(forPixels: rects.reduce(0) { $0 + $1.area }) > 1 {
            // Recorded here, where views lay out, decode and rasterise glyphs; drawn in bands.
            let recorder = Canvas(recordingInto: displayList, span: frame.span, cache: rasterCache)
            for rect in rects { draw(rect, on: recorder, at: t) }
            let damaged = plan.damage.bounds
            let bands = bandRenderer
            let list = displayList
            withExtendedLifetime(frame) {
                bands.draw(rows: damaged.y..<damaged.maxY, pixels: rects.reduce(0) { $0 + $1.area }) { _, rows, cache in
                    var canvas = Canvas(span: frame.span, cache: cache)
                    canvas.clip(toDeviceRect: IntRect(x: 0, y: rows.lowerBound, width: frame.width, height: rows.count))
                    list.replay(on: canvas)
                }
            }
            displayList.removeAll()
        } else {
            for rect in rects { draw(rect, on: Canvas(frame, cache: rasterCache), at: t) }
        }
        images.frameEnded()
        return plan.changed
    }

    /// The bands frames are drawn in (`renderThreads` threads): a display copies the frames to
    /// the screen in the same.
    package var bandRenderer: BandRenderer {
        let threads = min(max(renderThreads, 1), BandRenderer.threadLimit.upperBound)
        if let bands, bands.threads == threads { return bands }
        let made = BandRenderer(threads: threads)
        bands = made
        return made
    }

    /// Draws everything that intersects `rect` (device pixels), clipped to it, through
    /// `canvas`: the same pixels a full redraw gives there.
    func draw(_ rect: IntRect, on canvas: Canvas, at t: Double) {
        var canvas = canvas
        canvas.clip(toDeviceRect: rect)
        let context0 = DrawContext(canvas: canvas, typography: typography, scale: scaleFactor, time: t, environment: environment)
        canvas.clear(color: context0.fillColor(.background).premultiplied)
        var context = context0
        // A ring goes with its view's layer: one round a field still under the on-screen
        // keyboard (while the field slides up) is covered by the keys, as the field is.
        let keyboard = keyboardHost.keyboard
        var ringsLeft = true
        for layer in holder.children {
            if layer === keyboard, ringsLeft { drawRings(in: &context, insideKeyboard: false); ringsLeft = false }
            context.drawChild(layer)
        }
        if ringsLeft { drawRings(in: &context, insideKeyboard: false) }
        if keyboard != nil { drawRings(in: &context, insideKeyboard: true) }
    }

    /// The keyboard focus's ring and the screen reader's, round views inside the on-screen
    /// keyboard or outside it.
    private func drawRings(in context: inout DrawContext, insideKeyboard: Bool) {
        func inKeyboard(_ v: View) -> Bool { keyboardHost.keyboard.map { k in v.selfAndAncestors.contains { $0 === k } } ?? false }
        if let focused = focusedView, inKeyboard(focused) == insideKeyboard {
            let r = visibleRect(of: focused)
            if !r.isEmpty {
                let (ring, halo) = focusRingColors
                context.stroke(r.insetBy(dx: -0.75, dy: -0.75), cornerRadius: 5.5, lineWidth: 1.5, color: halo)
                let centre = Self.focusRingOutset - Self.focusRingWidth / 2
                context.stroke(r.insetBy(dx: -centre, dy: -centre), cornerRadius: 8, lineWidth: Self.focusRingWidth, color: ring)
            }
        }
        // The screen reader's ring: black and white, seen on any background.
        // colour: not a theme's role on purpose. It is the screen reader's cursor, not a view's
        // part: a person who cannot see the screen well finds it by the same black-and-white
        // ring in every app and scheme, and one of its two lines stands out against anything
        // under it, which no theme's choice could then undo (a white ring on a white surface).
        if isScreenReaderEnabled, let spoken = screenReader.focused, spoken.window === self, inKeyboard(spoken) == insideKeyboard {
            let r = visibleRect(of: spoken)
            if !r.isEmpty {
                context.stroke(r.insetBy(dx: -5, dy: -5), cornerRadius: 9, lineWidth: 4, color: Color(rgb: 0x000000))
                context.stroke(r.insetBy(dx: -3, dy: -3), cornerRadius: 7, lineWidth: 2, color: Color(rgb: 0xFFFFFF))
            }
        }
    }

    /// The keypad focus ring's width, and how far its outer edge lies outside its view: the
    /// audit measures a focused view's edge there.
    static let focusRingWidth = 3.0
    package static let focusRingOutset = 4.5

    /// The keypad focus's ring, and the line between it and the view: white under a dark ring,
    /// black under a light one, so that the ring stands out 3:1 whatever it is drawn over (WCAG's
    /// two-colour focus indicator, technique C40). The ring is the accent of the theme in force
    /// where the focused view is (a subtree's `theme(_:)` or `colorScheme(_:)` included).
    package var focusRingColors: (ring: Color, halo: Color) {
        let theme = focusedView?.environment.theme ?? theme
        let ring = theme.isHighContrast ? theme.primaryText : theme.accent
        // colour: the halo is worked out from the ring, not a role: it must be the ring's
        // opposite (black or white) to give 3:1 on any background, and a role set apart from
        // the accent could be set to a colour that gives the ring no edge.
        return (ring, Color(rgb: HighContrast.luminance(ring) < 0.5 ? 0xFFFFFF : 0x000000))
    }

    func applyMemoryBudget() {
        let budget = max(0, memoryBudget)
        rasterCache.maximumHalvingBytes = min(32 << 20, budget / 4)
        images.budgetBytes = budget - rasterCache.maximumHalvingBytes
    }

    /// What the window's pictures, glyphs and laid-out text hold now.
    package var memoryUse: MemoryUse {
        var textBytes = 0
        func walk(_ view: View) {
            textBytes += view.retainedTextBytes
            view.children.forEach(walk)
        }
        walk(root)
        return MemoryUse(
            budget: max(0, memoryBudget), images: images.residentBytes, imageCount: images.residentCount,
            imageDecodes: images.decodeCount, halvings: rasterCache.halvingBytes,
            glyphs: typography.library.glyphCacheBytes, text: textBytes)
    }
}
