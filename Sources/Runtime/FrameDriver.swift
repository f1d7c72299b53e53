import Geometry
import Raster

/// What every frame loop does with an app, written once: input delivery (a key line is a press
/// and a release), timers and posted work, rest detection, and rendering a frame into the shadow
/// buffer and presenting its damage. It has no clock of its own: a headless runner drives it on
/// virtual time, `FrameLoop` on the monotonic clock.
public final class FrameDriver {
    public let app: App
    public let display: Display
    /// The app's shadow buffer: ordinary memory holding the last frame drawn, whole (what a
    /// screenshot shows), never the scanout buffer.
    public let frame: PixelBuffer
    /// Frames rendered so far.
    public private(set) var frameNumber = 0
    /// Frames that changed what is on screen.
    public private(set) var presentedFrames = 0
    public var stats = FrameStats()
    /// A wall clock (seconds) to time frames with, for `--timing` and `--stats`; nil: untimed.
    public var clock: (() -> Double)?
    /// True when input times are on `clock`'s timeline (a board: libinput's times are
    /// CLOCK_MONOTONIC), so input-to-present latency can be measured.
    public var inputTimesOnClock = false
    /// Called with each input event before the app gets it (a recorder).
    public var onInput: ((InputEvent) -> Void)?
    /// Where the loop reports (the app's timers report here too).
    public var log: @Sendable (String) -> Void = report {
        didSet { app.scheduler?.report = log }
    }

    var needsDraw = true
    var wasAnimating = false
    var pendingInputTimes: [Double] = []

    public init(app: App, display: Display) {
        self.app = app
        self.display = display
        frame = PixelBuffer(width: display.canvasWidth, height: display.canvasHeight,
                            fill: PremultipliedColor(argb: 0xFF00_0000))
        app.resize(width: display.canvasWidth, height: display.canvasHeight)
    }

    // MARK: Input

    /// Gives `event` to the app at its own time; the next frame shows it.
    public func deliver(_ event: InputEvent) {
        onInput?(event)
        app.handle(event)
        if case .touchFrame = event.kind {} else { pendingInputTimes.append(event.time) }
        needsDraw = true
    }

    /// Applies a script line's input (a key line presses and releases); false for a
    /// screenshot or state line, which the caller captures.
    @discardableResult
    public func apply(_ action: InputScript.Action, at t: Double) -> Bool {
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
    public func requestFrame() { needsDraw = true }

    // MARK: Timers

    /// Runs the app's posted work and timers due by `t`. A real-time loop reports work that
    /// held it up for longer than a tenth of a second.
    public func runScheduled(upTo t: Double) {
        guard let scheduler = app.scheduler else { return }
        let start = clock?()
        if scheduler.runDue(upTo: t) { needsDraw = true }
        if let start, let clock, clock() - start > 0.1 {
            log("timers and posted work took \(fixed((clock() - start) * 1000, 0)) ms on the loop: frames were late")
        }
    }

    /// The next time a timer wants the loop.
    public var nextTimerDue: Double? { app.scheduler?.nextDue }

    // MARK: Frames

    /// True when a frame at `t` would show something new: input or a timer changed the app,
    /// it animates, or an animation has just ended (one more frame, drawn at rest: the last
    /// animated one may still show a fading indicator).
    public func wantsFrame(at t: Double) -> Bool {
        needsDraw || wasAnimating || !app.isAtRest(at: t)
    }

    /// Renders the frame for `t` and presents what changed. Returns true if the screen changed.
    /// A present that fails is logged; the loop goes on (a display that went away is paused by
    /// its owner).
    @discardableResult
    public func drawFrame(at t: Double) -> Bool {
        let animating = !app.isAtRest(at: t)
        let start = clock?()
        let damage = app.render(into: frame, at: t)
        frameNumber += 1
        needsDraw = false
        wasAnimating = animating
        if !damage.isEmpty {
            do {
                try display.present(frame, damage: damage, inputTimes: inputTimesOnClock ? pendingInputTimes : [])
            } catch { log("present failed: \(error)") }
            presentedFrames += 1
        }
        if let start, let clock {
            let end = clock()
            stats.frameTimes.append(end - start)
            if inputTimesOnClock && !damage.isEmpty { for i in pendingInputTimes { stats.inputToPresent.append(end - i) } }
        }
        pendingInputTimes.removeAll()
        return !damage.isEmpty
    }

    /// The state JSON at `t` with the frames rendered so far.
    public func stateJSON(at t: Double) -> String { app.stateJSON(at: t, frameNumber: frameNumber) }
}

/// Frame-time and input-latency figures gathered by a loop, for `--stats` and `--timing`.
public struct FrameStats: Sendable {
    /// Seconds from the start of `render` to the frame being presented (queued, on a board).
    public var frameTimes: [Double] = []
    /// Seconds from an input event's own time to the presenting (queueing, on a board) of the
    /// frame that shows it; the display measures the time to its flip.
    public var inputToPresent: [Double] = []
    /// poll(2) wake-ups of a real-time loop.
    public var wakeups = 0

    public init() {}

    public var report: String {
        [Self.percentiles("frame time", frameTimes), Self.percentiles("input to present", inputToPresent),
         "poll wake-ups: \(wakeups)"].joined(separator: "\n")
    }

    /// "NAME (ms, n=N): p50 …  p90 …  p99 …  max …" for durations in seconds.
    public static func percentiles(_ name: String, _ v: [Double]) -> String {
        guard !v.isEmpty else { return "\(name): no samples" }
        let ms = { (p: Double) in fixed(percentile(v, p)! * 1000, 2) }
        return "\(name) (ms, n=\(v.count)): p50 \(ms(50))  p90 \(ms(90))  p99 \(ms(99))  max \(ms(100))"
    }
}

/// The value below which `p` percent of `values` lie (nearest rank); nil for no values.
public func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let rank = Int((p / 100 * Double(s.count - 1)).rounded())
    return s[min(max(rank, 0), s.count - 1)]
}
