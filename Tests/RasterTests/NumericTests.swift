import Geometry
import Raster
import Testing

/// A canvas over a new buffer cleared to `background`.
func makeCanvas(width: Int, height: Int, background: UInt32 = 0xFF00_0000) -> (PixelBuffer, Canvas) {
    let buffer = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: background))
    return (buffer, Canvas(buffer, cache: RasterCache()))
}

@Suite struct CompositingTests {
    @Test func div255IsRoundedDivisionForEveryProduct() {
        for x in UInt32(0)...65025 {
            let expected = (2 * x + 255) / 510  // round(x / 255); never exactly halfway
            if div255(x) != expected {
                Issue.record("div255(\(x)) = \(div255(x)), expected \(expected)")
                return
            }
        }
    }

    @Test func sourceOverKnownValues() {
        #expect(sourceOver(0xFF12_3456, 0xFFAB_CDEF) == 0xFF12_3456)  // opaque replaces
        #expect(sourceOver(0x0000_0000, 0xFFAB_CDEF) == 0xFFAB_CDEF)  // transparent keeps
        #expect(sourceOver(0x8000_0000, 0xFFFF_FFFF) == 0xFF7F_7F7F)  // 50 % black on white
        #expect(sourceOver(0x8080_0000, 0xFF00_00FF) == 0xFF80_007F)  // 50 % red on blue
        #expect(sourceOver(0x4020_1008, 0x0000_0000) == 0x4020_1008)  // onto transparent
    }

    @Test func premultipliedColourRounding() {
        #expect(PremultipliedColor(rgb: 0xFFFFFF, opacity: 0.35).argb == 0x5959_5959)  // 0.35 → 89
        #expect(PremultipliedColor(rgb: 0x000000, opacity: 0.30).argb == 0x4D00_0000)  // 0.30 → 77
        #expect(PremultipliedColor(rgb: 0xFF8000, alpha: 128).argb == 0x8080_4000)
    }

    @Test func spanFillsMatchPerPixelSourceOver() {
        var row = [UInt32](repeating: 0xFF33_6699, count: 16)
        let color = PremultipliedColor(argb: 0x8040_2010)
        let coverage: [UInt8] = (0..<16).map { UInt8($0 * 17) }
        row.withUnsafeMutableBufferPointer { p in
            coverage.withUnsafeBufferPointer { c in blendSpan(p.baseAddress!, coverage: c.baseAddress!, count: 16, color: color) }
        }
        for i in 0..<16 {
            #expect(row[i] == sourceOver(scalePixel(color.argb, by: UInt32(coverage[i])), 0xFF33_6699))
        }
    }
}

@Suite struct CoverageTests {
    @Test func rectangleEdgeAtHalfPixelGetsCoverage128() {
        let (buffer, canvas) = makeCanvas(width: 16, height: 4)
        canvas.fill(rect: Rect(x: 0.5, y: 0, width: 10, height: 4), color: PremultipliedColor(rgb: 0xFFFFFF))
        #expect(buffer[0, 1] == 0xFF80_8080)  // half covered: 128 (½·255 rounded up)
        #expect(buffer[5, 1] == 0xFFFF_FFFF)
        #expect(buffer[10, 1] == 0xFF80_8080)
        #expect(buffer[11, 1] == 0xFF00_0000)
    }

    @Test func quarterCoveredCornerPixel() {
        let (buffer, canvas) = makeCanvas(width: 8, height: 8)
        canvas.fill(rect: Rect(x: 2.5, y: 2.5, width: 3, height: 3), color: PremultipliedColor(rgb: 0xFFFFFF))
        #expect(buffer[2, 2] == 0xFF40_4040)  // ¼ → 63.75 → 64
        #expect(buffer[3, 2] == 0xFF80_8080)
        #expect(buffer[3, 3] == 0xFFFF_FFFF)
    }

