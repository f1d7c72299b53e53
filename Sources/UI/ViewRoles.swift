import Geometry
import Raster

/// A view that changes by itself over time (a scroll view, a page control, an app's own
/// animation). The window samples it before every frame and input, in tree order, redraws its
/// visible part while it animates, and rests only when none animates.
public protocol AnimatedView: View {
    /// Reads or advances its state to `t` (seconds on the loop's clock).
    func sample(at t: Double)
    /// True while what it shows changes with time.
    func isAnimating(at t: Double) -> Bool
}

/// An animated view that shows another one's state (a page control its scroll view's): the
/// window samples that one first.
package protocol DependentAnimation: AnimatedView {
    var sampledAfter: AnimatedView? { get }
}

/// What a `TouchTarget` makes of a touch that moved.
package enum TouchDisposition: Hashable, Sendable {
    /// Not decided yet: the scroll views around it keep watching the touch too.
    case undecided
    /// The view's: the scroll views around it let go of the touch.
    case claimed
    /// Not the view's: it hears `touchEnded(cancelled: true)` and the scroll views decide.
    case released
}

/// A view that takes part in touch arbitration with the scroll views around it, as a page
/// control does: it hears a touch from its start, and decides on each move whether the touch is
/// its own, not its own, or not yet known. Points are in window points.
package protocol TouchTarget: View {
    /// Whether a touch that comes down at `point` takes part here (a navigation stack's edge
    /// swipe only from its edge); one that does not goes on to the targets around it.
    func wantsTouch(at point: Point) -> Bool
    func touchBegan(at point: Point, time t: Double)
    func touchMoved(to point: Point, time t: Double) -> TouchDisposition
    /// The touch lifted, or was cancelled (a scroll view or the view itself let it go).
    func touchEnded(at point: Point, time t: Double, cancelled: Bool)
}

extension TouchTarget {
    package func wantsTouch(at point: Point) -> Bool { true }
}

/// What a view paints under its children, for copying scrolled pixels (RAS-3): a scroll view's
/// pixels are moved only when everything under its content is one flat colour.
package enum Backdrop: Hashable, Sendable {
    /// Nothing.
    case none
    /// One opaque colour over all of its bounds, and nothing else.
    case uniform(Color)
    /// Anything else (text, pictures, gradients, rounded corners): never copied over.
    case varied
}
