import Geometry
import LinuxDRM
import LinuxInput
import Raster
import Runtime
#if canImport(Glibc)
import Glibc
#endif

public enum BoardLoopError: Error, CustomStringConvertible {
    case system(operation: String, errno: Int32)
    case recordFile(path: String, reason: String)
    case displayModeGone(String)
    public var description: String {
        switch self {
        case .system(let op, let e): return "\(op) failed: \(String(cString: strerror(e)))"
        case .recordFile(let path, let reason): return "cannot write \(path): \(reason)"
        case .displayModeGone(let mode):
            return "the display came back without the mode \(mode): exiting, so that a restart (the service's Restart=always) takes the new display's modes"
        }
    }
}

/// The board's event loop (LOOP-1): one poll(2) over the DRM fd (page-flip events), the libinput
/// fd, a self-pipe for signals and a timeout for animation pacing and the watchdog. It draws only
/// when input arrived or the app is animating, never while a flip is pending, and otherwise sleeps
/// in poll with no timeout (no CPU at rest). The app's time is CLOCK_MONOTONIC seconds, the same
/// timeline as libinput's event times.
public final class BoardLoop {
    public struct Options {
        /// Write every input event to this file as JSON Lines in the headless script format (HL-2).
        public var recordPath: String?
        /// Write the app's state JSON here (atomically) whenever the app comes to rest after a
        /// change (the first time once the first frames have settled), with the last frame shown.
        /// The file is removed when drawing starts again, so it exists only while the screen is
        /// at rest and shows exactly that state (tests wait for it).
        public var stateFilePath: String?
        /// Do not present faster than this (virtual displays complete flips at once).
        public var maxFramesPerSecond: Double?
        /// Called once the first frame is on screen.
        public var onFirstFrame: (() -> Void)?
        /// A remote-control server served on this loop's thread (REM-1).
        public var remote: (any RemoteAccess)?
        public var log: (String) -> Void = { message in
            var line = "glide: \(message)\n"
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
        public init() {}
    }

    public let app: App
    public let display: DRMDisplay
    public let input: InputContext?
    public var options: Options
    public private(set) var stats = FrameStats()

    private let frame: PixelBuffer
    private var recorder: InputRecorder?
    private var stateFileExists = false

    public init(app: App, display: DRMDisplay, input: InputContext?, options: Options = Options()) throws(BoardLoopError) {
        self.app = app
        self.display = display
        self.input = input
        self.options = options
        frame = PixelBuffer(width: display.canvasWidth, height: display.canvasHeight,
                            fill: PremultipliedColor(argb: 0xFF00_0000))
        if let path = options.recordPath { recorder = try InputRecorder(path: path) }
        app.resize(width: display.canvasWidth, height: display.canvasHeight)
    }

