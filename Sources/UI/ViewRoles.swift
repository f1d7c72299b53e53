import Geometry
import Raster
import Scrolling

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

/// A view whose content a finger drags (a scroll view): one member of the touch arena, after
/// Flutter's gesture arena. Every touch on it is offered to it and to the participants around it,
/// innermost first; the first to claim the touch keeps it and the others hear it cancelled. It
/// takes wheel turns and touchpad scrolls too; when the one moved last is a scroll view, paging
/// keys go there. Points are in window points.
package protocol GestureParticipant: View {
    /// The axes it drags along: a move is offered first to the participants along its axis.
    var gestureAxes: Axes { get }
    /// Whether a second finger on it, while one already holds it, pinches.
    var takesPinch: Bool { get }
    /// Whether its content is larger than it on an axis it drags along.
    var canScroll: Bool { get }
    /// True when nothing on it moves: a touch that stops moving content is not a tap.
    func isAtRest(at t: Double) -> Bool
    /// Hears a phase of the touch in `slot`; at a lift, the tap or double tap it recognised.
    @discardableResult
    func follow(_ phase: TouchEvent.Phase, slot: Int, at point: Point, time t: Double) -> Gesture?
    /// True once it has taken the touch: it started dragging or pinching.
    func hasClaimedTouch(at t: Double) -> Bool
    /// What a finger that comes down at `point` moves directly instead (a long list's
    /// indicator), as the function that follows that finger; nil when it is not on one.
    func scrubber(at point: Point, time t: Double) -> ((Point, Double) -> Void)?
    /// A wheel's turn or a rotary encoder's step: scrolls by `delta`, animated.
    func scroll(by delta: Point, at t: Double)
    /// A touchpad's fingers: the content follows `delta` from where it is now, at once.
    func drag(by delta: Point, at t: Double)
    /// The touchpad's fingers lifted at `velocity` (points per second): the content carries on.
    func release(velocity: Point, at t: Double)
}

/// An animated view whose content moves behind a fixed viewport (a scroll view). The damage
/// planner compares what it shows frame to frame instead of redrawing it while it animates:
/// content that moved by whole pixels is copied, and only the strips it uncovered are drawn.
package protocol DamageSource: AnimatedView {
    /// Where the content is drawn, in device pixels at `scale`, rounded to whole pixels.
    func contentOffset(pixelsAt scale: Double) -> Point
    /// The content's zoom as last sampled.
    var contentScale: Double { get }
    /// What is drawn over the content and does not move with it, in the view's points.
    func indicators(at t: Double) -> [ScrollIndicator]
    /// Nothing it shows changes from `t` until the next input: a finger may rest on it, but the
    /// last frame drew what it holds now. (`isAnimating` is true while a finger holds it.)
    func isStill(at t: Double) -> Bool
    /// True once after the content and its offset moved together (lazy rows measured above
    /// the viewport): the picture is the same but not by whole pixels, so it is redrawn, not
    /// copied. Reading it clears it.
    func takeContentShift() -> Bool
}

extension View {
    /// The nearest damage source whose content holds this view.
    var enclosingDamageSource: DamageSource? {
        for case let source as DamageSource in ancestors { return source }
        return nil
    }
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
