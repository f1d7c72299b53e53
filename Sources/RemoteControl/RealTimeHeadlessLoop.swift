import Geometry
import Headless
import ImageCodecs
import Raster
import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// Ends a `RealTimeHeadlessLoop` from any thread (a test, a signal handler through the pipe).
public final class LoopStopper: Sendable {
    let pipe: WakePipe
    var readFD: Int32 { pipe.readFD }

    public init() throws(RemoteError) {
        do { pipe = try WakePipe() } catch { throw .system(operation: error.operation, errno: error.errno) }
    }

    public func stop() { pipe.wake() }

    /// SIGINT and SIGTERM stop the loop.
    public func installSignalHandlers() { pipe.catchSignals([SIGINT, SIGTERM]) }
}

/// Runs an app headless in wall-clock time (REM-1): frames at `hz` while something animates or
/// input arrived, sleeping in poll(2) at rest, serving a `RemoteServer` and optionally playing a
/// script (timed from the start). Runs on the calling thread, which owns the app, until the
/// stopper fires.
public final class RealTimeHeadlessLoop {
    public let app: App
    public let display: HeadlessDisplay
    public let hz: Double
    public let remote: RemoteServer?
    public private(set) var frameNumber = 0
    let frame: PixelBuffer
    var script: ArraySlice<InputScript.Entry>
    let outDirectory: String?
    public var log: (String) -> Void = { message in
        var line = "glide: \(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// - `outDirectory`: where a script's screenshot (NAME.png) and state (NAME.json) lines go.
    public init(app: App, width: Int, height: Int, hz: Double = 60, remote: RemoteServer?,
                script: InputScript = InputScript(entries: []), outDirectory: String? = nil) {
        self.app = app
        self.hz = hz.isFinite && hz >= 1 ? hz : 60
        self.remote = remote
        self.script = script.entries[...]
        self.outDirectory = outDirectory
        display = HeadlessDisplay(width: width, height: height)
        frame = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
        app.resize(width: width, height: height)
    }

    /// Runs until `stopper` fires; then answers the remote's open requests with 503.
    public func run(stopper: LoopStopper) {
        defer { remote?.loopStopped() }
        let start = monotonicSeconds()
        let period = 1 / hz
        var needsDraw = true
        var lastFrame = -Double.infinity
        while true {
            let now = monotonicSeconds()
            if let remote, remote.pollRequests(app: app, screen: display.screen, time: now, frameNumber: frameNumber) {
                needsDraw = true
            }
            while let e = script.first, start + e.t / 1000 <= now {
                script.removeFirst()
                if apply(e, at: start + e.t / 1000) { needsDraw = true }
            }
            var timeout: Double? = nil
            if needsDraw || !app.isAtRest(at: now) {
                if now >= lastFrame + period * 0.95 {
                    let damage = app.render(into: frame, at: now)
                    do { try display.present(frame, damage: damage) } catch { log("present failed: \(error)") }
                    frameNumber += 1
                    lastFrame = now
                    needsDraw = false
                    continue   // serve requests again with the new frame on screen
                }
                timeout = lastFrame + period - now
            }
            if let d = remote?.nextDeadline { timeout = min(timeout ?? .infinity, d - now) }
            if let e = script.first { timeout = min(timeout ?? .infinity, start + e.t / 1000 - now) }
            var fds = [pollfd(fd: stopper.readFD, events: Int16(POLLIN), revents: 0)]
            if let remote { fds.append(pollfd(fd: remote.wakeFD, events: Int16(POLLIN), revents: 0)) }
            let ms: Int32 = timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), 60_000)) } ?? -1
            let r = poll(&fds, nfds_t(fds.count), ms)
            if r < 0 && errno != EINTR { log("poll failed: \(String(cString: strerror(errno)))"); return }
            if fds[0].revents != 0 { return }
        }
    }

    /// Applies a script line; true if it was input.
    func apply(_ e: InputScript.Entry, at t: Double) -> Bool {
        switch e.action {
        case let .input(kind):
            app.handle(InputEvent(kind, time: t))
            return true
        case let .key(key):
            app.handle(InputEvent(.key(key, pressed: true), time: t))
            app.handle(InputEvent(.key(key, pressed: false), time: t))
            return true
        case let .screenshot(name):
            guard let dir = outDirectory else { return false }
            do { try PNG.write(display.screen, to: "\(dir)/\(name).png", alpha: .opaque) } catch { log("\(error)") }
            return false
        case let .state(name):
            guard let dir = outDirectory else { return false }
            let json = app.stateJSON(at: t, frameNumber: frameNumber) + "\n"
            let fd = open("\(dir)/\(name).json", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd < 0 { log("cannot write \(dir)/\(name).json"); return false }
            var text = json
            text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return false
        }
    }
}