    /// Runs until SIGINT or SIGTERM. SIGUSR1 releases the display (drops DRM master), SIGUSR2
    /// takes it back. A display that goes away pauses drawing and is retried every second.
    public func run() throws {
        let signals: WakePipe
        do { signals = try WakePipe() } catch { throw BoardLoopError.system(operation: error.operation, errno: error.errno) }
        // SIGINT/SIGTERM quit, SIGUSR1/SIGUSR2 release and retake the display.
        signals.catchSignals([SIGINT, SIGTERM, SIGUSR1, SIGUSR2])
        let console = VirtualTerminal(fd: STDIN_FILENO)
        if console != nil { options.log("the terminal on standard input is in graphics mode with its keyboard off until exit") }
        defer { console?.restore() }
        let notifier = SystemdNotifier()
        let minInterval = 1 / (options.maxFramesPerSecond ?? display.refreshHz) * 0.9
        var needsDraw = true
        var wasAnimating = false
        var lastPresent = -Double.infinity
        var pendingInputTimes: [Double] = []
        var firstFrameDone = false
        var stateDirty = true
        var lastWatchdog = monotonicSeconds()
        var wakeups = 0
        var renderedFrames = 0
        // Released on request (SIGUSR1, a VT switch): taken back only on SIGUSR2, never by the
        // retry that brings back a display that went away.
        var released = false
        // Display hotplug (OUT-3): an unplugged display pauses drawing; the retry below, or the
        // next hotplug event, brings it back.
        let connectors = ConnectorMonitor()
        func tryResume() throws {
            if display.resume() {
                options.log("display is back: \(display.summary)")
                needsDraw = true
            } else if display.isModeGone {
                throw BoardLoopError.displayModeGone("\(display.mode)")
            }
        }
        defer { options.remote?.loopStopped() }

        mainLoop: while true {
            let now = monotonicSeconds()
            var timeout: Double? = nil   // seconds; nil = wait for an event
            if let remote = options.remote,
               remote.pollRequests(app: app, screen: frame, rotation: display.rotation, time: now, frameNumber: renderedFrames) {
                needsDraw = true
            }

            if !display.isFlipPending && !display.isPaused {
                let animating = !app.isAtRest(at: now)
                // One more frame when an animation has just ended, drawn at a time the app is at
                // rest: the last animated frame may still show a fading indicator.
                let settling = wasAnimating && !animating
                if needsDraw || animating || settling {
                    let wait = lastPresent + minInterval - now
                    if wait > 0 {
                        timeout = wait
                    } else {
                        let start = monotonicSeconds()
                        if stateFileExists, let path = options.stateFilePath {
                            unlink(path)
                            stateFileExists = false
                        }
                        let damage = app.render(into: frame, at: start)
                        if renderedFrames == 0 { recorder?.origin = start }
                        renderedFrames += 1
                        needsDraw = false
                        wasAnimating = animating
                        if !damage.isEmpty {
                            do {
                                try display.present(frame, damage: damage)
                            } catch {
                                options.log("present failed: \(error); pausing until the display is back")
                            }
                            let queued = monotonicSeconds()
                            stats.frameTimes.append(queued - start)
                            for t in pendingInputTimes { stats.inputToFlip.append(queued - t) }
                            pendingInputTimes.removeAll()
                            lastPresent = start
                            stateDirty = true
                            if !firstFrameDone && !display.isPaused {
                                firstFrameDone = true
                                options.onFirstFrame?()
                                notifier?.notify("READY=1")
                            }
                        } else {
                            // Nothing changed (e.g. a finger held still): no flip, but keep the
                            // frame pacing, or a busy app would spin here without polling.
                            pendingInputTimes.removeAll()
                            lastPresent = start
                        }
                        continue mainLoop
                    }
                } else if stateDirty && firstFrameDone {
                    // At rest and the last flip is done: the screen shows exactly this state.
                    writeState(at: now)
                    stateDirty = false
                }
            }
            if display.isPaused && !released { timeout = min(timeout ?? 1, 1) }
            if let w = notifier?.watchdogInterval {
                let due = lastWatchdog + w - now
                if due <= 0 {
                    notifier?.notify("WATCHDOG=1")
                    lastWatchdog = now
                    timeout = min(timeout ?? w, w)
                } else {
                    timeout = min(timeout ?? due, due)
                }
            }

            var fds = [pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0)]
            if let input { fds.append(pollfd(fd: input.fd, events: Int16(POLLIN), revents: 0)) }
            let connectorsIndex = fds.count
            if let connectors { fds.append(pollfd(fd: connectors.fd, events: Int16(POLLIN), revents: 0)) }
            if let remote = options.remote {
                fds.append(pollfd(fd: remote.wakeFD, events: Int16(POLLIN), revents: 0))
                if let d = remote.nextDeadline { timeout = min(timeout ?? max(0, d - now), max(0, d - now)) }
            }
            let ms: Int32 = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), 60_000)) } ?? -1
            let r = poll(&fds, nfds_t(fds.count), ms)
            wakeups += 1
            if r < 0 {
                if errno == EINTR { continue }
                throw BoardLoopError.system(operation: "poll", errno: errno)
            }
            if fds[0].revents != 0 {
                for s in signals.drain().map(Int32.init) {
                    switch s {
                    case SIGINT, SIGTERM:
                        options.log("signal \(s): exiting")
                        break mainLoop
                    case SIGUSR1:
                        options.log("releasing the display (SIGUSR1)")
                        released = true
                        display.pause()
                    case SIGUSR2:
                        options.log("taking the display back (SIGUSR2)")
                        released = false
                        if display.resume() { needsDraw = true }
                    default: break
                    }
                }
            }
            if fds[1].revents != 0 {
                do { try display.handleEvents() } catch { options.log("\(error)") }
            }
            if let input, fds[2].revents != 0 {
                for event in input.dispatch() {
                    recorder?.record(event)
                    app.handle(event)
                    if case .touchFrame = event.kind {} else { pendingInputTimes.append(event.time) }
                    needsDraw = true
                }
            }
            if let connectors, fds[connectorsIndex].revents != 0, connectors.drain() {
                if display.connectorMayHaveChanged() {
                    options.log("display disconnected: paused until it is back")
                } else if display.isPaused && !released {
                    try tryResume()
                }
            }
            if display.isPaused && !released && r == 0 { try tryResume() }
        }
        stats.wakeups = wakeups
        notifier?.notify("STOPPING=1")
        recorder = nil
        display.waitForPendingFlip()
    }

    private func writeState(at t: Double) {
        guard let path = options.stateFilePath else { return }
        if let shadowPath = getenv("GLIDE_DUMP_SHADOW").map({ String(cString: $0) }) { dumpShadow(to: shadowPath) }
        let json = app.stateJSON(at: t, frameNumber: display.flipCount)
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { options.log("cannot write state file \(tmp)"); return }
        var text = json + "\n"
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if rename(tmp, path) == 0 { stateFileExists = true }
    }
}

