import Geometry
import Raster
import AppContract
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

/// An animated view told when the window stops sampling it: it left the tree, or it or an
/// ancestor was hidden. (A clip stops its sound there; its frames stop with the sampling.)
package protocol SampledWhileShown: AnimatedView {
    func stoppedBeingSampled()
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
    /// Views of its content that stay at one place in the viewport while the content moves
    /// (a pinned section header): redrawn, never copied with the content.
    var pinnedViews: [View] { get }
}

extension View {
    /// The nearest damage source whose content holds this view.
    package var enclosingDamageSource: DamageSource? {
        for case let source as DamageSource in ancestors { return source }
        return nil
    }
}

/// What a view paints under its children, for copying scrolled pixels: a scroll view's
/// pixels are moved only when everything under its content is one flat colour.
@_spi(Hooks) public enum Backdrop: Hashable, Sendable {
    /// Nothing.
    case none
    /// One opaque colour over all of its bounds, and nothing else.
    case uniform(Color)
    /// Anything else (text, pictures, gradients, rounded corners): never copied over.
    case varied
}

/// Content that a scroll view builds on demand: before every frame and input the scroll view
/// says which part of the content is visible, and the content builds what that part shows and
/// releases the rest. An app can write its own (a grid, a timeline); `LazyStack` is one.
package protocol LazyContent: View {
    /// Builds the items `visible` (content points) shows, with a margin, and releases the others.
    /// Returns how far the items already built moved (a correction near the start, or rows
    /// inserted or removed above): the scroll view moves its offset as much, so nothing on
    /// screen moves. `settled`: the view is at rest with no indicator showing, so estimates
    /// may change the content's length now without the indicator jumping in sight.
    func prepare(visible: Rect, settled: Bool) -> Point
    /// Where the item with `id` is, or would be once built (content points); nil: no such item.
    func frame(ofItemWithID id: String) -> Rect?
    /// Where the item at `index` is, or would be once built; nil: out of range.
    func frame(ofItemAt index: Int) -> Rect?
    /// The focusable view `step` items after (negative: before) the item holding `view`,
    /// built when it was not; nil at either end.
    func focusableItem(after view: View, step: Int) -> View?
    /// Every item gets this length along the axis (full-screen pages); nil: measured.
    var itemExtent: Double? { get set }
    /// True when the item at `index` is built (its frame is measured, not estimated).
    func isBuilt(_ index: Int) -> Bool
    /// How many items it holds, built or not.
    var count: Int { get }
    /// The index of the item at `position` points along its axis.
    func rowIndex(at position: Double) -> Int
    /// Its views that stay at one place in the viewport (a pinned section header).
    var pinnedViews: [View] { get }
}

/// A view that shows a picture of the window's `ImageStore`: told when its pixels arrive.
package protocol ImageViewer: View {
    func imageArrived()
}

/// A view whose content scrolls (a scroll view): what needs to bring a view into sight (focus,
/// the screen reader) or drive it from keys knows it by this role.
package protocol ScrollingContainer: GestureParticipant {
    /// Scrolls the least that shows `view`, a view of its content.
    func reveal(_ view: View, animated: Bool)
    /// Runs a key's scroll command (a line, a page, home, end).
    func perform(_ command: ScrollCommand, at t: Double)
    /// True when it pages rather than glides.
    var isPaging: Bool { get }
    /// Whether its content is a text area's own text (scrolled by the field, not as a list).
    var scrollsTextArea: Bool { get }
    /// Where the viewport will rest once its motion ends, in words ("Page 2 of 6", "Rows 10
    /// to 18 of 500").
    func destinationDescription(at t: Double) -> String
    /// True when the on-screen keyboard covering its lower part shrinks what it shows (it
    /// scrolls vertically, without paging, and is no text area's).
    var avoidsKeyboard: Bool { get }
    /// Points of its height the on-screen keyboard covers.
    var keyboardInset: Double { get set }
    /// True once it was laid out: it holds a position to keep.
    var hasLaidOut: Bool { get }
    /// Remembers what it shows, to keep it in sight through the coming layout.
    func holdPosition()
    /// Takes its new frame and content size at `t`.
    func applyLayout(at t: Double)
    /// Takes the window's slop and double-tap numbers and its way of drawing a finger.
    func adopt(_ gestures: GestureSettings, resampling: TouchResampling?)
    /// Returns to where it started, at its smallest zoom, animated (the idle reset).
    func returnToStart(at t: Double)
}

