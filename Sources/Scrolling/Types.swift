import Geometry
import Physics

/// One finger's sample, in view points (y grows downwards), with its own timestamp in seconds.
/// The engine never reads a clock: the time comes with the event (libinput's `time_usec`, or a
/// script's virtual time).
package struct TouchEvent: Hashable, Sendable {
    package enum Phase: String, Hashable, Sendable { case began, moved, ended, cancelled }
    package var phase: Phase
    /// Identifies the finger (libinput's slot, or a script's id).
    package var id: Int
    package var location: Point
    /// Seconds on the caller's monotonic timeline.
    package var time: Double
    package init(_ phase: Phase, id: Int = 0, location: Point, time: Double) {
        self.phase = phase; self.id = id; self.location = location; self.time = time
    }
}

/// The scroll axes a view allows.
public struct Axes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Left and right.
    public static let horizontal = Axes(rawValue: 1)
    /// Up and down.
    public static let vertical = Axes(rawValue: 2)
    /// Horizontal and vertical together: free panning.
    public static let both: Axes = [.horizontal, .vertical]
}

@usableFromInline package enum Axis: Int, CaseIterable, Hashable, Sendable {
    case horizontal, vertical
    var member: Axes { self == .horizontal ? .horizontal : .vertical }
}

extension Point {
    @inlinable package subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }
}

extension Size {
    @inlinable package subscript(axis: Axis) -> Double { axis == .horizontal ? width : height }
}

/// A point in the unit square, as SwiftUI's `UnitPoint`: (0,0) the leading top corner.
public struct UnitPoint: Hashable, Sendable {
    /// The horizontal position as a fraction of the width: 0 at the leading edge, 1 at the
    /// trailing edge.
    public var x: Double
    /// The vertical position as a fraction of the height: 0 at the top, 1 at the bottom.
    public var y: Double
    /// A unit point at the fractions (`x`, `y`) of the width and height.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The middle of the top edge, (0.5, 0).
    public static let top = UnitPoint(x: 0.5, y: 0)
    /// The middle of the bottom edge, (0.5, 1).
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    /// The centre, (0.5, 0.5).
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    /// The middle of the leading edge, (0, 0.5).
    public static let leading = UnitPoint(x: 0, y: 0.5)
    /// The middle of the trailing edge, (1, 0.5).
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    /// The top leading corner, (0, 0).
    public static let topLeading = UnitPoint(x: 0, y: 0)
    /// The bottom trailing corner, (1, 1).
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
    /// The top trailing corner, (1, 0).
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    /// The bottom leading corner, (0, 1).
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
}

/// What the engine is doing. `idle` is the only phase at rest.
public enum ScrollPhase: String, Hashable, Sendable {
    /// Nothing moves; the app may stop drawing.
    case idle
    /// A finger is down but has not moved past the slop.
    case touching
    /// Content follows a finger.
    case dragging
    /// Friction after a release.
    case decelerating
    /// A spring at an edge (after a fling hit it, or releasing while overscrolled).
    case bouncing
    /// Settling on a page boundary.
    case snapping
    /// A scroll asked for by the program or a key.
    case animating
    /// Two fingers pinching, or a zoom animation.
    case zooming
}

/// The engine's answer for one moment.
package struct ScrollState: Hashable, Sendable {
    /// Content offset in points of the scaled content: (0,0) shows the leading top edge; y grows
    /// as the content moves up.
    package var offset: Point
    package var scale: Double
    /// Offset velocity, points per second.
    package var velocity: Point
    package var phase: ScrollPhase
    package var isAtRest: Bool { phase == .idle }
}

/// What a touch meant, beyond moving content.
package enum Gesture: Hashable, Sendable {
    /// A finger went down and up without moving past the slop, and it did not stop moving content.
    case tap(Point)
    /// The second tap of a double tap (the first was reported as a tap).
    case doubleTap(Point)
}

