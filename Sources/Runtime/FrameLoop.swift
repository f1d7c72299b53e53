import Geometry
import Logging
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Where a real-time loop's frames go: a DRM/KMS output, or memory when headless.
package protocol FrameOutput: Display {
    /// False while a frame cannot be presented (a page flip is pending, the display was released
    /// or unplugged): the loop then waits for the output's source to wake it.
    var canPresent: Bool { get }
    /// False while the display is released or unplugged: a frame presented then is kept for
    /// when it is back, and is not yet on screen.
    var isShowing: Bool { get }
    /// The turn from the canvas to the panel; screenshots show the panel as a person sees it.
    var rotation: Rotation { get }
    /// The refresh rate frames are paced at.
    var refreshHz: Double { get }
    /// What a screenshot shows, given the app's shadow buffer: a buffer in ordinary memory
    /// (a board's scanout buffers are write-combined and slow to read).
    func screen(shadow: PixelBuffer) -> PixelBuffer
    /// When a frame drawn at `now` reaches the screen (a display's next vertical blank): frames
    /// are rendered for that time, so motion and resampled touches match what is seen.
    func presentationTime(forFrameAt now: Double) -> Double
    /// The pixels the output itself holds for the panel, read back from it, in the panel's
    /// orientation: a board's display engine through a writeback connector, a headless display's
    /// screen. Unlike `screen(shadow:)` it shows what reached the output, not what the app drew.
    /// Throws when the output cannot read back.
    func readBack() throws -> PixelBuffer
}

extension FrameOutput {
    package func presentationTime(forFrameAt now: Double) -> Double { now }
    package func readBack() throws -> PixelBuffer { throw ReadBackUnsupported() }
}

/// An output that cannot read back what it shows.
package struct ReadBackUnsupported: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "this output cannot read back what it shows" }
}

/// One named slot of a frame loop's poll(2) set: a file descriptor to watch (the DRM device's
/// flip events, libinput, udev hotplug), a deadline to wake for (a retry), or both. A source
/// logs what it can live with and throws only what ends the loop.
package protocol LoopSource: AnyObject {
    var name: String { get }
    /// Watched for POLLIN; nil: a deadline only.
    var pollFD: Int32? { get }
    /// The loop time by which `service` must run even if the descriptor stays quiet.
    func deadline(now: Double) -> Double?
    /// The descriptor is readable (`readable`) or the deadline has come.
    func service(readable: Bool, now: Double, loop: FrameLoop) throws
}

