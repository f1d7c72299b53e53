import ImageCodecs
import LinuxDRM
import LinuxInput
import Logging
import Raster
import Runtime
#if canImport(Glibc)
import Glibc
#endif

// The board's parts of a `FrameLoop`: the DRM display as its output, its supervision
// (flips, release and resume, hotplug), libinput, and the files a board writes (the input
// recording, the state file).

package enum BoardLoopError: Error, CustomStringConvertible {
    case recordFile(path: String, reason: String)
    case displayModeGone(String)
    package var description: String {
        switch self {
        case .recordFile(let path, let reason): return "cannot write \(path): \(reason)"
        case .displayModeGone(let mode):
            return
                "the display came back without the mode \(mode): exiting, so that a restart (the service's Restart=always) takes the new display's modes"
        }
    }
}

extension DRMDisplay: FrameOutput {
    /// No frame while no buffer is free (a flip pending, and with three buffers a frame held
    /// behind it) or the display is released or unplugged.
    package var canPresent: Bool { hasFreeBuffer && !isPaused }
    package var isShowing: Bool { !isPaused }
    /// Screenshots come from the shadow buffer, never the write-combined scanout.
    package func screen(shadow: PixelBuffer) -> PixelBuffer { shadow }
    package func presentationTime(forFrameAt now: Double) -> Double { nextVerticalBlank(after: now) }
}

/// The display's slot: completes page flips, gives the display up on request (SIGUSR1,
/// a VT switch) until asked back (SIGUSR2), and retries a display that went away every second
/// (or at its hotplug event) without taking back one that was released on request.
package final class DisplaySupervisor: LoopSource {
    package let display: DRMDisplay
    package let name = "display"
    package private(set) var released = false
    var lastRetry = -Double.infinity
    let log: Logger

    package init(display: DRMDisplay, log: Logger) {
        self.display = display
        self.log = log
    }

    package var pollFD: Int32? { display.fd }

    package func deadline(now: Double) -> Double? {
        display.isPaused && !released ? lastRetry + 1 : nil
    }

    package func service(readable: Bool, now: Double, loop: FrameLoop) throws {
        if readable {
            do { try display.handleEvents() } catch { log.error("\(error)") }
        }
        if display.isPaused && !released && now >= lastRetry + 1 {
            lastRetry = now
            try resume(loop)
        }
    }

    /// SIGUSR1 and SIGUSR2.
    package func handle(signal: Int32, loop: FrameLoop) {
        switch signal {
        case SIGUSR1:
            log.notice("releasing the display (SIGUSR1)")
            released = true
            display.pause()
        case SIGUSR2:
            log.notice("taking the display back (SIGUSR2)")
            released = false
            if display.resume() { shown(loop) }
        default:
            break
        }
    }

    /// A connector changed: pause if ours went away, else try to bring a lost display back.
    func hotplugged(_ loop: FrameLoop) throws {
        if display.connectorMayHaveChanged() {
            log.warning("display disconnected: paused until it is back")
        } else if display.isPaused && !released {
            try resume(loop)
        }
    }

    /// A display taken or plugged back has its mode set anew, which lights it however dark the
    /// screen was: the screen is on again (its idle time starting over) and the frame drawn.
    func shown(_ loop: FrameLoop) {
        loop.driver.setScreen(on: true, at: monotonicSeconds())
        loop.requestFrame()
    }

    func resume(_ loop: FrameLoop) throws {
        if display.resume() {
            log.notice("display is back: \(display.summary)")
            shown(loop)
        } else if display.isModeGone {
            throw BoardLoopError.displayModeGone("\(display.mode)")
        }
    }
}

/// udev's drm change events (display hotplug).
package final class HotplugSource: LoopSource {
    package let name = "hotplug"
    let monitor: ConnectorMonitor
    let supervisor: DisplaySupervisor

    package init(monitor: ConnectorMonitor, supervisor: DisplaySupervisor) {
        self.monitor = monitor
        self.supervisor = supervisor
    }

    package var pollFD: Int32? { monitor.fd }
    package func deadline(now: Double) -> Double? { nil }
    package func service(readable: Bool, now: Double, loop: FrameLoop) throws {
        if monitor.drain() { try supervisor.hotplugged(loop) }
    }
}

/// libinput's slot: touches, keys and pointer events go to the app at their kernel times.
package final class LibinputSource: LoopSource {
    package let name = "input"
    package let input: InputContext

    /// libinput queues the devices it found when the context was made without making its
    /// descriptor readable: they are read at once, not at the first touch (an idle board would
    /// log "input device added" only then).
    private var readOnce = false

    package init(input: InputContext) { self.input = input }

    package var pollFD: Int32? { input.fd }
    package func deadline(now: Double) -> Double? { readOnce ? nil : now }
    package func service(readable: Bool, now: Double, loop: FrameLoop) throws {
        readOnce = true
        for event in input.dispatch() { loop.driver.deliver(event) }
    }
}

/// Writes input events as JSON Lines in the headless script format (to replay a
/// board's real input headless), `t` in milliseconds
/// since the app's first frame: a headless replay draws its first frame at t = 0, so start-up
/// animations (the indicator flash) and the input line up as they did on the board.
package final class InputRecorder {
    let file: AppendingFile
    /// The first frame's time; the first event's if input came before it.
    package var origin: Double?

    package init(path: String) throws(BoardLoopError) {
        do { file = try AppendingFile(path: path) } catch { throw .recordFile(path: path, reason: "\(error)") }
    }

    package func record(_ event: InputEvent) {
        let t0 = origin ?? event.time
        origin = t0
        guard let line = InputScript.line(for: event, milliseconds: (event.time - t0) * 1000) else { return }
        file.append(line + "\n")
    }
}

/// The state file (`--state-file`): the app's state JSON, written whole when the screen comes
/// to rest showing a change, and removed when drawing starts again, so it exists only while the
/// screen is at rest and shows exactly that state (tests wait for it).
package final class StateFile {
    package let path: String
    var exists = false
    let log: Logger

    package init(path: String, log: Logger) {
        self.path = path
        self.log = log
        // What a write killed between its write and its rename left beside the file.
        FileIO.removeLeftovers(of: path)
    }

    package func write(_ json: String) {
        do {
            try FileIO.writeAll(Array((json + "\n").utf8), path: path)
            exists = true
        } catch {
            log.error("cannot write the state file: \(error)")
        }
    }

    package func remove() {
        guard exists else { return }
        unlink(path)
        exists = false
    }
}