/// A view that can go back a screen (a navigation stack): Escape, the screen reader's back key
/// and the window's `navigateBack()` find it by this role.
package protocol BackNavigating: View {
    /// True when it holds a screen to go back to and is not moving.
    var canGoBack: Bool { get }
    /// Goes back one screen, animated.
    func goBack()
    /// Goes back to its first screen, animated (the idle reset).
    func goBackToStart()
}

/// A view that scrolls the content around a dragged view towards a finger held past its edge.
package protocol Autoscrolling: View {
    /// Starts or steers the autoscroll towards `point` (window points); nil stops it.
    func autoscroll(towards point: Point?)
}

/// A view that takes text from the keyboard (a text field, a text area): focus navigation,
/// the screen reader and the window know fields by this role.
package protocol TextInputClient: View {
    /// Says what the field is for when empty; names it to the screen reader.
    var placeholder: String { get }
    /// True when the text cannot be changed (it can still be selected and copied).
    var isReadOnly: Bool { get }
    /// Takes a key while focused; true when the field used it.
    func handleKey(_ key: Key, shift: Bool, control: Bool) -> Bool
    /// Takes typed text while focused.
    func insertText(_ s: String)
}

extension View {
    /// The nearest view around this one that autoscrolls a drag.
    package var enclosingAutoscroller: Autoscrolling? {
        for case let a as Autoscrolling in ancestors { return a }
        return nil
    }

    /// The nearest scrolling container whose content holds this view.
    package var enclosingScrollingContainer: ScrollingContainer? {
        for case let sv as ScrollingContainer in ancestors { return sv }
        return nil
    }

    /// Brings this view into sight in every scrolling container around it, innermost first.
    package func revealInEnclosingContainers() {
        for case let sv as ScrollingContainer in ancestors { sv.reveal(self, animated: true) }
    }
}

/// A scroll indicator as drawn: its thumb (and, when always shown, its track) in the scroll
/// view's local points.
package struct ScrollIndicator: Hashable, Sendable {
    package var axis: Scrolling.Axis
    /// Local points.
    package var thumb: Rect
    package var track: Rect?
    package var opacity: Double

    package init(axis: Scrolling.Axis, thumb: Rect, track: Rect?, opacity: Double) {
        self.axis = axis; self.thumb = thumb; self.track = track; self.opacity = opacity
    }
}

/// A view that shows which page of several is current and can turn to another (a page
/// control): the screen reader's swipe up or down turns it.
package protocol PageIndicator: View {
    var pageCount: Int { get }
    var currentPage: Int { get }
    /// Turns to `page`, animated; false when there is nothing to turn.
    func turn(toPage page: Int) -> Bool
}

/// A focused view that takes some keys itself before they move focus or scroll (a slider's
/// arrows, a stepper's): true when it used the key.
package protocol KeyResponder: View {
    func handleKey(_ key: Key) -> Bool
}

/// What the state JSON says of a control: its kind ("button", "toggle", "slider", "stepper",
/// "picker", "progress"), its value as a number (a toggle's 0 or 1, a picker's selected index,
/// a button's nil) and whether it takes input.
package protocol ControlReporter: View {
    var controlKind: String { get }
    var controlValue: Double? { get }
    var isEnabled: Bool { get }
}

/// A part of a control that a person must see to know what the control is or which state it
/// is in: a field's border, a switch's track, a slider's thumb (WCAG 1.4.11). `rect` is in the
/// view's own points and `color` is what it is drawn in; the audit checks it stands out 3:1
/// from the pixels next to it.
package struct EssentialPart {
    package var name: String
    package var rect: Rect
    package var color: Color
    package init(_ name: String, rect: Rect, color: Color) { self.name = name; self.rect = rect; self.color = color }
}

/// A control whose look carries its meaning beyond its words (see `EssentialPart`).
package protocol EssentialPartsReporter: View {
    var essentialParts: [EssentialPart] { get }
}

/// A view shown over the whole screen that keeps touches, keys, focus and the screen reader to
/// itself until it closes (an alert, a dialog, a sheet). It fills the screen: it dims what is
/// behind it and takes the touches that land outside its card.
package protocol ModalContent: View {
    /// "alert", "dialog" or "sheet", for the state JSON.
    var modalKind: String { get }
    /// What the state JSON names it by: its title, if it has one.
    var modalTitle: String? { get }
    /// Esc, or the screen reader's back: closes it as its cancel button would.
    func cancel()
    /// Whether the view that presented it has left the window (an idle reset popped its screen):
    /// the window then closes it, so that it never outlives its presenter.
    var isOrphaned: Bool { get }
    /// Goes away as when its binding is set false: no button's action runs.
    func close()
}
