@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Scrolling

/// A row of dots, one per page of a paging scroll view. It follows the scroll
/// view (a swipe moves the dot) and drives it (a tap on either side of the current dot pages with
/// the normal animation; scrubbing along it jumps page by page without animating).
public final class PageControl: View, DependentAnimation, TouchTarget, PageIndicator {
    /// When the translucent capsule behind the dots shows.
    public enum BackgroundStyle: String, Hashable, Sendable {
        /// A translucent capsule only while people interact with the control.
        case automatic
        /// Always shown.
        case prominent
        /// Never shown; scrubbing is off.
        case minimal
    }
    /// What a person is doing with the control.
    public enum Interaction: String, Hashable, Sendable {
        /// Nothing: the dots follow the scroll view.
        case none
        /// A tap paged the scroll view; it lasts until that page animation comes to rest.
        case discrete
        /// A sideways scrub is jumping from page to page.
        case continuous
    }

    /// The paging scroll view the dots follow and drive (held weakly).
    public private(set) weak var scrollView: ScrollView?
    /// When the capsule behind the dots shows; `.automatic` by default.
    public var backgroundStyle: BackgroundStyle = .automatic { didSet { setNeedsDisplay() } }
    /// Tint of the current page's indicator and of the others. The control tints its
    /// indicator images; the app does not colour them. The theme's `pageIndicator` by default.
    public var currentPageTint = Color.pageIndicator
    /// Tint of the other pages' indicators; the theme's `pageIndicator` at 45% opacity by default.
    public var pageTint = Color.pageIndicator.withOpacity(0.45)
    /// Image for every dot (a coverage mask tinted by the control), and images for chosen pages.
    package var indicatorImage: AlphaMask? { didSet { scaledImages = [:]; setNeedsDisplay() } }
    package var pageImages: [Int: AlphaMask] = [:] { didSet { scaledImages = [:]; setNeedsDisplay() } }
    /// Images at the sizes drawn (full, and the shrunk end dots), made once, not every frame.
    var scaledImages: [ScaledImageKey: AlphaMask] = [:]
    struct ScaledImageKey: Hashable { var page: Int?; var scale: Double }
    /// What a person is doing with the control now; `.none` at rest.
    public private(set) var interaction: Interaction = .none
    /// Called when the control changes the page (tap or scrub).
    public var onPageChange: ((Int) -> Void)?

    static let dotDiameter = 8.0, dotSpacing = 16.0, height = 28.0, edgePadding = 8.0

    var touchStart: (point: Point, page: Int, time: Double)?
    var scrubbing = false
    var interactionEnd = -Double.infinity
    /// The state last sampled: a change (a page reached by the scroll view, an interaction
    /// ended) invalidates the control.
    var sampled: DrawnState?

    struct DrawnState: Equatable { var page: Int, count: Int, interaction: Interaction, background: Double }

    /// A 28-point-tall row of dots for the paging `scrollView`, whose scroll indicator along
    /// its paging axis it hides.
    public init(id: String? = nil, scrollView: ScrollView, backgroundStyle: BackgroundStyle = .automatic) {
        self.scrollView = scrollView
        self.backgroundStyle = backgroundStyle
        super.init(id: id)
        let axis: Axes = scrollView.configuration.axes.contains(.horizontal) ? .horizontal : .vertical
        scrollView.hiddenIndicatorAxes.insert(axis)
        height = Self.height
    }

    /// The number of pages of the scroll view; 0 once it is gone.
    public var pageCount: Int { max(0, scrollView?.pageCount ?? 0) }