/// Keyboard scrolling: by a line (arrows), a page (Page Up, Page Down, Space) or to an end
/// (Home, End).
package enum ScrollCommand: String, Hashable, Sendable, CaseIterable {
    case lineUp, lineDown, lineLeft, lineRight
    case pageUp, pageDown, pageLeft, pageRight
    case home, end
}

/// Everything that shapes the feel, as values (no globals). Units: points, seconds.
public struct ScrollConfiguration: Hashable, Sendable {
    /// The default `decelerationRate`: a fling keeps 99.8% of its velocity per millisecond and
    /// coasts about half a second's worth of its release speed.
    public static let normalDecelerationRate = 0.998
    /// A `decelerationRate` that stops flings sooner: 99% of the velocity kept per millisecond,
    /// about a tenth of a second's worth of the release speed.
    public static let fastDecelerationRate = 0.99

    /// The axes the content scrolls along, vertical by default; zoomable content pans along both.
    public var axes: Axes = .vertical
    /// Velocity kept per millisecond after release.
    public var decelerationRate = ScrollConfiguration.normalDecelerationRate
    /// Distance a finger must move before content follows it.
    package var touchSlop = 8.0
    /// Below this release speed (points per second) the content just stops.
    package var minimumFlingVelocity = 50.0
    /// Release speeds are clamped to this.
    package var maximumFlingVelocity = 8000.0
    /// Elastic edges per axis; off means the content clamps hard.
    public var bouncesHorizontally = true
    /// Whether the top and bottom edges are elastic; off, the content stops hard at them.
    public var bouncesVertically = true
    /// Rubber-band even when the content fits on that axis.
    public var alwaysBounceHorizontal = false
    /// Rubber-bands vertically even when the content fits the viewport's height.
    public var alwaysBounceVertical = false
    /// Makes a release settle on a page boundary (pages of `pageSize` points, or of the
    /// viewport's length) instead of gliding to a stop.
    public var isPagingEnabled = false
    /// Page length; nil means the viewport length on that axis.
    public var pageSize: Double? = nil
    /// Horizontal pages are counted from the right end (a scroll view laid out right to left
    /// sets it): page 0 starts at the largest offset.
    package var pagesFromRight = false
    /// Subtracted from the page length, so paging keeps one line or row of context.
    package var pageOverlap = 0.0
    /// A drag that starts mostly along one axis stays on it; off allows free panning.
    public var isDirectionalLockEnabled = true
    /// The smallest zoom scale, 1 being the content's own size; a pinch below it springs back.
    public var minimumScale = 1.0
    /// The largest zoom scale; a pinch above it springs back. Zooming is on only when
    /// `maximumScale` is greater than `minimumScale`.
    public var maximumScale = 1.0
    /// Scale that a double tap zooms in to.
    public var doubleTapScale = 2.0
    /// Arrow-key step.
    package var lineScroll = 40.0
    package var bounceSpring = SpringDescription.scrollBounce
    /// Spring for page snaps, program and key scrolls.
    package var animationSpring = SpringDescription(mass: 1, stiffness: 220, dampingRatio: 1)
    /// Speed handed to the edge spring is capped here (bounded overshoot).
    package var maximumBounceVelocity = 3000.0
    /// Speed at which a paging release counts as a flick.
    package var pagingFlickVelocity = 300.0
    package var doubleTapInterval = 0.3
    package var doubleTapDistance = 40.0
    package var tolerance = Tolerance.standard
    /// Where a dragging finger is drawn on a frame: resampled between its samples (a window
    /// turns this on), or nil for its newest sample.
    package var touchResampling: TouchResampling? = nil

    /// The default feel: vertical scrolling with elastic edges, normal deceleration, no paging
    /// and no zoom.
    public init() {}

    /// True when `maximumScale` is greater than `minimumScale`, so pinches and double taps zoom.
    public var isZoomEnabled: Bool { maximumScale > minimumScale }

    func bounces(_ axis: Axis) -> Bool { axis == .horizontal ? bouncesHorizontally : bouncesVertically }
    func alwaysBounces(_ axis: Axis) -> Bool { axis == .horizontal ? alwaysBounceHorizontal : alwaysBounceVertical }
}
