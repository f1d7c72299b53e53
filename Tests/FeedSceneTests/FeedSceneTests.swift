import Testing
import Geometry
import Raster
import Text
import ImageCodecs
import TestSupport
@testable import FeedScene

/// One scene per test process: loading the font and warming the glyph caches is the slow part.
func makeScene(width: Int = 1280, height: Int = 800, painting: FeedScene.Painting = .singleWrite) throws -> FeedScene {
    try FeedScene(
        layout: FeedLayout(width: width, height: height)!,
        fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath), painting: painting)
}

func render(frame: Int, scene: FeedScene) -> PixelBuffer {
    let buffer = PixelBuffer(width: scene.layout.width, height: scene.layout.height)
    scene.draw(frame: frame, into: buffer.span)
    return buffer
}

/// Index of the first differing pixel, or nil.
func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (x: Int, y: Int)? {
    precondition(a.width == b.width && a.height == b.height)
    for i in 0..<(a.width * a.height) where a.pixels[i] != b.pixels[i] { return (i % a.width, i / a.width) }
    return nil
}

@Suite struct FeedSceneTests {
    @Test func frame0MatchesGolden() throws {
        let scene = try makeScene()
        assertGolden(render(frame: 0, scene: scene), suite: "FeedScene", name: "frame-000")
    }

    @Test func frame100MatchesGolden() throws {
        let scene = try makeScene()
        assertGolden(render(frame: 100, scene: scene), suite: "FeedScene", name: "frame-100")
    }

    /// Every pixel is opaque (the frame is XRGB: nothing may leave a translucent hole).
    @Test func framesAreOpaque() throws {
        let scene = try makeScene()
        let frame = render(frame: 57, scene: scene)
        var translucent = 0
        for i in 0..<(frame.width * frame.height) where frame.pixels[i] >> 24 != 255 { translucent += 1 }
        #expect(translucent == 0)
    }

    /// Spot checks of colours the spec fixes, independent of the golden files.
    @Test func spotColours() throws {
        let scene = try makeScene()
        let frame = render(frame: 0, scene: scene)
        #expect(frame[5, 5] == 0xFFF2_F2F7, "background")
        #expect(frame[600, 60] == 0xFFFF_FFFF, "card fill")
        #expect(frame[600, 24] == 0xFFD1_D1D6, "top border row of card 0")
        #expect(frame[600, 143] == 0xFFD1_D1D6, "bottom border row of card 0")
        #expect(frame[24, 80] == 0xFFD1_D1D6 && frame[1255, 80] == 0xFFD1_D1D6, "side borders")
        #expect(frame[84, 84] == 0xFFE6_7373, "circle of card 0, HSV(0, 0.5, 0.9)")
        #expect(frame[1274, 20] == (0xFF00_0000 | sourceOverOpaque(0xF2F2F7, black: 89)), "thumb over background")
        #expect(frame[640, 760] == 0xFFFF_FFFF || frame[624, 760] == 0xFFFF_FFFF, "current page dot (index 2)")
        #expect(frame[624, 760] == 0xFFFF_FFFF, "dot 2 centre is opaque white")
    }

    /// Incremental frames (scroll blit + exposed strip + overlays) equal full redraws, over
    /// 40 consecutive frames from the start, across the wrap of the scroll offset, and at
    /// another canvas size.
    @Test(arguments: [(1280, 800, 0..<40), (1280, 800, 700..<730), (640, 480, 0..<12)])
    func incrementalEqualsFullRedraw(width: Int, height: Int, frames: Range<Int>) throws {
        let scene = try makeScene(width: width, height: height)
        let incremental = PixelBuffer(width: width, height: height)
        var renderer = FeedRenderer(scene: scene)
        var partialFrames = 0
        for f in frames {
            let damage = renderer.render(frame: f, into: incremental.span)
            if damage != [scene.layout.bounds] { partialFrames += 1 }
            let full = render(frame: f, scene: scene)
            if let at = firstDifference(incremental, full) {
                Issue.record("frame \(f): incremental differs from full redraw at \(at)")
                try? PNG.write(incremental, to: "/tmp/feed-incremental-\(f).png", alpha: .opaque)
                try? PNG.write(full, to: "/tmp/feed-full-\(f).png", alpha: .opaque)
                return
            }
        }
        #expect(partialFrames >= frames.count - 2, "most frames must really be incremental")
    }

    /// The single-write card painting (solid spans + clipped corner boxes) gives exactly the
    /// pixels of the straightforward Canvas calls, for whole frames and for clipped redraws.
    @Test func singleWriteEqualsReferencePainting() throws {
        let fast = try makeScene(), reference = try makeScene(painting: .reference)
        for f in [0, 1, 3, 17, 100, 714, 715] {
            if let at = firstDifference(render(frame: f, scene: fast), render(frame: f, scene: reference)) {
                Issue.record("frame \(f): single-write painting differs at \(at)")
            }
        }
        let clips = [
            IntRect(x: 0, y: 10, width: 40, height: 30), IntRect(x: 1240, y: 130, width: 40, height: 40),
            IntRect(x: 30, y: 763, width: 1200, height: 37), IntRect(x: 500, y: 0, width: 7, height: 800),
        ]
        for clip in clips {
            let a = PixelBuffer(width: 1280, height: 800), b = PixelBuffer(width: 1280, height: 800)
            fast.draw(scrollY: 1234, into: a.span, clip: clip)
            reference.draw(scrollY: 1234, into: b.span, clip: clip)
            #expect(firstDifference(a, b) == nil, "clip \(clip)")
            for y in 0..<800 {
                for x in [0, 639, 1279] where !(clip.x..<clip.maxX).contains(x) || !(clip.y..<clip.maxY).contains(y) {
                    if a[x, y] != 0 { Issue.record("pixel (\(x), \(y)) outside the clip \(clip) was written"); return }
                }
            }
        }
    }

    /// A frame's damage is small: the 37-row strip, the page control's old place (moved up
    /// with the content) and new place, and the same for the scroll indicator.
    @Test func incrementalDamageIsSmall() throws {
        let scene = try makeScene()
        let buffer = PixelBuffer(width: 1280, height: 800)
        var renderer = FeedRenderer(scene: scene)
        #expect(renderer.render(frame: 0, into: buffer.span) == [IntRect(x: 0, y: 0, width: 1280, height: 800)])
        let damage = renderer.render(frame: 1, into: buffer.span)
        #expect(
            damage == [
                IntRect(x: 0, y: 763, width: 1280, height: 37),  // exposed strip
                IntRect(x: 576, y: 709, width: 128, height: 54),  // page control, old and new place
                IntRect(x: 1272, y: 0, width: 5, height: 41),
            ])  // thumb: rows 3..<39 moved to -34..<2, new 4.06..<40.06
        for i in 0..<damage.count { for j in (i + 1)..<damage.count { #expect(damage[i].intersection(damage[j]).isEmpty) } }
        #expect(renderer.render(frame: 1, into: buffer.span) == [], "same offset: nothing to draw")
    }
}

/// Black at `alpha` over an opaque `rgb`, as the integer compositor computes it.
func sourceOverOpaque(_ rgb: UInt32, black alpha: UInt32) -> UInt32 {
    let src = Color(rgb: 0, alpha: UInt8(alpha)).premultiplied.argb
    return sourceOver(src, 0xFF00_0000 | rgb) & 0x00FF_FFFF
}
