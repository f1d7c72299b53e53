import Catalog
import Headless
import Runtime
import Testing
import Text
import UI

/// At rest means no frames: each app, untouched, settles within 2 s on the panel sizes
/// kiosks use, landscape and portrait. At 800x480 the catalog's carousel page control lies
/// below the fold, and a control that compared what it showed with what it last drew (never,
/// off screen) kept the window drawing forever.
@Suite struct RestTests {
    static let sizes = [(800, 480), (1024, 600), (1280, 720), (1280, 800), (1920, 1080), (480, 800), (720, 1280), (640, 400)]

    func settleTime(_ app: String, _ w: Int, _ h: Int) throws -> Double {
        let window = try AppFactory.window(
            named: app, width: w, height: h, scaleFactor: 1,
            manifestPath: manifestPath, report: { _ in }
        ).window
        let runner = HeadlessRunner(app: window, width: w, height: h)
        runner.settleLimit = 3
        let out = try runner.run(InputScript(entries: []))
        #expect(window.isAtRest(at: out.endTime), "\(app) \(w)x\(h) still animating at \(out.endTime) s")
        return out.endTime
    }

    @Test(arguments: ["catalog", "list"])
    func anUntouchedAppComesToRestWithinTwoSeconds(app: String) throws {
        for (w, h) in Self.sizes {
            let t = try settleTime(app, w, h)
            #expect(t <= 2, "\(app) at \(w)x\(h) came to rest after \(t) s")
        }
    }
}
