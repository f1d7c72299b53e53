import Geometry
import Raster

/// A view's soft shadow: its shape (the background's rounded rectangle) blurred by `radius`
/// points, moved by (`x`, `y`), in `color`.
package struct ShadowStyle: Hashable, Sendable {
    package var radius: Double
    package var x: Double
    package var y: Double
    package var color: Color

    /// Points the shadow reaches beyond the moved shape on every side.
    package var reach: Double { 1.5 * radius + 1 }
}

extension View {
    /// Draws a soft shadow under the view, blurred by `radius` points and moved `y` points down
    /// (and `x` along), in `color` (nil: the theme's shadow, black at 30 %). Its shape is the
    /// view's background: a card with rounded corners casts a rounded shadow. It is blurred once
    /// for the view's size and kept, and redrawn wherever the view moves.
    ///
    /// ```swift
    /// card.background(.surface, cornerRadius: 14).shadow(radius: 8, y: 4)
    /// ```
    @discardableResult
    public func shadow(radius: Double, y: Double = 0, x: Double = 0, color: Color? = nil) -> Self {
        func finite(_ v: Double, _ limit: Double) -> Double { v.isFinite ? max(-limit, min(v, limit)) : 0 }
        let r = max(0, finite(radius, 200))
        shadowStyle = ShadowStyle(radius: r, x: finite(x, 1000), y: finite(y, 1000), color: color ?? Color.shadow.withOpacity(0.3))
        return self
    }

    /// `rect` (where the view is drawn, in its parent's points) with its shadow's reach.
    package func drawnExtent(of rect: Rect) -> Rect {
        guard let s = shadowStyle else { return rect }
        let k = frame.width > 0 ? rect.width / frame.width : 1
        let shadow = rect.offsetBy(dx: s.x * k, dy: s.y * k).insetBy(dx: -s.reach * k, dy: -s.reach * k)
        return rect.union(shadow)
    }
}

extension DrawContext {
    /// The view's shadow, from the raster cache's mask for this size (blurred the first time
    /// a view of this size, corner and blur casts one).
    package func drawShadow(of view: View, _ s: ShadowStyle) {
        let width = Int((view.frame.width * scale).rounded()), height = Int((view.frame.height * scale).rounded())
        guard width > 0, height > 0 else { return }
        let corner = min(view.presentedCornerRadius(at: time, in: theme) * scale, Double(min(width, height)) / 2)
        let key = RasterCache.ShadowKey(
            width: width, height: height, cornerQuarters: Int((corner * 4).rounded()), blur: Int((s.radius * scale).rounded()))
        let (mask, margin) = canvas.cache.shadow(key)
        let x = Int((s.x * scale).rounded()) - margin, y = Int((s.y * scale).rounded()) - margin
        let color = theme.resolve(s.color).premultiplied
        // Under an opaque background the middle of the shadow never shows: only the ring
        // around it is blended (a list of cards would otherwise blend each card's whole area).
        let inset = corner.rounded(.up) + 1
        guard let fill = view.fill, theme.resolve(fill).alpha == 255, Double(width) > 2 * inset, Double(height) > 2 * inset else {
            canvas.blend(mask: mask, x: x, y: y, color: color)
            return
        }
        let outer = Rect(x: Double(x), y: Double(y), width: Double(mask.width), height: Double(mask.height))
        let inner = Rect(x: inset, y: inset, width: Double(width) - 2 * inset, height: Double(height) - 2 * inset)
        let bands = [
            Rect(x: outer.minX, y: outer.minY, width: outer.width, height: inner.minY - outer.minY),
            Rect(x: outer.minX, y: inner.maxY, width: outer.width, height: outer.maxY - inner.maxY),
            Rect(x: outer.minX, y: inner.minY, width: inner.minX - outer.minX, height: inner.height),
            Rect(x: inner.maxX, y: inner.minY, width: outer.maxX - inner.maxX, height: inner.height),
        ]
        let snapped = Point(x: (canvas.translation.x + 0.5).rounded(.down), y: (canvas.translation.y + 0.5).rounded(.down))
        let shift = snapped - canvas.translation
        for band in bands where band.width > 0 && band.height > 0 {
            var c = canvas
            c.clip(to: band.offsetBy(dx: shift.x, dy: shift.y))
            c.blend(mask: mask, x: x, y: y, color: color)
        }
    }
}
