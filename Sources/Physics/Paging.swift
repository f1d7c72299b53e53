/// Chooses the page a release settles on in paging mode.
///
/// Pages start at multiples of `pageSize` (the viewport length minus an overlap unit, so paging
/// keeps context). A quick flick goes to the next page start its way, even after a short drag;
/// a slow release goes to the nearest page. One release never moves more than one page from
/// the page the gesture started on.
package struct PageSnapping: Hashable, Sendable {
    /// Points between page starts (> 0).
    package var pageSize: Double
    /// The largest resting offset; the last page is clamped to it.
    package var maximumOffset: Double
    /// Speed (points per second) above which a release counts as a flick.
    package var flickVelocity: Double
    /// Pages are counted from the largest offset down (a right-to-left carousel, whose first
    /// page is at the right end): page 0 starts at `maximumOffset`, and the partial page, if
    /// any, is the last, at offset 0. The mirror image of counting from 0, exactly.
    package var countsFromEnd: Bool

    package init(pageSize: Double, maximumOffset: Double, flickVelocity: Double = 300, countsFromEnd: Bool = false) {
        self.pageSize = max(1, pageSize.isFinite ? pageSize : 1)
        self.maximumOffset = max(0, maximumOffset.isFinite ? maximumOffset : 0)
        self.flickVelocity = flickVelocity
        self.countsFromEnd = countsFromEnd
    }

    /// An offset measured from where page 0 starts: itself, or from the end when counting
    /// from it. Its own inverse.
    private func fromFirstPage(_ offset: Double) -> Double { countsFromEnd ? maximumOffset - offset : offset }

    package var pageCount: Int { Int((maximumOffset / pageSize).rounded(.up)) + 1 }

    /// The page whose start is nearest to `offset` (ties go to the later page). The last page's
    /// start is clamped to the end, so it can lie less than a page after the one before it
    /// (pages narrower than the viewport, a peeking carousel).
    package func nearestPage(to offset: Double) -> Int {
        guard offset.isFinite else { return 0 }
        let offset = fromFirstPage(offset)
        guard offset > 0 else { return 0 }
        let last = pageCount - 1
        if offset >= maximumOffset { return last }
        let p = Int(max(0, min(Double(last), (offset / pageSize).rounded(.down))))
        guard p < last else { return last }
        return abs(offset - distance(toPage: p + 1)) <= abs(offset - distance(toPage: p)) ? p + 1 : p
    }

    package func startOffset(ofPage page: Int) -> Double { fromFirstPage(distance(toPage: page)) }

    /// How far page `page` starts from page 0 (the last clamped to the end).
    private func distance(toPage page: Int) -> Double {
        min(maximumOffset, Double(max(0, min(pageCount - 1, page))) * pageSize)
    }

    /// The target page for a release at `offset` with `velocity` of a gesture that started on
    /// `startPage`. The rule UIKit, Android's ViewPager and Flutter's page physics share: a
    /// flick goes to the page boundary its velocity points to from where the content is (the
    /// next one at or ahead, or at or behind), a slow release to the nearest page, and either
    /// way no further than one page from the start page. So a drag forward that is flicked back
    /// returns to the page it started on, never past it.
    package func targetPage(startPage: Int, offset: Double, velocity: Double) -> Int {
        // Counting from the end, a forward flick lowers the offset.
        let v = velocity.isFinite ? (countsFromEnd ? -velocity : velocity) : 0
        let last = pageCount - 1
        let start = max(0, min(last, startPage))
        guard offset.isFinite else { return start }
        let target: Int
        if abs(v) >= flickVelocity {
            target = boundaryPage(from: fromFirstPage(offset), forward: v > 0)
        } else {
            target = nearestPage(to: offset)
        }
        return max(0, min(last, max(start - 1, min(start + 1, target))))
    }

    /// Offsets this close to a page start count as on it (springs settle to within rounding).
    static let boundaryTolerance = 1e-6

    /// Forward: the first page whose start is at or after `offset` (the last page if none is);
    /// back: the last page whose start is at or before it (the first page if none is).
    func boundaryPage(from offset: Double, forward: Bool) -> Int {
        let last = pageCount - 1, tolerance = Self.boundaryTolerance
        guard offset > tolerance else { return 0 }
        guard offset < maximumOffset - tolerance else { return last }
        let pages = forward ? ((offset - tolerance) / pageSize).rounded(.up) : ((offset + tolerance) / pageSize).rounded(.down)
        return min(last, Int(pages))
    }
}
