import Geometry
import Raster
import Logging

/// What every frame loop does with an app, written once: input delivery (a key line is a press
/// and a release), timers and posted work, rest detection, and rendering a frame into the shadow
/// buffer and presenting its damage. It has no clock of its own: a headless runner drives it on
/// virtual time, `FrameLoop` on the monotonic clock.
package final class FrameDriver {
    package let app: App
    package let display: Display
    /// The app's shadow buffer: ordinary memory holding the last frame drawn, whole (what a
    /// screenshot shows), never the scanout buffer.
    package let frame: PixelBuffer
    /// Frames rendered so far.
    package private(set) var frameNumber = 0
    /// Frames that changed what is on screen.
    package private(set) var presentedFrames = 0
    package var stats = FrameStats()
    /// A wall clock (seconds) to time frames with, for `--timing` and `--stats`; nil: untimed.
    package var clock: (() -> Double)?
    /// True when input times are on `clock`'s timeline (a board: libinput's times are
    /// CLOCK_MONOTONIC), so input-to-present latency can be measured.
    package var inputTimesOnClock = false
    /// Called with each input event before the app gets it (a recorder).
    package var onInput: ((InputEvent) -> Void)?
    /// A fleet's metrics (the remote API's `/metrics`); nil: nothing counted.
    package var metrics: LoopMetrics?
    /// Whether input latency is taken when a frame is presented (an output whose flips complete
    /// at once); a board's display reports it at each flip instead.
    package var measuresLatencyAtPresent = true
    /// Where the loop reports (the app's timers report here too).
    package var log: Logger = processLog {
        didSet { app.scheduler?.log = log }
    }

    /// Idle blanking (`idle_blank_seconds`): when the screen goes dark, which input only wakes.
    package var blanking = IdleBlanking(idleSeconds: 0, now: 0)
    /// What switches the panel off (DPMS, a backlight); nil: a black frame. One that fails is
    /// dropped for a black frame, with a message.
    package var screenPower: ScreenPower?
    package var isScreenOn: Bool { !blanking.isBlank }
    /// The display schedule (`display_schedule`) and the wall clock it is read on.
    package var schedule = ScreenSchedule()

    var needsDraw = true
    var wasAnimating = false
    var pendingInputTimes: [Double] = []
    /// The screen shows something other than `frame` (black, or it was off): the next frame
    /// presents all of it.
    var needsFullPresent = false

    package init(app: App, display: Display) {
        self.app = app
        self.display = display
        frame = PixelBuffer(
            width: display.canvasWidth, height: display.canvasHeight,
            fill: PremultipliedColor(argb: 0xFF00_0000))
        app.resize(width: display.canvasWidth, height: display.canvasHeight)
    }

    // MARK: Input

    /// Gives `event` to the app at its own time; the next frame shows it.
    /// On a dark screen the event wakes it and is swallowed with the rest of its gesture.
    package func deliver(_ event: InputEvent) {
        onInput?(event)
        countTouch(event)
        switch blanking.filter(event) {
        case .deliver: break
        case .swallow: return
        case .wake:
            screenCameOn(at: event.time)
            return
        }
        app.handle(event)
        if case .touchFrame = event.kind {} else { pendingInputTimes.append(event.time) }
        needsDraw = true
    }

    /// Applies a script line's input (a key line presses and releases); false for a
    /// screenshot or state line, which the caller captures.
    @discardableResult
    package func apply(_ action: InputScript.Action, at t: Double) -> Bool {
        switch action {
        case let .input(kind):
            deliver(InputEvent(kind, time: t))
        case let .key(key):
            InputEvent.keyStroke(key, at: t).forEach(deliver)
        case .screenshot, .state:
            return false
        }
        return true
    }

    /// Something outside the app changed what it must show (a display came back).
    package func requestFrame() { needsDraw = true }

    // MARK: Blanking

    /// Switches the screen off (through `screenPower`, else a black frame) or on (the app's
    /// frame in full on the next draw), for the remote API: off until input or the opening
    /// hours' start.
    package func setScreen(on: Bool, at t: Double) {
        guard on != isScreenOn else { return }
        if on {
            blanking.wake(at: t)
            screenCameOn(at: t)
        } else {
            turnScreenOff(at: t, reason: .remote)
        }
    }

    /// The screen goes dark now, for `reason` (idle, the schedule, the remote API).
    func turnScreenOff(at t: Double, reason: ScreenReason) {
        let why =
            switch reason {
            case .schedule: "outside the display schedule's hours"
            case .remote: "by the remote API"
            default: "after \(fixed(t - blanking.lastActivity, 0)) s without input"
            }
        blanking.blank(reason)
        app.displayPowerChanged(on: false)
        if let power = screenPower {
            do {
                try power.setPower(on: false)
                log.info("screen off (\(power.name)) \(why)")
                return
            } catch {
                log.warning("cannot switch the screen off through \(power.name): \(error); blanking with a black frame from now on")
                screenPower = nil
            }
        }
        do {
            try display.present(
                PixelBuffer(width: frame.width, height: frame.height, fill: PremultipliedColor(argb: 0xFF00_0000)),
                damage: Region(frame.bounds))
        } catch { log.error("present failed: \(error)") }
        log.info("screen black \(why)")
    }

    func screenCameOn(at t: Double) {
        if let power = screenPower {
            do { try power.setPower(on: true) } catch { log.warning("cannot switch the screen on through \(power.name): \(error)") }
        }
        needsFullPresent = true
        needsDraw = true
        app.displayPowerChanged(on: true)
        log.info(blanking.isOutsideHours ? "screen on outside the display schedule's hours" : "screen on")
    }

    /// Input from outside the devices (the remote API, a live viewer) at its own time: the same
    /// door as a device's (recorded, timed for latency, activity for idle blanking), except that
    /// it wakes a dark screen without being swallowed: a test that taps means the tap.
    package func deliverInjected(_ event: InputEvent) {
        let wasBlank = blanking.isBlank
        blanking.noteActivity(at: event.time)
        if wasBlank { screenCameOn(at: event.time) }
        onInput?(event)
        countTouch(event)
        app.handle(event)
        if case .touchFrame = event.kind {} else { pendingInputTimes.append(event.time) }
        needsDraw = true
    }

    private func countTouch(_ event: InputEvent) {
        if case .touch(.down, _, _) = event.kind { metrics?.touchBegan() }
    }

    // MARK: Timers

    /// Runs the app's posted work and timers due by `t`. A real-time loop reports work that
    /// held it up for longer than a tenth of a second.
    package func runScheduled(upTo t: Double) {
        guard let scheduler = app.scheduler else { return }
        let start = clock?()
        if scheduler.runDue(upTo: t) { needsDraw = true }
        if let start, let clock, clock() - start > 0.1 {
            log.warning("timers and posted work took \(fixed((clock() - start) * 1000, 0)) ms on the loop: frames were late")
        }
    }

    /// The next time a timer wants the loop.
    package var nextTimerDue: Double? { app.scheduler?.nextDue }

    // MARK: Frames

    /// True when a frame at `t` would show something new: input or a timer changed the app,
    /// it animates, or an animation has just ended (one more frame, drawn at rest: the last
    /// animated one may still show a fading indicator).
    package func wantsFrame(at t: Double) -> Bool {
        isScreenOn && (needsDraw || wasAnimating || !app.isStill(at: t))
    }

    /// Renders the frame for `t` and presents what changed. Returns what changed on the screen
    /// (empty: nothing).
    /// A present that fails is logged; the loop goes on (a display that went away is paused by
    /// its owner). Nothing is drawn while the screen is dark.
    @discardableResult
    package func drawFrame(at t: Double) -> Region {
        guard isScreenOn else { return Region() }
        let animating = !app.isStill(at: t)
        let start = clock?()
        var damage = app.render(into: frame, at: t)
        if needsFullPresent {
            damage.formUnion(Region(frame.bounds))
            needsFullPresent = false
        }
        frameNumber += 1
        needsDraw = false
        wasAnimating = animating
        if !damage.isEmpty {
            do {
                try display.present(frame, damage: damage, inputTimes: inputTimesOnClock ? pendingInputTimes : [])
            } catch { log.error("present failed: \(error)") }
            presentedFrames += 1
        }
        if let start, let clock {
            let end = clock()
            stats.frameTimes.append(end - start)
            metrics?.frameDrawn(seconds: end - start, presented: !damage.isEmpty)
            if inputTimesOnClock && !damage.isEmpty {
                for i in pendingInputTimes {
                    stats.inputToPresent.append(end - i)
                    if measuresLatencyAtPresent { metrics?.inputShown(after: end - i) }
                }
            }
        }
        pendingInputTimes.removeAll()
        return damage
    }

    /// The state JSON at `t` with the frames rendered so far (or `frameNumber`), and whether
    /// the screen is on and why.
    package func stateJSON(at t: Double, frameNumber: Int? = nil) -> String {
        Runtime.stateJSON(app.stateJSON(at: t, frameNumber: frameNumber ?? self.frameNumber), screenOn: isScreenOn, reason: screenReason)
    }
}

