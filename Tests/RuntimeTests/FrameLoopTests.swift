import Dispatch
import Geometry
import Headless
import Raster
import NIOConcurrencyHelpers
import Testing
import Text
import UI
@testable import Runtime

func makeTypography() throws -> Typography {
    try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
}

/// A window whose label counts timer ticks.
func tickingWindow(every interval: Double) throws -> (Window, Label) {
    let label = Label("0", id: "count", size: 40)
    let window = Window(width: 200, height: 100, typography: try makeTypography(), root: label)
    var ticks = 0
    window.every(interval) {
        ticks += 1
        label.text = "\(ticks)"
    }
    return (window, label)
}

/// Timers headless at exact virtual times; the real-time loop sleeps at rest and wakes for
/// work posted from another thread.
@Suite struct FrameLoopTests {
    @Test func timersFireAtExactVirtualTimesBeforeTheFrameOfThatTime() throws {
        let (window, label) = try tickingWindow(every: 0.5)
        var stamps: [Double] = []
        var seen: [String] = []
        window.every(0.75) { stamps.append(window.time) }
        window.after(2.499) { seen.append(label.text) }
        let runner = HeadlessRunner(app: window, width: 200, height: 100)
        let script = try InputScript.parse(
            """
            {"t":2000,"screenshot":"two"}
            {"t":2499,"screenshot":"before"}
            {"t":2500,"screenshot":"at"}
            """)
        let out = try runner.run(script)
        #expect(stamps == [0.75, 1.5, 2.25])
        #expect(seen == ["4"])
        #expect(label.text == "5")
        // The frame for 2.0 s shows the fourth tick, as does every frame up to 2.5 s; the frame
        // drawn for 2.5 s shows the fifth, which fired just before it.
        #expect(out.screenshots.map(\.name) == ["two", "before", "at"])
        #expect(out.screenshots[0].image.pixelsEqual(out.screenshots[1].image))
        #expect(!out.screenshots[1].image.pixelsEqual(out.screenshots[2].image))
        // The same run again gives the same pixels.
        let (again, _) = try tickingWindow(every: 0.5)
        let second = try HeadlessRunner(app: again, width: 200, height: 100).run(script)
        #expect(out.screenshots[2].image.pixelsEqual(second.screenshots[2].image))
    }

    @Test func workPostedFromAnotherThreadWakesTheSleepingLoop() throws {
        let label = Label("waiting", id: "status", size: 20)
        let window = Window(width: 200, height: 100, typography: try makeTypography(), root: label)
        let display = HeadlessDisplay(width: 200, height: 100)
        let stopper = try LoopStopper()
        let loop = try FrameLoop(app: window, output: display, stopper: stopper)
        let channel = window.channel { (text: String) in label.text = text }
        let shown = NIOLockedValueBox<(frames: Int, text: String)?>(nil)
        loop.onRest = { _ in
            // The screen is at rest: after the post, stop with what it shows.
            if label.text != "waiting" {
                shown.withLockedValue { $0 = (loop.driver.frameNumber, label.text) }
                stopper.stop()
            }
        }
        // The loop comes to rest, sleeps in poll with no timeout, and only the post wakes it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { channel.send("fetched") }
        let started = monotonicSeconds()
        try loop.run()
        let elapsed = monotonicSeconds() - started
        let result = try #require(shown.withLockedValue { $0 })
        #expect(result.text == "fetched")
        #expect(elapsed >= 0.5 && elapsed < 5)
        // Asleep for the half second: a handful of wake-ups (start, rest, the post, its frame),
        // not one per frame period.
        #expect(loop.driver.stats.wakeups < 10, "\(loop.driver.stats.wakeups) wake-ups")
        // After the loop: a post is dropped with a message, nothing runs.
        #expect(!window.post {})
    }
}

extension PixelBuffer {
    func pixelsEqual(_ other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in 0..<height {
            for x in 0..<width where pixels[y * stride + x] != other.pixels[y * other.stride + x] { return false }
        }
        return true
    }
}
