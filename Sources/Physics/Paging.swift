/// Chooses the page a release settles on (ENG-5).
///
/// Pages start at multiples of `pageSize` (the viewport length minus an overlap unit, so paging
/// keeps context). A quick flick moves one page in its direction even if short; a slow drag
/// that ended past half a page moves one page; otherwise the content returns. One release never
/// moves more than one page from the page the gesture started on.
public struct PageSnapping: Hashable, Sendable {
    /// Points between page starts (> 0).
    public var pageSize: Double
    /// The largest resting offset; the last page is clamped to it.
    public var maximumOffset: Double
    /// Speed (points per second) above which a release counts as a flick.
    public var flickVelocity: Double

    public init(pageSize: Double, maximumOffset: Double, flickVelocity: Double = 300) {
        self.pageSize = max(1, pageSize.isFinite ? pageSize : 1)
        self.maximumOffset = max(0, maximumOffset.isFinite ? maximumOffset : 0)
        self.flickVelocity = flickVelocity
    }

    public var pageCount: Int { Int((maximumOffset / pageSize).rounded(.up)) + 1 }

    /// The page whose start is nearest to `offset` (ties go to the later page). The last page's
    /// start is clamped to the end, so it can lie less than a page after the one before it
    /// (pages narrower than the viewport, a peeking carousel).
    public func nearestPage(to offset: Double) -> Int {
        guard offset.isFinite, offset > 0 else { return 0 }
        let last = pageCount - 1
        if offset >= maximumOffset { return last }
        let p = Int(max(0, min(Double(last), (offset / pageSize).rounded(.down))))
        guard p < last else { return last }
        return abs(offset - startOffset(ofPage: p + 1)) <= abs(offset - startOffset(ofPage: p)) ? p + 1 : p
    }

    public func startOffset(ofPage page: Int) -> Double {
        min(maximumOffset, Double(max(0, min(pageCount - 1, page))) * pageSize)
    }

    /// The target page for a release at `offset` with `velocity` of a gesture that started on
    /// `startPage`.
    public func targetPage(startPage: Int, offset: Double, velocity: Double) -> Int {
        let v = velocity.isFinite ? velocity : 0
        let start = max(0, min(pageCount - 1, startPage))
        let base = startOffset(ofPage: start)
        var target = start
        if abs(v) >= flickVelocity {
            // A flick goes one page its way, however short the drag was.
            target = start + (v > 0 ? 1 : -1)
        } else {
            let moved = offset - base
            let nextSpan = startOffset(ofPage: start + 1) - base
            let previousSpan = base - startOffset(ofPage: start - 1)
            if moved > 0, nextSpan > 0, moved > nextSpan / 2 { target = start + 1 }
            if moved < 0, previousSpan > 0, -moved > previousSpan / 2 { target = start - 1 }
        }
        return max(0, min(pageCount - 1, target))
    }
}