/// Frame-time and input-latency figures gathered by a loop, for `--stats` and `--timing`.
package struct FrameStats: Sendable {
    /// Seconds from the start of `render` to the frame being presented (queued, on a board).
    package var frameTimes: [Double] = []
    /// Seconds from an input event's own time to the presenting (queueing, on a board) of the
    /// frame that shows it; the display measures the time to its flip.
    package var inputToPresent: [Double] = []
    /// poll(2) wake-ups of a real-time loop.
    package var wakeups = 0

    package init() {}

    package var report: String {
        [
            Self.percentiles("frame time", frameTimes), Self.percentiles("input to present", inputToPresent),
            "poll wake-ups: \(wakeups)",
        ].joined(separator: "\n")
    }

    /// "NAME (ms, n=N): p50 …  p90 …  p99 …  max …" for durations in seconds.
    package static func percentiles(_ name: String, _ v: [Double]) -> String {
        guard !v.isEmpty else { return "\(name): no samples" }
        let ms = { (p: Double) in fixed(percentile(v, p)! * 1000, 2) }
        return "\(name) (ms, n=\(v.count)): p50 \(ms(50))  p90 \(ms(90))  p99 \(ms(99))  max \(ms(100))"
    }
}

/// The value below which `p` percent of `values` lie (nearest rank); nil for no values.
package func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let rank = Int((p / 100 * Double(s.count - 1)).rounded())
    return s[min(max(rank, 0), s.count - 1)]
}
