@testable import Raster
import Testing

/// The four-pixel kernels must equal the scalar ones bit for bit: the goldens and the band
/// renderer's identity with one thread rest on it.
@Suite struct LanesTests {
    /// Opaque spans (libc's wmemset on x86_64, 128-bit stores on aarch64) write exactly their
    /// pixels, at every length and misalignment, and nothing beside them.
    @Test func storeSpanWritesItsPixelsOnly() {
        for count in Array(0...41) + [63, 64, 65, 95, 96, 99, 131] {
            for offset in 0..<4 {
                var row = [UInt32](repeating: 0xDEAD_BEEF, count: 140)
                row.withUnsafeMutableBufferPointer { storeSpan($0.baseAddress! + offset, count: count, color: 0xFF12_3456) }
                let expected = (0..<140).map { $0 >= offset && $0 < offset + count ? UInt32(0xFF12_3456) : 0xDEAD_BEEF }
                #expect(row == expected, "\(count) pixels at \(offset)")
            }
        }
    }

    /// Premultiplied pixels from a fixed generator (channels never above alpha), with the
    /// extremes every kernel has a special case for.
    private static func pixels(count: Int) -> [UInt32] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var result: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_0000, 0x8080_8080, 0x0101_0101, 0xFF12_3456]
        while result.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = UInt32(truncatingIfNeeded: state >> 32)
            let alpha = bits >> 24
            let channel = { (shift: UInt32) in ((bits >> shift) & 0xFF) * alpha / 255 }
            result.append(alpha << 24 | channel(16) << 16 | channel(8) << 8 | channel(0))
        }
        return result
    }

    private static func lanes(_ p: [UInt32], _ i: Int) -> SIMD4<UInt32> { SIMD4(p[i], p[i + 1], p[i + 2], p[i + 3]) }

    @Test func lerpEqualsLerpPixelForEveryWeight() {
        let a = Self.pixels(count: 64), b = Array(Self.pixels(count: 128).suffix(64))
        for w in UInt32(0)...256 {
            for i in stride(from: 0, to: 64, by: 4) {
                let v = Lanes.lerp(Self.lanes(a, i), Self.lanes(b, i), SIMD4(repeating: w &* 0x0001_0001))
                for j in 0..<4 { #expect(v[j] == lerpPixel(a[i + j], b[i + j], w), "w \(w)") }
            }
        }
    }

    @Test func scaleEqualsScalePixelForEveryFactor() {
        let p = Self.pixels(count: 64)
        for k in UInt32(0)...255 {
            for i in stride(from: 0, to: 64, by: 4) {
                let v = Lanes.scale(Self.lanes(p, i), by: SIMD4(repeating: k &* 0x0001_0001))
                for j in 0..<4 { #expect(v[j] == scalePixel(p[i + j], by: k), "k \(k)") }
            }
        }
    }

    @Test func overEqualsSourceOver() {
        let s = Self.pixels(count: 1024), d = Array(Self.pixels(count: 2048).suffix(1024))
        for i in stride(from: 0, to: 1024, by: 4) {
            let v = Lanes.over(Self.lanes(s, i), Self.lanes(d, i))
            for j in 0..<4 { #expect(v[j] == sourceOver(s[i + j], d[i + j])) }
            let opaque = (0..<4).allSatisfy { s[i + $0] >> 24 == 255 }
            #expect(Lanes.isOpaque(Self.lanes(s, i)) == opaque)
        }
    }

    @Test func rowsAreBlendedLikeLerpPixelWhateverTheCount() {
        let a = Self.pixels(count: 37), b = Array(Self.pixels(count: 74).suffix(37))
        for count in [0, 1, 3, 4, 5, 8, 37] {
            var out = [UInt32](repeating: 7, count: 38)
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    out.withUnsafeMutableBufferPointer { out in
                        Canvas.lerpRows(a.baseAddress!, b.baseAddress!, 77, into: out.baseAddress!, count: count)
                    }
                }
            }
            for i in 0..<count { #expect(out[i] == lerpPixel(a[i], b[i], 77)) }
            #expect(out[count] == 7, "nothing written past the row")
        }
    }

    /// `blendSpan` (glyphs, edges) against per-pixel source-over: translucent and opaque
    /// colours, runs of empty and full coverage that take the shortcuts, every length's tail,
    /// done pixel by pixel or (with room to write) as a last group of four that must leave the
    /// pixels past `count` as they were, and `blendRows` over two rows of a wider buffer.
    @Test func blendSpanIsPerPixelSourceOver() {
        let backdrop = Self.pixels(count: 41)
        let coverage: [UInt8] = (0..<41).map { i in
            i < 8 ? 0 : i < 16 ? 255 : i < 20 ? 0 : i < 24 ? 255 : UInt8(truncatingIfNeeded: i &* 37)
        }
        for color in [PremultipliedColor(argb: 0xFF20_4060), PremultipliedColor(argb: 0x8040_2010), .transparent] {
            for count in [0, 1, 2, 3, 4, 7, 24, 37, 41] {
                func expected(_ i: Int) -> UInt32 {
                    i < count ? sourceOver(scalePixel(color.argb, by: UInt32(coverage[i])), backdrop[i]) : backdrop[i]
                }
                for writable in Set([count, 41]) {
                    var row = backdrop
                    row.withUnsafeMutableBufferPointer { p in
                        coverage.withUnsafeBufferPointer { c in
                            if writable == count {
                                blendSpan(p.baseAddress!, coverage: c.baseAddress!, count: count, color: color)
                            } else {
                                blendSpan(p.baseAddress!, coverage: c.baseAddress!, count: count, color: color, writable: writable)
                            }
                        }
                    }
                    for i in 0..<41 { #expect(row[i] == expected(i), "pixel \(i) of \(count), writable \(writable), colour \(color.argb)") }
                }
                // Rows 1 and 2 of a 3-row buffer 45 wide; the coverage rows are 41 apart.
                let twice = coverage + coverage
                var rows: [UInt32] = backdrop + [1, 2, 3, 4]
                rows += backdrop + [5, 6, 7, 8]
                rows += backdrop + [9, 10, 11, 12]
                rows.withUnsafeMutableBufferPointer { p in
                    twice.withUnsafeBufferPointer { c in
                        blendRows(
                            p.baseAddress! + 45, stride: 45, coverage: c.baseAddress!, coverageStride: 41, count: count, rows: 2,
                            color: color, writable: 44)
                    }
                }
                let untouched = backdrop + [1, 2, 3, 4]
                #expect(Array(rows[0..<45]) == untouched)
                for r in 1...2 {
                    for i in 0..<41 { #expect(rows[r * 45 + i] == expected(i), "row \(r) pixel \(i) of \(count)") }
                    #expect(Array(rows[(r * 45 + 41)..<(r * 45 + 45)]) == (r == 1 ? [5, 6, 7, 8] : [9, 10, 11, 12]))
                }
            }
        }
    }

    @Test func blendOfAnOpaqueColourEqualsTheGeneralBlendForEveryCoverage() {
        let backdrop = Self.pixels(count: 64)
        for colour in [0xFF20_4060, 0xFFFF_FFFF, 0xFF00_0000, 0xFF1C_1C1E] as [UInt32] {
            let lanes = SIMD4<UInt32>(repeating: colour)
            for k in UInt32(0)...255 {
                let bytes = k | (255 - k) << 8 | (k &* 7 & 255) << 16 | (k &* 13 & 255) << 24
                for i in stride(from: 0, to: 64, by: 4) {
                    var general = Array(backdrop[i..<(i + 4)]), opaque = general
                    general.withUnsafeMutableBufferPointer { Lanes.blend(lanes, coverage: bytes, into: $0.baseAddress!) }
                    opaque.withUnsafeMutableBufferPointer { Lanes.blendOpaque(lanes, coverage: bytes, into: $0.baseAddress!) }
                    #expect(opaque == general, "colour \(colour), coverage \(k)")
                }
            }
        }
    }

    @Test func fillSpanIsPerPixelSourceOverWhateverTheCount() {
        let backdrop = Self.pixels(count: 23)
        for colour in [0xFF20_4060, 0xFFFF_FFFF, 0x5900_0000, 0x8040_2010, 0x7373_7373, 0x0000_0000] as [UInt32] {
            for count in [0, 1, 3, 4, 5, 15, 16, 17, 23] {
                var row = backdrop
                row.withUnsafeMutableBufferPointer { fillSpan($0.baseAddress!, count: count, color: PremultipliedColor(argb: colour)) }
                for i in 0..<23 {
                    #expect(
                        row[i] == (i < count ? sourceOver(colour, backdrop[i]) : backdrop[i]), "pixel \(i) of \(count), colour \(colour)")
                }
            }
        }
    }
}
