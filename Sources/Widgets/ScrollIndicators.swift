@_spi(Hooks) import ViewCore
import Geometry
import Scrolling

/// A scroll view's indicators, a part of their own: where the thumbs are for an
/// offset, how automatic ones linger and fade, where a finger scrubs and what offset that asks
/// for. A value sampled from the scroll view; no clock, no view.
struct ScrollIndicators {
    var visibility: IndicatorVisibility
    /// Axes whose indicator something else shows (a page control).
    var hidden: Axes
    var axes: Axes
    var zooms: Bool
    var viewport: Size
    /// The content's size at the current zoom.
    var content: Size
    var offset: Point
    var phase: ScrollPhase
    /// The last time the content moved, and when the view first appeared.
    var lastActive: Double
    var appeared: Double?
    /// The vertical indicator sits at the left edge (right to left), where the eye starts a line.
    var onLeft = false

    static let thickness = 5.0
    static let inset = 3.0
    static let minimumLength = 36.0
    /// Seconds an automatic indicator stays after rest, then fades over `fade`; the flash when
    /// the view first appears with more content than fits.
    static let linger = 0.5, fade = 0.3, flashDuration = 1.0

    /// Opacity of the indicators at `t`: automatic ones are 1 while moving, then linger, then
    /// fade, and flash when the view first appears.
    func opacity(at t: Double) -> Double {
        switch visibility {
        case .never: return 0
        case .always: return 1
        case .automatic:
            var since = t - lastActive
            if phase != .idle { since = 0 }
            if let a = appeared { since = min(since, max(0, t - a - Self.flashDuration + Self.linger)) }
            if since <= Self.linger { return 1 }
            return max(0, 1 - (since - Self.linger) / Self.fade)
        }
    }

    /// Thumb (and track) rectangles in local points: length viewport/content with a minimum,
    /// position along the track by offset, shrinking while overscrolled (never leaving the track).
    func geometry(at t: Double) -> [ScrollIndicator] {
        let opacity = opacity(at: t)
        guard opacity > 0 else { return [] }
        let trackWidth: Double?
        if case let .always(small) = visibility { trackWidth = small ? 11 : 15 } else { trackWidth = nil }
        return Scrolling.Axis.allCases.compactMap { axis in
            let member: Axes = axis == .horizontal ? .horizontal : .vertical
            guard axes.contains(member) || zooms, !hidden.contains(member) else { return nil }
            guard let (start, length) = thumbSpan(axis) else { return nil }
            let thickness = Self.thickness
            let crossInset = trackWidth.map { ($0 - thickness) / 2 } ?? Self.inset
            if axis == .vertical {
                let x = onLeft ? crossInset : viewport.width - crossInset - thickness
                let thumb = Rect(x: x, y: Self.inset + start, width: thickness, height: length)
                let track = trackWidth.map { Rect(x: onLeft ? 0 : viewport.width - $0, y: 0, width: $0, height: viewport.height) }
                return ScrollIndicator(axis: axis, thumb: thumb, track: track, opacity: opacity)
            }
            let thumb = Rect(x: Self.inset + start, y: viewport.height - crossInset - thickness, width: length, height: thickness)
            let track = trackWidth.map { Rect(x: 0, y: viewport.height - $0, width: viewport.width, height: $0) }
            return ScrollIndicator(axis: axis, thumb: thumb, track: track, opacity: opacity)
        }
    }

    /// Where the thumb starts along its track and how long it is, nil when the content fits.
    private func thumbSpan(_ axis: Scrolling.Axis) -> (start: Double, length: Double)? {
        let length = viewport[axis], contentLength = content[axis]
        guard contentLength > length + 0.5, length > 0 else { return nil }
        let other: Scrolling.Axis = axis == .horizontal ? .vertical : .horizontal
        let bothShown = (axes == .both || zooms) && content[other] > viewport[other] + 0.5
        let trackLength = length - 2 * Self.inset - (bothShown ? Self.thickness + Self.inset : 0)
        guard trackLength > 0 else { return nil }
        let thumb = min(max(Self.minimumLength, length * length / contentLength), trackLength)
        let maxOffset = contentLength - length
        let offset = self.offset[axis]
        if offset < 0 { return (0, max(Self.thickness, thumb + offset)) }
        if offset > maxOffset {
            let shrunk = max(Self.thickness, thumb - (offset - maxOffset))
            return (trackLength - shrunk, shrunk)
        }
        return ((trackLength - thumb) * offset / maxOffset, thumb)
    }

    /// The indicator a finger at `p` grabs to scrub: only on long content (more than four
    /// viewports), within 28 points of the edge and 16 of the thumb.
    func scrubbable(at p: Point, time t: Double) -> ScrollIndicator? {
        geometry(at: t).first { ind in
            guard content[ind.axis] > 4 * viewport[ind.axis] else { return false }
            let zone =
                ind.axis == .vertical
                ? Rect(x: onLeft ? 0 : viewport.width - 28, y: 0, width: 28, height: viewport.height)
                : Rect(x: 0, y: viewport.height - 28, width: viewport.width, height: 28)
            return zone.contains(p)
                && (ind.axis == .vertical
                    ? abs(p.y - ind.thumb.midY) < ind.thumb.height / 2 + 16
                    : abs(p.x - ind.thumb.midX) < ind.thumb.width / 2 + 16)
        }
    }

    /// How far along the content (0 to 1) a thumb grabbed `grabOffset` points from its start and
    /// dragged to `p` puts the offset.
    func scrubFraction(_ indicator: ScrollIndicator, at p: Point, grabOffset: Double) -> Double {
        let axis = indicator.axis
        let length = axis == .vertical ? indicator.thumb.height : indicator.thumb.width
        let trackLength = viewport[axis] - 2 * Self.inset
        let along = (axis == .vertical ? p.y : p.x) - Self.inset - grabOffset
        return max(0, min(1, along / max(1, trackLength - length)))
    }
}
