import Geometry
@testable import Raster
import TestSupport
import Testing

/// `fill(roundedRect:)` draws corner boxes band by band and fetches only the corner masks its
/// clip can see; both must give the pixels of the row-by-row `fillShape` path, for a full
/// frame and for any damage rectangle.
@Suite struct RoundedRectBandTests {
    static let size = (width: 96, height: 80)
    /// A backdrop with detail, so that a pixel blended twice or not at all shows.
    static func backdrop() -> PixelBuffer {
        let buffer = PixelBuffer(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width { buffer[x, y] = 0xFF00_0000 | UInt32(x * 2) << 16 | UInt32(y * 3) << 8 | UInt32((x + y) & 255) }
        }
        return buffer
    }

    static let shapes: [(rect: Rect, radius: Double)] = [
        (Rect(x: 8, y: 6, width: 70, height: 50), 14),  // whole pixels (the feed's cards)
        (Rect(x: 7.3, y: 5.8, width: 61.55, height: 47.2), 9.7),  // fractional edges and radius
        (Rect(x: 20.5, y: 10.25, width: 40, height: 28), 14),  // a capsule whose corners meet
        (Rect(x: 40.2, y: 3.6, width: 5, height: 60), 2.5),  // narrower than its corners: one mask
        (Rect(x: -10.5, y: -7.25, width: 60, height: 40), 12),  // partly off the canvas
        (Rect(x: 12, y: 20, width: 50, height: 30), 0),  // no radius
        (Rect(x: 4.5, y: 4.5, width: 1.5, height: 1.5), 0.6),  // smaller than a pixel or two
    ]
    static let colours: [PremultipliedColor] = [
        PremultipliedColor(rgb: 0xD1D1D6), PremultipliedColor(rgb: 0x000000, alpha: 89),
        PremultipliedColor(rgb: 0x3070F0, alpha: 200),
    ]
    static let clips: [IntRect] = [
        IntRect(x: 0, y: 0, width: size.width, height: size.height),
        IntRect(x: 8, y: 6, width: 14, height: 14),  // one corner box of the first shape
        IntRect(x: 64, y: 42, width: 14, height: 14),  // the opposite one
        IntRect(x: 30, y: 0, width: 9, height: 80),  // a column through the straight middle
        IntRect(x: 0, y: 50, width: 96, height: 7),  // a band across the bottom corners
        IntRect(x: 13, y: 9, width: 3, height: 2),  // a few pixels
        IntRect(x: 90, y: 75, width: 6, height: 5),  // nothing of most shapes
    ]

    @Test func bandsEqualRowByRowForEveryClip() {
        let cache = RasterCache()
        let reference = Self.backdrop()
        var drawn = 0
        for (rect, radius) in Self.shapes {
            for colour in Self.colours {
                let whole = Self.backdrop()
                Canvas(whole, cache: cache).fill(roundedRect: rect, radius: radius, color: colour)
                for clip in Self.clips {
                    let banded = Self.backdrop(), rows = Self.backdrop()
                    var a = Canvas(banded, cache: cache), b = Canvas(rows, cache: cache)
                    a.clip(toDeviceRect: clip); b.clip(toDeviceRect: clip)
                    a.fill(roundedRect: rect, radius: radius, color: colour)
                    b.fillShape(
                        RoundedRectShape(b.device(rect), radius: radius, cache: cache, clip: rows.bounds, visible: b.clipBounds),
                        color: colour)
                    // The full drawing inside the clip, the backdrop outside it.
                    let expected = Self.backdrop()
                    for y in max(clip.y, 0)..<min(clip.maxY, Self.size.height) {
                        for x in max(clip.x, 0)..<min(clip.maxX, Self.size.width) { expected[x, y] = whole[x, y] }
                    }
                    // One comparison a buffer (TestSupport's `compare`): an #expect per pixel,
                    // 2.3 million of them, took 133 s of the aarch64 suites' run under qemu-user.
                    let againstRows = compare(banded, rows), againstFull = compare(banded, expected)
                    let at = { (c: ImageComparison) in "\(rect) r \(radius) clip \(clip) at \(c.first.x),\(c.first.y)" }
                    #expect(againstRows.mismatches == 0, "\(at(againstRows))")
                    #expect(againstFull.mismatches == 0, "\(at(againstFull)): a damage redraw differs from the full one")
                    if compare(banded, reference).mismatches > 0 { drawn += 1 }
                }
            }
        }
        // About half of the 147 combinations draw (72 when written): the comparisons above are
        // not all of empty drawings.
        #expect(drawn > 60)
    }

    @Test func aClipOnOneCornerBoxFetchesOneCornerMask() {
        let cache = RasterCache()
        _ = RoundedRectShape(
            Rect(x: 8, y: 6, width: 70, height: 50), radius: 14, cache: cache,
            clip: IntRect(x: 0, y: 0, width: 96, height: 80), visible: IntRect(x: 8, y: 6, width: 14, height: 14))
        #expect(cache.cachedMaskCount == 1)
        _ = RoundedRectShape(
            Rect(x: 8, y: 6, width: 70, height: 50), radius: 14, cache: cache,
            clip: IntRect(x: 0, y: 0, width: 96, height: 80), visible: IntRect(x: 0, y: 0, width: 96, height: 80))
        #expect(cache.cachedMaskCount == 4)
    }
}

/// A mask's rows are drawn between their first and last covered columns, with the longest
/// run of 255s as a solid span.
@Suite struct CoverageMaskRunsTests {
    @Test func runsHoldTheInkAndTheLongestFullRun() {
        let rows: [[UInt8]] = [
            [0, 0, 0, 0, 0, 0, 0, 0],  // empty
            [0, 0, 12, 200, 255, 255, 40, 0],  // edge, run, edge
            [255, 255, 0, 255, 255, 255, 9, 0],  // two runs: the longer is kept, the ink starts at 0
            [0, 0, 0, 0, 0, 0, 0, 77],  // one pixel of ink at the end
            [255, 255, 255, 255, 255, 255, 255, 255],
        ]
        let mask = CoverageMask(width: 8, height: rows.count)
        for (y, row) in rows.enumerated() { for (x, v) in row.enumerated() { mask.bytes[y * 8 + x] = v } }
        mask.computeRuns()
        let runs = (0..<rows.count).map { y in (0..<4).map { Int(mask.runs[4 * y + $0]) } }
        // inkStart, runStart, runEnd, inkEnd
        #expect(runs == [[0, 0, 0, 0], [2, 4, 6, 7], [0, 3, 6, 7], [7, 7, 7, 8], [0, 0, 8, 8]])
    }

    @Test func aMaskIsDrawnOnlyWhereItHasInk() {
        let mask = CoverageMask(width: 8, height: 2)
        for (x, v) in [0, 0, 12, 200, 255, 255, 40, 0].enumerated() { mask.bytes[x] = UInt8(v) }
        mask.computeRuns()
        let shape = MaskShape(mask, x: 10, y: 5)
        let scratch = RasterCache().scratchRows(width: 32)
        let row = shape.row(5, 0, 32, scratch)
        #expect((row.x0, row.s0, row.s1, row.x1) == (12, 14, 16, 17))
        #expect(row.bytes[0] == 12 && row.bytes[4] == 40)
        #expect(shape.row(6, 0, 32, scratch).isEmpty)  // an empty row
        #expect(shape.row(5, 13, 15, scratch).x0 == 13)  // clipped inside the ink
        #expect(shape.row(5, 0, 12, scratch).isEmpty)  // clipped to the empty start
    }
}
