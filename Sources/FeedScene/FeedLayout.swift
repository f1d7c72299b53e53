import Geometry
import Raster

/// Where everything sits in the reference "feed" scene (benchmark R1, `bench/feed-scene.md`)
/// for a canvas of `width` x `height` pixels. Pure arithmetic, no pixels: the renderer, the
/// incremental damage computation and the tests all read the scene from here.
package struct FeedLayout: Sendable, Hashable {
    package static let cardCount = 200
    /// 24 + 136 * N - 16 + 24 = 27232 for N = 200.
    package static let contentHeight = 24 + 136 * cardCount - 16 + 24
    package static let cardPitch = 136
    package static let cardHeight = 120
    package static let cardRadius = 14.0
    package static let circleDiameter = 80.0

    package static let background = Color(rgb: 0xF2F2F7)
    package static let cardFill = Color(rgb: 0xFFFFFF)
    package static let cardBorder = Color(rgb: 0xD1D1D6)
    package static let titleColor = Color(rgb: 0x1C1C1E)
    package static let bodyColor = Color(rgb: 0x3A3A3C)
    /// Black at 0.35 → alpha 89.
    package static let thumbColor = Color(rgb: 0x000000, opacity: 0.35)
    /// Black at 0.30 → alpha 77.
    package static let pageControlBackground = Color(rgb: 0x000000, opacity: 0.30)
    package static let currentDot = Color(rgb: 0xFFFFFF)
    /// White at 0.45 → alpha 115.
    package static let otherDot = Color(rgb: 0xFFFFFF, opacity: 0.45)
    package static let pageCount = 7
    package static let currentPage = 2

    package static let bodyLine1 = "The quick brown fox jumps over the lazy dog"
    package static let bodyLine2 = "Pack my box with five dozen liquor jugs."
    package static let titlePixelSize = 22.0
    package static let bodyPixelSize = 16.0

    package let width: Int
    package let height: Int

    /// The scene needs a canvas that shows at least a card's width and less than the content.
    package init?(width: Int, height: Int) {
        guard width >= 200, width <= 16384, height >= 100, height < FeedLayout.contentHeight else { return nil }
        self.width = width; self.height = height
    }

    package var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// The scroll range: scrollY runs over 0 ..< contentHeight - height.
    package var scrollRange: Int { FeedLayout.contentHeight - height }

    /// Frame f scrolls to (37 * f) mod (27232 - H).
    package func scrollY(frame: Int) -> Int {
        let r = (37 &* frame) % scrollRange
        return r < 0 ? r + scrollRange : r
    }

    /// Card `index`'s rectangle in device pixels at scroll offset `scrollY`.
    package func card(_ index: Int, scrollY: Int) -> IntRect {
        IntRect(x: 24, y: 24 + FeedLayout.cardPitch * index - scrollY, width: width - 48, height: FeedLayout.cardHeight)
    }

    /// Indices of the cards that intersect the device rows `rows` (a half-open y range).
    package func cards(scrollY: Int, rows: Range<Int>) -> Range<Int> {
        // Card i spans [24 + 136 i - s, 144 + 136 i - s): intersects rows when
        // 144 + 136 i - s > rows.lower and 24 + 136 i - s < rows.upper.
        let p = FeedLayout.cardPitch
        let lower = floorDiv(rows.lowerBound + scrollY - 144, p) + 1
        let upper = floorDiv(rows.upperBound + scrollY - 24 - 1, p) + 1
        let first = max(0, lower), end = min(FeedLayout.cardCount, upper)
        return first < end ? first..<end : first..<first
    }

    /// The circle's colour for card `index`: HSV(37 i mod 360, 0.5, 0.9), rounded to 8 bits.
    package static func circleColor(_ index: Int) -> Color {
        hsv(hue: Double((37 * index) % 360), saturation: 0.5, value: 0.9)
    }

    /// HSV → sRGB 8-bit, rounded to nearest (the formula the cairo peer uses, step for step).
    package static func hsv(hue h: Double, saturation s: Double, value v: Double) -> Color {
        let c = v * s, hp = h / 60
        let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
        let (r, g, b): (Double, Double, Double)
        switch Int(hp) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        func byte(_ u: Double) -> UInt8 { UInt8(max(0, min(255, ((u + m) * 255).rounded()))) }
        return Color(red: byte(r), green: byte(g), blue: byte(b))
    }

    /// Length of the scroll indicator's thumb: max(36, H * H / 27232).
    package var thumbLength: Double { max(36, Double(height) * Double(height) / Double(FeedLayout.contentHeight)) }

    /// The thumb at `scrollY`: 5 px wide, right edge 3 px from the canvas edge, top at
    /// 3 + (H - 6 - length) * scrollY / (27232 - H), fractional (drawn anti-aliased).
    package func thumb(scrollY: Int) -> Rect {
        let length = thumbLength
        let top = 3 + (Double(height) - 6 - length) * Double(scrollY) / Double(scrollRange)
        return Rect(x: Double(width - 8), y: top, width: 5, height: length)
    }

    /// The page control's capsule: 128 x 28 centred at (W / 2, H - 40).
    package var pageControl: Rect {
        Rect(x: Double(width) / 2 - 64, y: Double(height) - 40 - 14, width: 128, height: 28)
    }

    /// Centre of dot `k` (0-based; dot 3 is the middle one, on the canvas centre line).
    package func dotCenter(_ k: Int) -> Point {
        Point(x: Double(width) / 2 + Double(16 * (k - 3)), y: Double(height) - 40)
    }
}

@inline(__always) func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
