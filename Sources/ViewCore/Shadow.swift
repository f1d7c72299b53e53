import Geometry
import Raster

/// A view's soft shadow: its shape (the background's rounded rectangle) blurred by `radius`
/// points, moved by (`x`, `y`), in `color`.
package struct ShadowStyle: Hashable, Sendable {
    package var radius: Double
    package var x: Double
    package var y: Double
    package var color: Color

    /// What a blurred mask depends on, in device pixels.
    package struct Key: Hashable, Sendable {
        var width: Int, height: Int, cornerQuarters: Int, blur: Int
    }

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
        let minX = min(rect.minX, shadow.minX), minY = min(rect.minY, shadow.minY)
        return Rect(
            x: minX, y: minY, width: max(rect.maxX, shadow.maxX) - minX, height: max(rect.maxY, shadow.maxY) - minY)
    }
}

extension DrawContext {
    /// The view's shadow, from its mask for this size (blurred now if the size changed).
    package func drawShadow(of view: View, _ s: ShadowStyle) {
        let width = Int((view.frame.width * scale).rounded()), height = Int((view.frame.height * scale).rounded())
        guard width > 0, height > 0 else { return }
        let corner = view.presentedCornerRadius(at: time) * scale
        let key = ShadowStyle.Key(width: width, height: height, cornerQuarters: Int((corner * 4).rounded()), blur: Int((s.radius * scale).rounded()))
        if view.shadowCache?.key != key {
            let (mask, margin) = AlphaMask.shadow(width: width, height: height, cornerRadius: corner, blur: Double(key.blur))
            view.shadowCache = (key, mask, margin)
        }
        guard let cached = view.shadowCache else { return }
        canvas.blend(
            mask: cached.mask, x: Int((s.x * scale).rounded()) - cached.margin, y: Int((s.y * scale).rounded()) - cached.margin,
            color: theme.resolve(s.color).premultiplied)
    }
}
