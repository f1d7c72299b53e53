import Catalog
import Geometry
import Glibc
import ImageCodecs
import Raster
import TestSupport
import Testing
import UI

/// The catalog's About sheet shows the manifest's SVG logo as librsvg renders it at the panel's
/// scale: crisp at 1x and 2x, never an enlarged small picture. (Compared with librsvg's own
/// rendering on the machine the test runs on, since librsvg's anti-aliasing differs between its
/// versions; Glide's part is to render at the drawn size and place it pixel for pixel.)
@Suite struct AboutSheetTests {
    @Test(arguments: [1.0, 2.0]) func theLogoIsLibrsvgsRenderingAtTheDrawnSize(scale: Double) throws {
        let (w, h) = (Int(1280 * scale), Int(800 * scale))
        let (app, window) = try AdaptiveCatalogTests.catalog(w, h, scale)
        #expect(app.warnings.isEmpty, "\(app.warnings)")
        let frame = PixelBuffer(width: w, height: h)
        _ = window.render(into: frame, at: 0)
        app.about.isShown = true
        _ = window.timers.runDue(upTo: 0.1)
        // Animations are functions of the loop's clock: a frame once the sheet is up will do.
        for t in [0.1, 1.5] { _ = window.render(into: frame, at: t) }
        let logo = try #require(window.pixelFrame(ofViewWithID: "about-logo"))
        #expect(logo.width == Int(128 * scale) && logo.height == Int(128 * scale))
        let bytes = try FileIO.readAll(path: testsDirectory + "/../Board/content/images/glide-logo.svg")
        let rendered = try Image.decode(bytes, halvings: { _, _ in scale == 2 ? -1 : 0 }).pixels
        #expect(rendered.width == logo.width && rendered.height == logo.height)
        // The sheet's surface under the logo's transparent corners: white in the light theme.
        var worst = 0
        for y in 0..<logo.height {
            for x in 0..<logo.width {
                let src = rendered[x, y], dst = frame[logo.x + x, logo.y + y]
                let a = Int(src >> 24)
                for shift in [0, 8, 16] {
                    let expected = Int((src >> UInt32(shift)) & 0xFF) + (255 * (255 - a) + 127) / 255
                    worst = max(worst, abs(expected - Int((dst >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        #expect(worst <= 1, "the logo drawn in the window differs from librsvg's rendering by \(worst)")
        // Closed, the sheet and its logo leave the tree.
        app.about.isShown = false
        _ = window.timers.runDue(upTo: 1.6)
        for t in [1.6, 3.0] { _ = window.render(into: frame, at: t) }
        #expect(window.pixelFrame(ofViewWithID: "about-logo") == nil)
    }

    @Test func aLogoThatIsNotThereIsReportedAtStart() throws {
        let dir = "/tmp/glide-about-\(getpid())"
        _ = mkdir(dir, 0o755)
        defer { _ = unlink(dir + "/manifest.json"); _ = rmdir(dir) }
        let text = try String(decoding: FileIO.readAll(path: testsDirectory + "/../Board/content/manifest.json"), as: UTF8.self)
        try FileIO.writeAll(Array(replacing(text, "images/glide-logo.svg", with: "nowhere.svg").utf8), path: dir + "/manifest.json")
        let built = AppFactory.catalog(
            manifestPath: dir + "/manifest.json", width: 1280, height: 800, scaleFactor: 1, typography: try typography())
        let app = try #require(built.app)
        #expect(app.warnings.contains { $0.hasPrefix("logo: nowhere.svg: ") }, "\(app.warnings)")
    }
}
