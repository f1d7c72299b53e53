import Geometry
import Raster
import Runtime

/// Runs an app with no display and no input device on a virtual clock: frame n is drawn
/// for time n/hz, after every script event up to that time; the same script gives the same
/// frames on every machine. While the app is at rest and no timer is due, the clock jumps to the
/// next event or timer: the frames skipped would all have been the same picture, so a day of
/// virtual time at rest costs nothing and every screenshot and state is what it would be.
package final class HeadlessRunner {
    package let app: App
    package let display: HeadlessDisplay
    package let driver: FrameDriver
    package let hz: Double
    /// Longest time run after the last event while waiting for rest.
    package var settleLimit = 10.0
    /// Told the name of each screenshot the script takes, while the app shows it (the audit
    /// checks the screen there). When set, the screenshot is its alone and `Output` keeps no
    /// copy: a script of many screenshots then needs one screen's memory, not one per line. What
    /// it throws ends the run.
    package var onScreenshot: ((String) throws -> Void)?

    package init(app: App, width: Int, height: Int, hz: Double = 60) {
        self.app = app
        self.hz = hz.isFinite && hz >= 1 ? hz : 60
        display = HeadlessDisplay(width: width, height: height, refreshHz: self.hz)
        driver = FrameDriver(app: app, display: display)
    }

    /// Frames drawn so far.
    package var frameNumber: Int { driver.frameNumber }
    /// The index of the next frame on the virtual clock: frame n is for time n/hz. It runs
    /// ahead of `frameNumber` by the frames skipped at rest.
    package private(set) var tick = 0
    /// The time of the next frame.
    package var time: Double { Double(tick) / hz }
    /// The time of the last frame drawn.
    var lastDrawn: Double { Double(tick - 1) / hz }
    /// Wall-clock milliseconds per rendered frame, when a clock was given.
    package var frameTimes: [Double] { driver.stats.frameTimes.map { $0 * 1000 } }

    /// Runs the timers due by the current virtual time, draws and presents its frame, and
    /// advances the clock by exactly one refresh period.
    package func step(clock: (() -> Double)? = nil) {
        driver.clock = clock
        driver.runScheduled(upTo: time)
        driver.updateScreen(at: time)
        driver.drawFrame(at: time)
        tick += 1
    }

    /// At rest with nothing due before `until` (seconds): moves the clock to the last frame
    /// before it, skipping frames that would change nothing.
    func skipIdleFrames(until: Double) {
        guard until.isFinite, !driver.wantsFrame(at: time) else { return }
        let due = min(until, driver.nextTimerDue ?? .infinity, driver.screenDue ?? .infinity)
        // The frame for `due` (or the first after it) must still be drawn: stop one before.
        let target = Int(min((due * hz).rounded(.up), Double(Int.max / 2))) - 1
        if target > tick { tick = target }
    }

    package struct Output {
        package var screenshots: [(name: String, image: PixelBuffer)] = []
        package var states: [(name: String, json: String)] = []
        package var finalScreenshot: PixelBuffer?
        package var finalState = ""
        package var frames = 0
        package var endTime = 0.0
    }

    /// Runs `script` to the end, then until the app is at rest (at most `settleLimit` seconds
    /// more), collecting the screenshots and states it asks for and the final ones. A
    /// screenshot at time T is what is on screen at T: the last frame drawn at or before T
    /// (events after that frame and up to T are not visible yet). A state at T is the UI's
    /// state at T. Timers fire at their exact times, before the frame drawn at that time.
    package func run(_ script: InputScript, clock: (() -> Double)? = nil) throws -> Output {
        var out = Output()
        var pending = script.entries[...]
        step(clock: clock)
        while true {
            if let e = pending.first { skipIdleFrames(until: e.t / 1000) }
            let next = time
            // Everything up to the next frame's time, in script order, each at its own time.
            while let e = pending.first, e.t / 1000 <= next {
                let t = e.t / 1000
                if t == next { break }  // belongs after the next frame is drawn
                pending.removeFirst()
                try capture(e, at: t, into: &out)
            }
            step(clock: clock)
            // Events exactly at the new frame's time: inputs apply from the next frame on,
            // captures see the frame just drawn.
            let drawn = lastDrawn
            while let e = pending.first, e.t / 1000 == drawn {
                pending.removeFirst()
                try capture(e, at: drawn, into: &out)
            }
            if pending.isEmpty {
                let lastInput = (script.entries.last?.t ?? 0) / 1000
                // At rest at the time of the frame just drawn, so final.png and final.json show
                // the resting state (not the frame before it).
                if app.isAtRest(at: drawn) || drawn - lastInput > settleLimit { break }
            }
        }
        out.finalScreenshot = PixelBuffer(copying: display.screen.span)
        out.finalState = driver.stateJSON(at: lastDrawn, frameNumber: frameNumber - 1)
        out.frames = frameNumber
        out.endTime = lastDrawn
        return out
    }

    /// Applies an input, or takes a screenshot of the screen as it is / a state at `t`.
    func capture(_ e: InputScript.Entry, at t: Double, into out: inout Output) throws {
        // Timers due by `t` run first: input and a state at t come after them (the screen
        // shows what they did from the next frame on).
        driver.runScheduled(upTo: t)
        if driver.apply(e.action, at: t) { return }
        switch e.action {
        case let .screenshot(name):
            if let onScreenshot {
                try onScreenshot(name)
            } else {
                out.screenshots.append((name, PixelBuffer(copying: display.screen.span)))
            }
        case let .state(name): out.states.append((name, driver.stateJSON(at: t, frameNumber: frameNumber - 1)))
        case .input, .key: break
        }
    }

}
