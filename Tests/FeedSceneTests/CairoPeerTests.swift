#if canImport(Glibc)
import Glibc
#endif
import Testing
import Raster
import ImageCodecs
import TestSupport
import Text
@testable import FeedScene

/// Runs `command` with /bin/sh; true when it exits with status 0.
func shell(_ command: String) -> Bool {
    let status = system(command)
    return status != -1 && (status >> 8) & 0xFF == 0 && status & 0x7F == 0
}

/// Whether the C peer can be built here: gcc plus cairo's and FreeType's development files.
let cairoPeerAvailable: Bool = shell("command -v gcc >/dev/null 2>&1 && pkg-config --exists cairo freetype2 >/dev/null 2>&1")

/// Per-channel comparison of two opaque frames.
struct FrameDifference: CustomStringConvertible {
    var maxChannelDelta = 0
    /// Pixels whose largest channel difference exceeds 0, 16 and 64.
    var differing = 0, over16 = 0, over64 = 0
    var total = 0
    init(_ a: PixelBuffer, _ b: PixelBuffer) {
        total = a.width * a.height
        for i in 0..<total {
            let p = a.pixels[i], q = b.pixels[i]
            var d = 0
            for shift in [0, 8, 16] as [UInt32] { d = max(d, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))) }
            maxChannelDelta = max(maxChannelDelta, d)
            if d > 0 { differing += 1 }
            if d > 16 { over16 += 1 }
            if d > 64 { over64 += 1 }
        }
    }
    func fraction(_ n: Int) -> Double { Double(n) / Double(total) }
    var description: String {
        "max channel delta \(maxChannelDelta); pixels differing: \(differing) (\(fraction(differing) * 100)%), "
            + "> 16: \(over16) (\(fraction(over16) * 100)%), > 64: \(over64) (\(fraction(over64) * 100)%)"
    }
}

/// Glide and cairo 1.16 draw the same scene (Tests/Peers/cairo/feed_cairo.c). They may differ
/// only where shape anti-aliasing is computed differently: cairo's scan converter samples a
/// 256 x 15 grid per pixel and approximates arcs with Béziers, ours integrates exact area.
/// Text goes through FreeType with the same settings on both sides and places the same
/// glyphs at the same whole pixels, so it must agree.
/// Stated tolerance, per frame: every channel within 24 levels, and at most 0.5 % of the
/// pixels different at all (measured on 2026-11-22: max delta 10, 0.25 % of pixels, all
/// on the edges of circles, card corners, the thumb and the page control).
@Suite(.enabled(if: cairoPeerAvailable, "needs gcc and libcairo2-dev"))
struct CairoPeerTests {
    @Test(arguments: [0, 100])
    func glideMatchesCairo(frame: Int) throws {
        let dir = try makeTemporaryFolder(prefix: "feed-cairo")
        defer { _ = shell("rm -rf '\(dir)'") }
        let source = testsDirectory + "/Peers/cairo/feed_cairo.c"
        let font = try FontLibraryPath.font()
        try #require(
            shell("gcc -O2 -ffp-contract=off -o '\(dir)/feed_cairo' '\(source)' $(pkg-config --cflags --libs cairo freetype2) -lm"),
            "building the cairo peer failed")
        let png = "\(dir)/frame.png"
        try #require(
            shell("'\(dir)/feed_cairo' --font '\(font)' --frames 0 --png-frame \(frame) --png '\(png)'"),
            "running the cairo peer failed")
        let cairo = try PNG.read(path: png)
        let glide = render(frame: frame, scene: try makeScene())
        try #require(cairo.width == glide.width && cairo.height == glide.height)
        let difference = FrameDifference(glide, cairo)
        print("frame \(frame), Glide vs cairo: \(difference)")
        #expect(difference.maxChannelDelta <= 24, "\(difference)")
        #expect(difference.fraction(difference.differing) <= 0.005, "\(difference)")
    }
}

enum FontLibraryPath {
    static func font() throws -> String {
        try Text.FontLibrary.locateFontsDirectory(near: #filePath) + "/DejaVuSans.ttf"
    }
}