extension BoardLoop {
    /// Debugging aid (GLIDE_DUMP_SHADOW=FILE): the app's shadow frame as a binary PPM, to tell a
    /// damage problem in the app (the shadow is wrong) from one in the copy to the screen.
    func dumpShadow(to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var header = "P6\n\(frame.width) \(frame.height)\n255\n"
        header.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        var row = [UInt8](repeating: 0, count: frame.width * 3)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let p = frame.pixels[y * frame.stride + x]
                row[3 * x] = UInt8(truncatingIfNeeded: p >> 16)
                row[3 * x + 1] = UInt8(truncatingIfNeeded: p >> 8)
                row[3 * x + 2] = UInt8(truncatingIfNeeded: p)
            }
            row.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
        }
    }
}

/// Writes input events as JSON Lines in the headless script format (HL-2), `t` in milliseconds
/// since the app's first frame: a headless replay draws its first frame at t = 0, so start-up
/// animations (the indicator flash) and the input line up as they did on the board.
final class InputRecorder {
    let fd: Int32
    /// The first frame's time; the first event's if input came before it.
    var origin: Double?

    init(path: String) throws(BoardLoopError) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .recordFile(path: path, reason: String(cString: strerror(errno))) }
    }
    deinit { close(fd) }

    func record(_ event: InputEvent) {
        let t0 = origin ?? event.time
        origin = t0
        guard var line = InputScript.line(for: event, milliseconds: (event.time - t0) * 1000) else { return }
        line += "\n"
        line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
    }
}

/// Frame-time and input-to-flip figures gathered by the loop, for `--stats`.
public struct FrameStats: Sendable {
    /// Seconds from the start of `render` to the flip being queued.
    public var frameTimes: [Double] = []
    /// Seconds from an input event's kernel timestamp to the queueing of the flip that shows it.
    public var inputToFlip: [Double] = []
    /// poll(2) wake-ups.
    public var wakeups = 0

    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let rank = Int((p / 100 * Double(s.count - 1)).rounded())
        return s[min(max(rank, 0), s.count - 1)]
    }

    public var report: String {
        func line(_ name: String, _ v: [Double]) -> String {
            guard !v.isEmpty else { return "\(name): no samples" }
            let f = { (p: Double) in String(format1: FrameStats.percentile(v, p)! * 1000) }
            return "\(name) (ms, n=\(v.count)): p50 \(f(50))  p90 \(f(90))  p99 \(f(99))  max \(f(100))"
        }
        return [line("frame time", frameTimes), line("input to flip", inputToFlip), "poll wake-ups: \(wakeups)"]
            .joined(separator: "\n")
    }
}

extension String {
    /// A number with two decimals, without Foundation's String(format:).
    init(format1 v: Double) {
        let r = (v * 100).rounded() / 100
        let whole = Int(r)
        let frac = Int((abs(r - Double(whole)) * 100).rounded())
        self = "\(r < 0 && whole == 0 ? "-" : "")\(whole).\(frac < 10 ? "0" : "")\(frac)"
    }
}
