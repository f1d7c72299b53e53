import ArgumentParser
import BoardConfig
import BoardLoop
import Geometry
import LinuxDRM
import LinuxInput
import Logging
import Runtime
import TouchCalibration
#if canImport(Glibc)
import Glibc
#endif

/// `glide calibrate`, `APP calibrate`: the same display, touchscreen and config as `board`.
package struct CalibrateCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Calibrate the touchscreen: touch five crosses; the fitted matrix goes into the config file (the old one kept as FILE.bak).")
    @OptionGroup package var options: BoardOptions
    @Option(help: "The largest average miss accepted, in pixels (default: 2% of the screen's shorter side, at least 4).")
    package var maxError: Double?
    @Option(help: "Seconds without a touch before the calibration gives up, writing nothing.")
    package var timeout = 60.0

    package init() {}

    package func validate() throws {
        guard options.config != nil else {
            throw ValidationError("calibrate writes the matrix into the board config: pass --config FILE, the file `board` runs with")
        }
        if let maxError, !(maxError.isFinite && maxError > 0 && maxError <= 1000) {
            throw ValidationError("--max-error must be a number of pixels above 0, at most 1000")
        }
        guard timeout.isFinite, timeout >= 1, timeout <= 3600 else { throw ValidationError("--timeout must lie in 1...3600 seconds") }
    }

    package func run() throws { try CalibrationRuntime.run(self) }
}

/// Runs the calibration screen on the board and writes what it fits. Nothing is written when
/// it is cancelled (Esc, the timeout, SIGINT/SIGTERM) or the fit is bad; the exit status then
/// is 1 and the reason is on standard error.
package enum CalibrationRuntime {
    package static func run(_ command: CalibrateCommand) throws {
        let log = processLog
        let options = command.options
        guard let path = options.config else { throw ValidationError("pass --config FILE") }
        let cfg = try options.mergedConfig(apps: nil)
        // Before anyone touches anything: a file that cannot take the result says so now.
        do { try ConfigFile.checkWritable(path) } catch {
            log.error("calibrate: \(error)")
            throw ExitCode(1)
        }
        let display = try BoardRuntime.openDisplay(options, cfg, log: log)
        defer {
            display.restore()
            log.info("display restored; exiting")
        }
        // Raw touches: through the touch rotation only; the config's old matrix is set aside.
        let transform = BoardRuntime.touchTransform(cfg, display: display, log: log)
        if cfg.calibration != nil { log.notice("the calibration in \(path) is not applied while calibrating") }
        let backend: InputContext.Backend = cfg.inputs.isEmpty ? .udev(seat: cfg.seat) : .paths(cfg.inputs)
        let input = try InputContext(backend: backend, transform: transform, pointerAsTouch: cfg.pointerAsTouch, log: log)

        let screen = CalibrationScreen(
            width: display.canvasWidth, height: display.canvasHeight, scaleFactor: cfg.scale,
            typography: try Kiosk.typography(), touchRotation: transform.rotation,
            limit: command.maxError, timeoutSeconds: command.timeout)
        screen.log = log
        let result = CalibrationResult(path: path)
        screen.onOutcome = result.record
        let stopper = try LoopStopper()
        screen.onDone = { stopper.stop() }
        let loop = try FrameLoop(app: screen, output: display, stopper: stopper)
        let supervisor = DisplaySupervisor(display: display, log: log)
        loop.sources = [supervisor, LibinputSource(input: input)]
        if let monitor = ConnectorMonitor() { loop.sources.append(HotplugSource(monitor: monitor, supervisor: supervisor)) }
        loop.catchSignals([SIGINT, SIGTERM, SIGUSR1, SIGUSR2])
        loop.onSignal = { [unowned loop] in supervisor.handle(signal: $0, loop: loop) }
        loop.onFirstFrame = { _ in screen.start() }
        let console = VirtualTerminal(fd: STDIN_FILENO)
        defer { console?.restore() }

        try loop.run()
        if let saved = result.saved {
            print(saved)
        } else {
            log.error("calibrate: \(result.failure ?? "calibration stopped by a signal; nothing was written")")
            throw ExitCode(1)
        }
    }
}

/// What a calibration came to: the fit saved in the config file, or why nothing was.
final class CalibrationResult {
    let path: String
    /// The line printed when the fit was saved.
    private(set) var saved: String?
    /// Why nothing was saved.
    private(set) var failure: String?

    init(path: String) { self.path = path }

    /// Saves a good fit in the config file; returns what the screen says about it.
    func record(_ outcome: CalibrationSession.Outcome) -> String {
        switch outcome {
        case let .fitted(fit):
            let errors = "off by \(fixed(fit.rmsError, 1)) px on average, \(fixed(fit.maxError, 1)) px at most"
            do {
                let backup = try ConfigFile.set("calibration", to: fit.matrix.configValue, inFileAt: path)
                saved =
                    "calibration = \(fit.matrix.configValue) written to \(path)"
                    + (backup.map { " (the old file is \($0))" } ?? "") + "; \(errors)"
                return "Saved in \(path): \(errors)."
            } catch {
                failure = "\(error) (the fit was calibration = \(fit.matrix.configValue), \(errors))"
                return "Not saved: \(error)"
            }
        case let .failed(error):
            failure = "\(error); nothing was written"
            return "Nothing saved: \(error)."
        case let .cancelled(reason):
            failure = "calibration \(reason); nothing was written"
            return "Nothing saved: \(reason)."
        }
    }
}