    /// "Page 3 of 7"; a swipe up or down changes it under the screen reader.
    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        AccessibilityDescription(
            role: .pageControl, label: "", value: environment.strings.format(.pageOf, currentPage + 1, pageCount),
            combinesChildren: true)
    }

    package func turn(toPage page: Int) -> Bool {
        guard let scrollView else { return false }
        scrollView.setPage(page, animated: true)
        return true
    }
    /// The index, from 0, of the page the scroll view is nearest; 0 once it is gone.
    public var currentPage: Int { scrollView?.currentPage ?? 0 }

    // MARK: Geometry

    /// How many dots fit in the frame.
    package var maximumVisibleDots: Int { max(1, Int((frame.width - 2 * Self.edgePadding) / Self.dotSpacing)) }

    /// The dots drawn: page index, centre x in local points, and size factor (1, or smaller near
    /// the ends of a window of dots when more pages lie beyond).
    package func dots() -> [(page: Int, x: Double, scale: Double)] {
        let count = pageCount
        guard count > 0 else { return [] }
        let visible = min(count, maximumVisibleDots)
        var first = 0
        if count > visible {
            first = max(0, min(count - visible, currentPage - visible / 2))
        }
        let width = Double(visible) * Self.dotSpacing
        let x0 = (frame.width - width) / 2 + Self.dotSpacing / 2
        // Right to left, the first page's dot is the rightmost.
        let mirrored = isRightToLeft
        var result: [(Int, Double, Double)] = []
        for i in 0..<visible {
            let page = first + i
            var scale = 1.0
            if count > visible {
                let moreBefore = first > 0, moreAfter = first + visible < count
                if moreBefore && i == 0 || moreAfter && i == visible - 1 {
                    scale = 0.5
                } else if moreBefore && i == 1 || moreAfter && i == visible - 2 {
                    scale = 0.75
                }
            }
            let x = x0 + Double(i) * Self.dotSpacing
            result.append((page, mirrored ? frame.width - x : x, scale))
        }
        return result
    }

    /// The capsule behind the dots, local points.
    var backgroundRect: Rect {
        let n = Double(min(pageCount, maximumVisibleDots))
        let w = n * Self.dotSpacing + 2 * Self.edgePadding
        return Rect(x: (frame.width - w) / 2, y: (frame.height - Self.height) / 2, width: w, height: Self.height)
    }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        Size(
            width: width ?? (proposal.width.isFinite ? proposal.width : Double(pageCount) * Self.dotSpacing + 16),
            height: Self.height)
    }

    /// Background opacity: automatic shows it while interacting and fades it over 0.25 s.
    func backgroundOpacity(at t: Double) -> Double {
        switch backgroundStyle {
        case .prominent: return 1
        case .minimal: return 0
        case .automatic:
            if interaction != .none || touchStart != nil { return 1 }
            return max(0, 1 - (t - interactionEnd) / 0.25)
        }
    }

    func state(at t: Double) -> DrawnState {
        DrawnState(
            page: currentPage, count: pageCount, interaction: interaction,
            background: (backgroundOpacity(at: t) * 255).rounded())
    }

    /// The dots show the page its scroll view has at this instant.
    package var sampledAfter: AnimatedView? { scrollView }

    /// Ends a tap's discrete interaction once its page transition is over, and redraws when
    /// what it shows changed (the page follows its scroll view, which does not tell it). The
    /// window calls it whenever it samples the scroll views (frames, input, state), on screen
    /// or not.
    public func sample(at t: Double) {
        if let scroll = scrollView, interaction == .discrete, touchStart == nil, scroll.controller.isAtRest(at: t) {
            interaction = .none
            interactionEnd = t
        }
        let now = state(at: t)
        if now != sampled {
            sampled = now
            setNeedsDisplay()
        }
    }

    /// Animating while the automatic background fades out, or while a finished tap still waits
    /// for `sample` to end its discrete interaction.
    public func isAnimating(at t: Double) -> Bool {
        if interaction == .discrete, touchStart == nil, scrollView?.controller.isAtRest(at: t) == true { return true }
        return backgroundStyle == .automatic && interaction == .none && touchStart == nil && t - interactionEnd < 0.25
    }

    // MARK: Drawing

    public override func draw(in context: inout DrawContext) {
        let t = context.time
        let bg = backgroundOpacity(at: t)
        if bg > 0 {
            let r = backgroundRect
            context.fill(r, cornerRadius: r.height / 2, color: Color.shadow.withOpacity(0.30 * bg))
        }
        let current = currentPage
        for dot in dots() {
            let tint = dot.page == current ? currentPageTint : pageTint
            let center = Point(x: dot.x, y: frame.height / 2)
            let ownImage = pageImages[dot.page] != nil
            if let mask = pageImages[dot.page] ?? indicatorImage {
                let key = ScaledImageKey(page: ownImage ? dot.page : nil, scale: dot.scale)
                let scaled = scaledImages[key] ?? Self.scale(mask, by: dot.scale)
                scaledImages[key] = scaled
                drawMask(scaled, center: center, tint: tint, in: &context)
            } else {
                context.fillCircle(center: center, radius: Self.dotDiameter / 2 * dot.scale, color: tint)
            }
        }
    }

    /// Indicator images are drawn as masks at their pixel size, scaled down near the ends by
    /// sampling (nearest): they are tiny glyphs.
    /// `mask` resampled (nearest) to `scale`: indicator images are tiny glyphs.
    static func scale(_ mask: AlphaMask, by scale: Double) -> AlphaMask {
        let w = max(1, Int((Double(mask.width) * scale).rounded()))
        let h = max(1, Int((Double(mask.height) * scale).rounded()))
        var scaled = AlphaMask(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                scaled.coverage[y * w + x] =
                    mask.coverage[
                        min(mask.height - 1, y * mask.height / h) * mask.width
                            + min(mask.width - 1, x * mask.width / w)]
            }
        }
        return scaled
    }

    func drawMask(_ scaled: AlphaMask, center: Point, tint: Color, in context: inout DrawContext) {
        let w = scaled.width, h = scaled.height
        // Local pixels: `blend` adds the canvas translation itself.
        let px = center.x * context.scale - Double(w) / 2
        let py = center.y * context.scale - Double(h) / 2
        context.canvas.blend(mask: scaled, x: Int(px.rounded()), y: Int(py.rounded()), color: context.theme.resolve(tint).premultiplied)
    }

    // MARK: Interaction (window points)

    func localX(_ p: Point) -> Double { localPoint(fromWindow: p).x }

    package func touchBegan(at p: Point, time t: Double) {
        touchStart = (p, currentPage, t)
        scrubbing = false
        setNeedsDisplay()
    }

    /// A move past the slop that is mostly vertical (or any, when the control does not scrub)
    /// is the scroll views', not the control's; a sideways one scrubs.
    package func touchMoved(to p: Point, time t: Double) -> TouchDisposition {
        guard let start = touchStart else { return .released }
        let slop = environment.gestures.touchSlop
        let d = p - start.point
        if !scrubbing, d.length > slop, abs(d.y) > abs(d.x) || backgroundStyle == .minimal { return .released }
        guard backgroundStyle != .minimal else { return .undecided }
        if !scrubbing && abs(d.x) > slop { scrubbing = true }
        guard scrubbing else { return .undecided }
        interaction = .continuous
        let x = localX(p)
        let count = pageCount
        // Right to left, pages run from the right: moving left goes forward.
        let forward = isRightToLeft ? -1.0 : 1.0
        var page: Int
        if x < 0 {
            page = forward > 0 ? 0 : count - 1
        } else if x > frame.width {
            page = forward > 0 ? count - 1 : 0
        } else {
            page = start.page + Int(((p.x - start.point.x) * forward / Self.dotSpacing).rounded())
        }
        page = max(0, min(count - 1, page))
        if page != currentPage {
            scrollView?.setPage(page, animated: false)
            onPageChange?(page)
        }
        setNeedsDisplay()
        return .claimed
    }

    package func touchEnded(at p: Point, time t: Double, cancelled: Bool) {
        defer { touchStart = nil; scrubbing = false; setNeedsDisplay() }
        if scrubbing || cancelled {
            interaction = .none
            interactionEnd = t
            return
        }
        // A tap: the leading or trailing side of the current dot.
        let current = currentPage
        guard let dot = dots().first(where: { $0.page == current }) else { return }
        let before = localX(touchStart?.point ?? p) < dot.x
        let target = before != isRightToLeft ? current - 1 : current + 1
        guard target >= 0, target < pageCount else { return }
        interaction = .discrete
        scrollView?.setPage(target, animated: true)
        onPageChange?(target)
    }
}