    @Test func evenOddHoleIsEmptyAndNonZeroIsFilled() {
        var path = Path()
        path.addRect(Rect(x: 4, y: 4, width: 40, height: 40))
        path.addRect(Rect(x: 14, y: 14, width: 20, height: 20))  // same direction: winding 2 inside
        let (evenOdd, c1) = makeCanvas(width: 48, height: 48)
        c1.fill(path: path, rule: .evenOdd, color: PremultipliedColor(rgb: 0xFFFFFF))
        let (nonZero, c2) = makeCanvas(width: 48, height: 48)
        c2.fill(path: path, rule: .nonZero, color: PremultipliedColor(rgb: 0xFFFFFF))
        for y in 14..<34 { for x in 14..<34 { #expect(evenOdd[x, y] == 0xFF00_0000) } }
        #expect(evenOdd[8, 8] == 0xFFFF_FFFF)
        #expect(nonZero[24, 24] == 0xFFFF_FFFF)
        #expect(nonZero[3, 3] == 0xFF00_0000 && evenOdd[3, 3] == 0xFF00_0000)
    }

    @Test func starCentreFollowsFillRule() {
        let star = starPath(center: Point(32, 32), radius: 30)
        let (evenOdd, c1) = makeCanvas(width: 64, height: 64)
        c1.fill(path: star, rule: .evenOdd, color: PremultipliedColor(rgb: 0xFFFFFF))
        let (nonZero, c2) = makeCanvas(width: 64, height: 64)
        c2.fill(path: star, rule: .nonZero, color: PremultipliedColor(rgb: 0xFFFFFF))
        #expect(evenOdd[32, 33] == 0xFF00_0000)
        #expect(nonZero[32, 33] == 0xFFFF_FFFF)
    }

    @Test func circleCoverageSumsToItsArea() {
        let (buffer, canvas) = makeCanvas(width: 100, height: 100)
        canvas.fill(circleCenter: Point(50.3, 49.7), radius: 40, color: PremultipliedColor(rgb: 0xFFFFFF))
        var total = 0.0
        for y in 0..<100 { for x in 0..<100 { total += Double(buffer[x, y] & 0xFF) / 255 } }
        let area = 3.141592653589793 * 40 * 40
        #expect(abs(total - area) < area * 0.002, "coverage sum \(total) vs area \(area)")
    }

    @Test func roundedRectFastPathMatchesScanConvertedPath() {
        for (rect, radius) in [
            (Rect(x: 3.25, y: 2.75, width: 50.5, height: 33.125), 9.5),
            (Rect(x: 4, y: 4, width: 56, height: 40), 14.0),
        ] {
            let (fast, c1) = makeCanvas(width: 64, height: 48)
            c1.fill(roundedRect: rect, radius: radius, color: PremultipliedColor(rgb: 0xFFFFFF))
            var path = Path()
            path.addRoundedRect(rect, radius: radius)
            let (slow, c2) = makeCanvas(width: 64, height: 48)
            c2.fill(path: path, color: PremultipliedColor(rgb: 0xFFFFFF), tolerance: 0.005)
            var worst = 0
            for y in 0..<48 { for x in 0..<64 { worst = max(worst, abs(Int(fast[x, y] & 0xFF) - Int(slow[x, y] & 0xFF))) } }
            #expect(worst <= 1, "fast and scan-converted rounded rect differ by \(worst)")
        }
    }

    @Test func cornerCoverageIsCachedAndReused() {
        let cache = RasterCache()
        let buffer = PixelBuffer(width: 64, height: 64)
        let canvas = Canvas(buffer, cache: cache)
        canvas.fill(roundedRect: Rect(x: 2, y: 2, width: 40, height: 30), radius: 8, color: PremultipliedColor(rgb: 0xFF0000))
        let afterFirst = cache.cachedMaskCount
        canvas.fill(roundedRect: Rect(x: 12, y: 22, width: 50, height: 40), radius: 8, color: PremultipliedColor(rgb: 0x00FF00))
        #expect(afterFirst == 4)
        #expect(cache.cachedMaskCount == 4)  // same radius and phases: no new masks
    }

    @Test func ringCoverageIsOuterMinusInner() {
        let (buffer, canvas) = makeCanvas(width: 64, height: 48)
        let card = Rect(x: 4, y: 4, width: 56, height: 40)
        canvas.stroke(roundedRect: card, radius: 14, lineWidth: 1, color: PremultipliedColor(rgb: 0xFFFFFF), alignment: .inside)
        #expect(buffer[30, 4] == 0xFFFF_FFFF)  // top edge row
        #expect(buffer[30, 5] == 0xFF00_0000)  // inside the border
        #expect(buffer[4, 24] == 0xFFFF_FFFF && buffer[59, 24] == 0xFFFF_FFFF)
        #expect(buffer[30, 24] == 0xFF00_0000)
        #expect(buffer[3, 24] == 0xFF00_0000 && buffer[60, 24] == 0xFF00_0000)
    }
}

@Suite struct ClipAndCopyTests {
    @Test func clipRectLimitsDrawing() {
        let (buffer, base) = makeCanvas(width: 32, height: 32)
        var canvas = base
        canvas.save()
        canvas.clip(to: Rect(x: 8, y: 8, width: 10, height: 10))
        canvas.fill(rect: Rect(x: 0, y: 0, width: 32, height: 32), color: PremultipliedColor(rgb: 0xFFFFFF))
        canvas.restore()
        #expect(canvas.clipBounds == IntRect(x: 0, y: 0, width: 32, height: 32))
        for y in 0..<32 {
            for x in 0..<32 {
                let inside = x >= 8 && x < 18 && y >= 8 && y < 18
                #expect(buffer[x, y] == (inside ? 0xFFFF_FFFF : 0xFF00_0000))
            }
        }
    }

    @Test func roundedClipCutsCornersAndKeepsInterior() {
        let (buffer, base) = makeCanvas(width: 40, height: 40)
        var canvas = base
        canvas.clip(toRoundedRect: Rect(x: 4, y: 4, width: 32, height: 32), radius: 10)
        canvas.fill(rect: Rect(x: 0, y: 0, width: 40, height: 40), color: PremultipliedColor(rgb: 0xFFFFFF))
        #expect(buffer[4, 4] == 0xFF00_0000)  // outside the rounded corner
        #expect(buffer[20, 20] == 0xFFFF_FFFF)
        #expect(buffer[20, 4] == 0xFFFF_FFFF)  // straight top edge
        #expect(buffer[2, 20] == 0xFF00_0000)
        let c = buffer[6, 6] & 0xFF
        #expect(c > 0 && c < 255)  // anti-aliased arc
    }

    @Test func scrollCopyHasMemmoveSemantics() {
        let (buffer, canvas) = makeCanvas(width: 20, height: 30)
        for y in 0..<30 { for x in 0..<20 { buffer[x, y] = 0xFF00_0000 | UInt32(y << 8 | x) } }
        let before = (0..<30).map { y in (0..<20).map { x in buffer[x, y] } }
        canvas.copy(rect: IntRect(x: 2, y: 0, width: 16, height: 30), dx: 1, dy: 7)  // overlapping, down-right
        for y in 0..<30 {
            for x in 0..<20 {
                let moved = x >= 3 && x < 19 && y >= 7
                #expect(buffer[x, y] == (moved ? before[y - 7][x - 1] : before[y][x]))
            }
        }
        let afterFirst = (0..<30).map { y in (0..<20).map { x in buffer[x, y] } }
        canvas.copy(rect: IntRect(x: 0, y: 5, width: 20, height: 25), dx: 0, dy: -5)  // overlapping, up
        #expect(buffer[4, 0] == afterFirst[5][4])
        #expect(buffer[10, 20] == afterFirst[25][10])
        #expect(buffer[10, 29] == afterFirst[29][10])  // not overwritten
    }

    @Test func copyBetweenSpansClipsBothSides() {
        let source = PixelBuffer(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { source[x, y] = UInt32(y * 8 + x) | 0xFF00_0000 } }
        let dest = PixelBuffer(width: 6, height: 6, fill: PremultipliedColor(argb: 0xFFFF_FFFF))
        dest.span.copy(from: source.span, sourceRect: IntRect(x: -2, y: 3, width: 6, height: 6), toX: 1, y: 2)
        #expect(dest[3, 2] == source[0, 3])  // source x −2 clipped: starts at dest x 3
        #expect(dest[5, 5] == source[2, 6])
        #expect(dest[2, 2] == 0xFFFF_FFFF && dest[3, 1] == 0xFFFF_FFFF)
    }

    @Test func imageDrawnOneToOneIsExact() {
        let image = PixelBuffer(width: 5, height: 4)
        for y in 0..<4 { for x in 0..<5 { image[x, y] = 0xFF00_0000 | UInt32(x * 50) << 16 | UInt32(y * 60) } }
        for filter in [ImageFilter.bilinear, .nearest] {
            let (buffer, canvas) = makeCanvas(width: 10, height: 10)
            canvas.draw(image: image, in: Rect(x: 3, y: 2, width: 5, height: 4), filter: filter)
            for y in 0..<4 { for x in 0..<5 { #expect(buffer[x + 3, y + 2] == image[x, y]) } }
            #expect(buffer[2, 2] == 0xFF00_0000 && buffer[8, 5] == 0xFF00_0000)
        }
    }

    @Test func maskTintScalesColourByCoverage() {
        let (buffer, canvas) = makeCanvas(width: 4, height: 1, background: 0xFFFF_FFFF)
        let mask = AlphaMask(width: 3, height: 1, coverage: [0, 128, 255])
        canvas.blend(mask: mask, x: 1, y: 0, color: PremultipliedColor(rgb: 0x000000))
        #expect(buffer[0, 0] == 0xFFFF_FFFF && buffer[1, 0] == 0xFFFF_FFFF)
        #expect(buffer[2, 0] == 0xFF7F_7F7F)
        #expect(buffer[3, 0] == 0xFF00_0000)
    }

    @Test func hostileInputDrawsNothingAndDoesNotCrash() {
        let (buffer, canvas) = makeCanvas(width: 8, height: 8)
        let white = PremultipliedColor(rgb: 0xFFFFFF)
        canvas.fill(rect: Rect(x: .nan, y: 0, width: 4, height: 4), color: white)
        canvas.fill(roundedRect: Rect(x: 0, y: 0, width: .infinity, height: 4), radius: .nan, color: white)
        canvas.fill(circleCenter: Point(.infinity, 2), radius: 3, color: white)
        canvas.fill(circleCenter: Point(2, 2), radius: -3, color: white)
        var path = Path()
        path.move(to: Point(0, 0)); path.line(to: Point(.nan, 5)); path.line(to: Point(1e300, 1e300))
        canvas.fill(path: path, color: white)
        canvas.fill(rect: Rect(x: -1e12, y: -1e12, width: 2e12, height: 1), color: white)
        canvas.copy(rect: IntRect(x: -100, y: -100, width: 1000, height: 1000), dx: 5000, dy: 0)
        #expect((0..<8).allSatisfy { y in (0..<8).allSatisfy { x in buffer[x, y] == 0xFF00_0000 } })
    }
}

/// A five-pointed star drawn as one self-intersecting polygon (a pentagram).
func starPath(center: Point, radius: Double) -> Path {
    // Unit vectors at −90° + k·144°, written out so no libm trigonometry is involved.
    let points: [(Double, Double)] = [
        (0, -1), (0.5877852522924731, 0.8090169943749475), (-0.9510565162951535, -0.3090169943749474),
        (0.9510565162951536, -0.3090169943749476), (-0.5877852522924732, 0.8090169943749473),
    ]
    var path = Path()
    for (i, p) in points.enumerated() {
        let q = Point(center.x + p.0 * radius, center.y + p.1 * radius)
        if i == 0 { path.move(to: q) } else { path.line(to: q) }
    }
    path.close()
    return path
}

@Suite struct ResampleTests {
    @Test func halvingAveragesBlocksAndRepeatsOddEdges() {
        let image = PixelBuffer(width: 3, height: 2)
        image[0, 0] = 0xFF00_0000; image[1, 0] = 0xFFFF_FFFF; image[2, 0] = 0x8080_8080
        image[0, 1] = 0xFF00_0000; image[1, 1] = 0xFF00_00FF; image[2, 1] = 0x0000_0000
        let half = image.halved()
        #expect(half.width == 2 && half.height == 1)
        // (0+255+0+0)/4 = 63.75 → 64 for R and G; blue (0+255+0+255)/4 = 127.5 → 128.
        #expect(half[0, 0] == 0xFF40_4080)
        // Odd column: pixels (2,0) twice and (2,1) twice → average of 0x80808080 and 0.
        #expect(half[1, 0] == 0x4040_4040)
    }

    /// Rows long enough for the vector loop, even and odd widths and heights, against each
    /// channel's rounded average computed here; the streaming `Halving` (which halves in
    /// place) gives the same.
    @Test(arguments: [(64, 6), (37, 9), (2, 2), (17, 1)])
    func halvingEqualsChannelAverages(width: Int, height: Int) {
        var seed: UInt32 = 12345
        let image = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { seed = seed &* 1_103_515_245 &+ 12345; image[x, y] = seed } }
        let half = image.halved()
        #expect(half.width == (width + 1) / 2 && half.height == (height + 1) / 2)
        for y in 0..<half.height {
            for x in 0..<half.width {
                let xs = [2 * x, min(2 * x + 1, width - 1)], ys = [2 * y, min(2 * y + 1, height - 1)]
                var expected: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    let sum = ys.reduce(0) { s, sy in xs.reduce(s) { $0 + (image[$1, sy] >> shift) & 0xFF } }
                    expected |= ((sum + 2) / 4) << shift
                }
                #expect(half[x, y] == expected, "pixel \(x), \(y) of \(width)x\(height)")
            }
        }
        let streamed = Halving(width: width, height: height, times: 1)
        for y in 0..<height { streamed.push(row: image.pixels + y * image.stride) }
        streamed.finish()
        #expect(height < 2 || (0..<half.height).allSatisfy { y in (0..<half.width).allSatisfy { streamed.output[$0, y] == half[$0, y] } })
    }
}

@Suite struct PartialRedrawTests {
    /// A scene that uses every primitive, including the scan-converted ones (paths, capsules).
    func drawScene(_ canvas: inout Canvas, image: PixelBuffer) {
        canvas.clear(color: PremultipliedColor(rgb: 0xF2F2F7))
        canvas.fill(roundedRect: Rect(x: 6.3, y: 5.7, width: 120.4, height: 60.2), radius: 13.5, color: PremultipliedColor(rgb: 0xFFFFFF))
        canvas.stroke(
            roundedRect: Rect(x: 6.3, y: 5.7, width: 120.4, height: 60.2), radius: 13.5, lineWidth: 1.25,
            color: PremultipliedColor(rgb: 0xD1D1D6), alignment: .inside)
        canvas.fill(circleCenter: Point(40.2, 35.9), radius: 21.3, color: PremultipliedColor(rgb: 0xE5A35C, opacity: 0.9))
        canvas.fill(circleCenter: Point(100, 100), radius: 300, color: PremultipliedColor(rgb: 0x5856D6, opacity: 0.2))
        canvas.fill(
            roundedRect: Rect(x: 140.6, y: 10.37, width: 5, height: 70.3), radius: 2.5, color: PremultipliedColor(rgb: 0, opacity: 0.35))
        canvas.fill(path: starPath(center: Point(80.4, 100.6), radius: 33.3), rule: .evenOdd, color: PremultipliedColor(rgb: 0xFFCC00))
        canvas.save()
        canvas.clip(toRoundedRect: Rect(x: 20.5, y: 70.5, width: 60, height: 50), radius: 12)
        canvas.draw(image: image, in: Rect(x: 10.25, y: 60.75, width: 90.5, height: 70.5))
        canvas.restore()
        canvas.blend(
            mask: AlphaMask(width: 3, height: 2, coverage: [10, 128, 255, 255, 64, 0]), x: 130, y: 120,
            color: PremultipliedColor(rgb: 0x1C1C1E))
    }

    @Test func clippedRedrawOfDamageEqualsFullRedraw() {
        let image = PixelBuffer(width: 7, height: 5)
        for y in 0..<5 { for x in 0..<7 { image[x, y] = 0xFF00_0000 | UInt32(x * 36) << 16 | UInt32(y * 60) << 8 | 0x80 } }
        let full = PixelBuffer(width: 160, height: 140)
        var canvas = Canvas(full, cache: RasterCache())
        drawScene(&canvas, image: image)

        let partial = PixelBuffer(width: 160, height: 140)
        var base = Canvas(partial, cache: RasterCache())
        drawScene(&base, image: image)
        let damage = [
            IntRect(x: 0, y: 0, width: 50, height: 40), IntRect(x: 37, y: 21, width: 13, height: 90),
            IntRect(x: 120, y: 0, width: 40, height: 140), IntRect(x: 60, y: 90, width: 41, height: 11),
            IntRect(x: 3, y: 67, width: 150, height: 3),
        ]
        for rect in damage {
            for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { partial[x, y] = 0xFFFF_00FF } }  // stale pixels
            var clipped = base
            clipped.clip(toDeviceRect: rect)
            drawScene(&clipped, image: image)
        }
        var differing = 0
        for y in 0..<140 { for x in 0..<160 where partial[x, y] != full[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ between partial and full redraw")
    }
}

@Suite struct StrokeTests {
    @Test func horizontalLineStrokeCoversItsBand() {
        var line = Path()
        line.move(to: Point(10, 20)); line.line(to: Point(50, 20))
        let (butt, c1) = makeCanvas(width: 64, height: 40)
        c1.stroke(path: line, lineWidth: 4, color: PremultipliedColor(rgb: 0xFFFFFF))
        for y in 18..<22 { #expect(butt[30, y] == 0xFFFF_FFFF) }
        #expect(butt[30, 17] == 0xFF00_0000 && butt[30, 22] == 0xFF00_0000)
        #expect(butt[9, 20] == 0xFF00_0000 && butt[50, 20] == 0xFF00_0000)  // butt caps end at the points
        let (round, c2) = makeCanvas(width: 64, height: 40)
        c2.stroke(path: line, lineWidth: 4, color: PremultipliedColor(rgb: 0xFFFFFF), roundCaps: true)
        #expect(round[9, 20] == 0xFFFF_FFFF && round[50, 19] == 0xFFFF_FFFF)  // round caps reach 2 px further
        #expect(round[30, 20] == 0xFFFF_FFFF)
    }

    @Test func closedStrokeLeavesInteriorEmpty() {
        var square = Path()
        square.addRect(Rect(x: 10, y: 10, width: 20, height: 20))
        let (buffer, canvas) = makeCanvas(width: 40, height: 40)
        canvas.stroke(path: square, lineWidth: 2, color: PremultipliedColor(rgb: 0xFFFFFF))
        #expect(buffer[20, 20] == 0xFF00_0000)
        #expect(buffer[20, 9] == 0xFFFF_FFFF && buffer[20, 10] == 0xFFFF_FFFF && buffer[20, 11] == 0xFF00_0000)
        // Round join: pixel (9, 9) is the quarter of the join disc's square, covered π/4 (≈ 200).
        let corner = Int(buffer[9, 9] & 0xFF)
        #expect(corner > 190 && corner < 215, "corner coverage \(corner)")
    }
}

/// Deterministic pseudo-random numbers (a 64-bit LCG) for property tests.
struct TestRandom {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func next(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * next() }
}

@Suite struct FastPathAgreementTests {
    func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var worst = 0
        for y in 0..<a.height { for x in 0..<a.width { worst = max(worst, abs(Int(a[x, y] & 0xFF) - Int(b[x, y] & 0xFF))) } }
        return worst
    }

    @Test func roundedRectsAgreeWithScanConversionAtRandomPhases() {
        var random = TestRandom(state: 42)
        for _ in 0..<150 {
            let rect = Rect(x: random.next(-6, 20), y: random.next(-6, 20), width: random.next(0.3, 50), height: random.next(0.3, 40))
            let radius = random.next(0, 26)
            let (fast, c1) = makeCanvas(width: 64, height: 56)
            c1.fill(roundedRect: rect, radius: radius, color: PremultipliedColor(rgb: 0xFFFFFF))
            // The same snapping as the fast path, then the general scan converter.
            func snap(_ v: Double) -> Double { (v * 64).rounded() / 64 }
            let snapped = Rect(
                x: snap(rect.minX), y: snap(rect.minY),
                width: snap(rect.maxX) - snap(rect.minX), height: snap(rect.maxY) - snap(rect.minY))
            let r = (min(radius, snapped.width / 2, snapped.height / 2) * 64).rounded(.down) / 64
            var path = Path()
            path.addRoundedRect(snapped, radius: r)
            let (slow, c2) = makeCanvas(width: 64, height: 56)
            c2.fill(path: path, color: PremultipliedColor(rgb: 0xFFFFFF), tolerance: 0.005)
            let worst = largestDifference(fast, slow)
            #expect(worst <= 1, "rounded rect \(rect) radius \(radius): differs by \(worst)")
            if worst > 1 { return }
        }
    }

    @Test func ringsAgreeWithOuterMinusReversedInner() {
        var random = TestRandom(state: 7)
        for _ in 0..<60 {
            let rect = Rect(
                x: (random.next(2, 12) * 64).rounded() / 64, y: (random.next(2, 12) * 64).rounded() / 64,
                width: (random.next(20, 48) * 64).rounded() / 64, height: (random.next(20, 40) * 64).rounded() / 64)
            let radius = (random.next(2, 10) * 64).rounded() / 64
            let width = (random.next(0.5, 4) * 64).rounded() / 64
            let (ring, c1) = makeCanvas(width: 64, height: 56)
            c1.stroke(roundedRect: rect, radius: radius, lineWidth: width, color: PremultipliedColor(rgb: 0xFFFFFF), alignment: .inside)
            // Outer outline plus the inner one wound the other way: non-zero accumulation then
            // gives outer − inner exactly (even-odd folding would add the two where both edges
            // cross one pixel).
            var path = Path()
            path.addRoundedRect(rect, radius: radius)
            var inner = Path()
            inner.addRoundedRect(rect.insetBy(dx: width, dy: width), radius: max(0, radius - width))
            let reversed = Array(inner.flattened(tolerance: 0.005)[0].reversed())
            path.move(to: reversed[0])
            for p in reversed.dropFirst() { path.line(to: p) }
            path.close()
            let (slow, c2) = makeCanvas(width: 64, height: 56)
            c2.fill(path: path, rule: .nonZero, color: PremultipliedColor(rgb: 0xFFFFFF), tolerance: 0.005)
            let worst = largestDifference(ring, slow)
            #expect(worst <= 1, "ring \(rect) r \(radius) w \(width): differs by \(worst)")
            if worst > 1 { return }
        }
    }

    @Test func circlesAgreeWithScanConvertedPaths() {
        var random = TestRandom(state: 99)
        for _ in 0..<60 {
            let center = Point(random.next(10, 50), random.next(10, 40)), radius = random.next(0.5, 30)
            let (fast, c1) = makeCanvas(width: 64, height: 56)
            c1.fill(circleCenter: center, radius: radius, color: PremultipliedColor(rgb: 0xFFFFFF))
            let r = (radius * 64).rounded() / 64
            let left = ((center.x - r) * 64).rounded() / 64, top = ((center.y - r) * 64).rounded() / 64
            var path = Path()
            path.addCircle(center: Point(left + r, top + r), radius: r)
            let (slow, c2) = makeCanvas(width: 64, height: 56)
            c2.fill(path: path, color: PremultipliedColor(rgb: 0xFFFFFF), tolerance: 0.005)
            let worst = largestDifference(fast, slow)
            #expect(worst <= 1, "circle \(center) r \(radius): differs by \(worst)")
            if worst > 1 { return }
        }
    }
}

/// Inputs the fuzzer (Tests/Fuzz) found: each used to stop the process.
@Suite struct FuzzFoundRasterTests {
    /// A centre past the coordinate limit made the sub-pixel phase overflow Int.
    @Test func aCircleFarOffTheCanvasDrawsNothingAndOneCoveringItFills() {
        let (buffer, canvas) = makeCanvas(width: 8, height: 8)
        canvas.fill(circleCenter: Point(-1e300, 4), radius: 3, color: PremultipliedColor(argb: 0xFFFF_FFFF))
        canvas.fill(circleCenter: Point(4, 2e7), radius: 10, color: PremultipliedColor(argb: 0xFFFF_FFFF))
        #expect(buffer[3, 3] == 0xFF00_0000)
        canvas.fill(circleCenter: Point(4, 1.5e7), radius: 1.5e7, color: PremultipliedColor(argb: 0xFFFF_FFFF))
        #expect(buffer[3, 3] == 0xFFFF_FFFF)
    }
}

/// One rule for when an image is drawn from a halving, and the halvings made for drawing are
/// the ones an owner keeping a reduced copy gets.
@Suite struct HalvingTests {
    @Test func halvingCountFollowsTheDrawingRule() {
        #expect(RasterCache.halvingCount(drawnAt: Size(width: 120, height: 90), width: 400, height: 300) == 1)
        #expect(RasterCache.halvingCount(drawnAt: Size(width: 99, height: 74), width: 400, height: 300) == 2)
        #expect(RasterCache.halvingCount(drawnAt: Size(width: 200, height: 10), width: 400, height: 300) == 0)
        #expect(RasterCache.halvingCount(drawnAt: Size(width: 0, height: 0), width: 5, height: 3) == 2)  // 5x3, 3x2, 2x1
        #expect(RasterCache.halvingCount(drawnAt: Size(width: .nan, height: 1), width: 400, height: 300) == 0)
    }

    @Test func aKeptHalvingIsTheOneDrawn() {
        let image = PixelBuffer(width: 64, height: 48, fill: PremultipliedColor(argb: 0xFF80_4020))
        let cache = RasterCache()
        let drawn = cache.source(for: Size(width: 10, height: 10), from: image)  // two halvings: 16x12
        #expect(drawn.width == 16 && drawn.height == 12)
        #expect(cache.halving(of: image, times: 2) === drawn)
        #expect(cache.halving(of: image, times: 3).width == 8)
        cache.forgetHalvings(of: image)
        #expect(cache.halvingBytes == 0)
        #expect(cache.halving(of: image, times: 2) !== drawn)
    }
}