/// The real-time frame loop, for a board and for headless runs under remote control:
/// one poll(2) over a wake pipe (stop requests and signals), the app's posted work, the remote
/// API and the sources, with a timeout only for what is due (the next frame of an animation,
/// a timer, a scripted event). At rest and with nothing scheduled it sleeps without a timeout:
/// no CPU. Time is CLOCK_MONOTONIC seconds, libinput's and DRM's timeline.
package final class FrameLoop {
    package let driver: FrameDriver
    package let output: FrameOutput
    package var sources: [LoopSource] = []
    /// The remote-control API served on this loop's thread.
    package var remote: (any RemoteAccess)?
    /// Present at most this many frames a second (default: the output's refresh rate; virtual
    /// displays complete flips at once).
    package var maxFramesPerSecond: Double?
    /// A script played in real time from the loop's start, and what to do with its screenshot
    /// and state lines (name, is a screenshot, time).
    package var script: ArraySlice<InputScript.Entry> = []
    package var onCapture: ((_ name: String, _ screenshot: Bool, _ t: Double) -> Void)?
    /// Called once the first frame is on screen, with its time.
    package var onFirstFrame: ((Double) -> Void)?
    /// Called when a frame changes the screen after rest, and when the screen has come to rest
    /// showing a change (the board's state file).
    package var onDrawing: (() -> Void)?
    package var onRest: ((Double) -> Void)?
    /// Signals caught by `catchSignals` other than SIGINT and SIGTERM (which stop the loop).
    package var onSignal: ((Int32) -> Void)?
    package var log: Logger { driver.log }
    /// Time moves only when the remote API asks (`--remote-clock virtual`, headless): the loop
    /// then runs frame by frame, as fast as it can, up to `RemoteAccess.pendingUntil`, and sleeps
    /// with its clock stopped when nothing is pending. Carets, timers, animations and scrolls are
    /// where a test put them, however busy the machine.
    package var isClockVirtual = false
    private var virtualNow = 0.0
    /// Loop time: the monotonic clock, or the virtual one.
    private func loopTime() -> Double { isClockVirtual ? virtualNow : monotonicSeconds() }

    let wake: WakePipe
    let notifier = SystemdNotifier()
    var stopRequested = false

    /// Runs `app` on `output`. `stopper`: a handle another thread keeps to end the loop.
    package init(app: App, output: FrameOutput, stopper: LoopStopper? = nil) throws(SystemCallError) {
        driver = FrameDriver(app: app, display: output)
        self.output = output
        if let stopper { wake = stopper.pipe } else { wake = try WakePipe() }
        driver.clock = { monotonicSeconds() }
    }

    /// SIGINT and SIGTERM stop the loop; the others go to `onSignal`.
    package func catchSignals(_ signals: [Int32]) { wake.catchSignals(signals) }

    /// Something outside the app changed what must be shown (a display came back).
    package func requestFrame() { driver.requestFrame() }

    /// Runs until `stop`, SIGINT or SIGTERM, or until a source throws (it could not go on: a
    /// display back without its mode); then answers the remote's open requests with 503 and
    /// drops later posted work with a message.
    package func run() throws {
        // A virtual clock starts at 0, as a headless run from a script does: its times repeat.
        virtualNow = 0
        let start = loopTime()
        driver.blanking.wake(at: start)
        var pacing = Pacing()
        var watchdog = Watchdog(notifier: notifier, now: start)
        defer {
            remote?.loopStopped()
            driver.app.scheduler?.loopStopped()
            notifier?.notify("STOPPING=1")
        }
        while !stopRequested {
            let now = loopTime()
            remote?.pollRequests(
                app: driver.app, screen: output.screen(shadow: driver.frame), rotation: output.rotation,
                time: now, frameNumber: driver.frameNumber, control: self, deliver: driver.deliverInjected)
            playScript(startedAt: start, upTo: now)
            driver.runScheduled(upTo: now)

            var wake = WakeTime(now: now)
            if output.canPresent && present(at: now, pacing: &pacing, wake: &wake) {
                continue  // serve requests again with the new frame on screen
            }
            wake.by(watchdog.due(now: now))
            wake.by(driver.nextTimerDue)
            wake.by(driver.screenDue)
            wake.by(remote?.nextDeadline)
            wake.by(script.first.map { start + $0.t / 1000 })
            for s in sources { wake.by(s.deadline(now: now)) }

            if isClockVirtual {
                // Instead of sleeping until what is due, time jumps there while pending requests
                // ask it to run that far; otherwise it stands still until a request comes.
                guard let until = remote?.pendingUntil, until > now else {
                    try poll(timeout: nil, now: now)
                    continue
                }
                virtualNow = min(until, now + (wake.timeout ?? .infinity))
                try poll(timeout: 0, now: now)
                continue
            }
            try poll(timeout: wake.timeout, now: now)
        }
    }

    /// Where the loop's frames stand between its turns.
    private struct Pacing {
        var lastFrame = -Double.infinity
        /// When the app's figures last went to the metrics: at most once a second.
        var lastSample = -Double.infinity
        var firstFrameShown = false
        var changedSinceRest = true
    }

    /// The earliest time the loop must wake, as seconds from `now`; nil: until something happens.
    private struct WakeTime {
        let now: Double
        var timeout: Double?
        init(now: Double) { self.now = now }
        mutating func by(_ time: Double?) {
            guard let time else { return }
            timeout = min(timeout ?? .infinity, max(0, time - now))
        }
    }

    /// The script's entries due by `now`.
    private func playScript(startedAt start: Double, upTo now: Double) {
        while let e = script.first, start + e.t / 1000 <= now {
            script.removeFirst()
            if !driver.apply(e.action, at: start + e.t / 1000) {
                if case let .screenshot(name) = e.action { onCapture?(name, true, now) }
                if case let .state(name) = e.action { onCapture?(name, false, now) }
            }
        }
    }

    /// Blanks an idle screen, draws a frame when one is wanted and the frame rate allows it, and
    /// reports the first frame and each rest. True when a frame was drawn.
    private func present(at now: Double, pacing: inout Pacing, wake: inout WakeTime) -> Bool {
        driver.updateScreen(at: now)
        if driver.isScreenOn != liveScreenOn {
            // Blanked or back: what a screenshot shows changed outside a frame's damage.
            liveScreenOn = driver.isScreenOn
            driver.metrics?.screenPowered(on: liveScreenOn, idle: driver.screenReason == .idle)
            driver.metrics?.openingHours(!driver.blanking.isOutsideHours)
            showLive(Region(IntRect(x: 0, y: 0, width: output.canvasWidth, height: output.canvasHeight)))
        }
        guard driver.wantsFrame(at: now) else {
            if pacing.changedSinceRest && pacing.firstFrameShown {
                // At rest and the last frame is on screen: the screen shows exactly this state.
                onRest?(now)
                pacing.changedSinceRest = false
            }
            return false
        }
        // A little under the interval on the wall clock (a wake a little early still draws);
        // exactly it on a virtual clock, whose frames fall on the refresh grid.
        let minInterval = (isClockVirtual ? 1 : 0.9) / (maxFramesPerSecond ?? output.refreshHz)
        if now < pacing.lastFrame + minInterval {
            wake.by(pacing.lastFrame + minInterval)
            return false
        }
        // Only a frame that changed the screen ends the rest: one that changed nothing (input
        // that moved nothing) is followed by no new rest.
        let damage = driver.drawFrame(at: output.presentationTime(forFrameAt: now))
        if !damage.isEmpty {
            if !pacing.changedSinceRest {
                onDrawing?()
                pacing.changedSinceRest = true
            }
            showLive(damage)
        }
        pacing.lastFrame = now
        if let metrics = driver.metrics, now >= pacing.lastSample + 1 {
            metrics.sample(driver.app)
            pacing.lastSample = now
        }
        if !pacing.firstFrameShown && driver.presentedFrames > 0 && output.isShowing {
            pacing.firstFrameShown = true
            onFirstFrame?(now)
            notifier?.notify("READY=1")
        }
        return true
    }

    var liveScreenOn = true

    /// Sends live viewers (the remote control's `/live`) what changed on the screen a screenshot
    /// shows.
    func showLive(_ damage: Region) {
        remote?.framePresented(
            output.screen(shadow: driver.frame), damage: damage, rotation: output.rotation,
            frameNumber: driver.frameNumber)
    }

    /// Waits for any descriptor or the timeout, then services what woke.
    func poll(timeout: Double?, now: Double) throws {
        var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        let scheduled = driver.app.scheduler?.wakeFD ?? -1
        fds.append(pollfd(fd: scheduled, events: Int16(POLLIN), revents: 0))  // fd -1 is ignored
        fds.append(pollfd(fd: remote?.wakeFD ?? -1, events: Int16(POLLIN), revents: 0))
        let first = fds.count
        for s in sources { fds.append(pollfd(fd: s.pollFD ?? -1, events: Int16(POLLIN), revents: 0)) }
        let ms: Int32 = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), 60_000)) } ?? -1
        let r = Glibc.poll(&fds, nfds_t(fds.count), ms)
        driver.stats.wakeups += 1
        if r < 0 {
            if errno == EINTR { return }
            throw SystemCallError(operation: "poll", errno: errno)
        }
        if fds[0].revents != 0 {
            for byte in wake.drain() {
                let s = Int32(byte)
                if s == 0 || s == SIGINT || s == SIGTERM {
                    if s != 0 { log.notice("signal \(s): exiting") }
                    stopRequested = true
                } else {
                    onSignal?(s)
                }
            }
        }
        let later = loopTime()
        for (i, s) in sources.enumerated() {
            let readable = fds[first + i].revents != 0
            let due = s.deadline(now: later).map { $0 <= later } ?? false
            if readable || due { try s.service(readable: readable, now: later, loop: self) }
        }
    }
}

extension FrameLoop: ScreenControl {
    package func readBack() throws -> PixelBuffer { try output.readBack() }
    package var isScreenOn: Bool { driver.isScreenOn }
    package var screenReason: ScreenReason { driver.screenReason }
    package func setScreen(on: Bool, at time: Double) { driver.setScreen(on: on, at: time) }
}

/// Ends a `FrameLoop` from any thread.
package struct LoopStopper: Sendable {
    let pipe: WakePipe
    package init() throws(SystemCallError) { pipe = try WakePipe() }
    package func stop() { pipe.wake(0) }
}

/// systemd's watchdog (WatchdogSec): WATCHDOG=1 from the loop at half the interval, so a loop
/// that stops turning is restarted.
struct Watchdog {
    let notifier: SystemdNotifier?
    var last: Double

    init(notifier: SystemdNotifier?, now: Double) { self.notifier = notifier; last = now }

    /// Pets the dog when it is time and says when it is next due (nil without a watchdog).
    mutating func due(now: Double) -> Double? {
        guard let notifier, let interval = notifier.watchdogInterval else { return nil }
        if now >= last + interval {
            notifier.notify("WATCHDOG=1")
            last = now
        }
        return last + interval
    }
}
