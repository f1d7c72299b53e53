@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import Geometry

/// What the damage planner needs of the window for one frame, as values: the animated views in
/// the order the window collected them, the rings, the scale and the screen's size. It holds no
/// window, so it cannot reach back into it, and what it sees is fixed for the frame.
struct WindowPass {
    /// Pixels per point.
    let scale: Double
    let pixelWidth: Int
    let pixelHeight: Int
    /// The animated views in the order they are sampled (outer before inner, page controls
    /// after the scroll views they follow).
    let animatedViews: [AnimatedView]
    /// The views a ring is drawn around: the focused one, and the screen reader's.
    let ringViews: [View]

    /// The window's size in points.
    var sizeInPoints: Size { Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale) }

    /// `view`'s visible part in window points: its frame clipped by every clipping ancestor
    /// and by the screen.
    func visibleRect(of view: View) -> Rect { Self.visibleRect(of: view, within: sizeInPoints) }

    static func visibleRect(of view: View, within screen: Size) -> Rect {
        var r = view.frameInWindow
        for a in view.ancestors where a.clipsContent { r = r.intersection(a.frameInWindow) }
        return r.intersection(Rect(origin: .zero, size: screen))
    }

    /// The pixels the ring around `view` covers: its visible part and 6 points around it.
    func ringRect(around view: View) -> IntRect? { ringRect(around: visibleRect(of: view)) }
    /// The pixels a ring round `visible` (a view's visible part, points) covers.
    func ringRect(around visible: Rect) -> IntRect? { pixelRect(visible.insetBy(dx: -6, dy: -6)) }

    /// The canvas pixels `r` (window points) touches, a pixel wider on each side for
    /// anti-aliased edges, clipped to the screen; nil when nothing is left.
    func pixelRect(_ r: Rect) -> IntRect? { Self.pixelRect(r, scale: scale, width: pixelWidth, height: pixelHeight) }

    static func pixelRect(_ r: Rect, scale s: Double, width pixelWidth: Int, height pixelHeight: Int) -> IntRect? {
        guard !r.isEmpty else { return nil }
        let px = IntRect(enclosing: Rect(x: r.minX * s - 1, y: r.minY * s - 1, width: r.width * s + 2, height: r.height * s + 2))
        let clipped = px.intersection(IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))
        return clipped.isEmpty ? nil : clipped
    }
}
