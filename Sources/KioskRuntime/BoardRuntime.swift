import ArgumentParser
import BoardConfig
import BoardLoop
import Dispatch
import FleetMetrics
import Geometry
import LinuxDRM
import LinuxInput
import TouchCalibration
import Logging
import RemoteControl
import Speech
import Runtime
import UI
#if canImport(Glibc)
import Glibc
#endif

/// The board (`glide board`, `APP board`): takes the DRM display and libinput's devices, puts
/// the console in graphics mode, and runs the app full-screen until SIGINT or SIGTERM, with
/// display release (SIGUSR1/SIGUSR2), hotplug, systemd's watchdog, the state file, the input
/// recording, `--stats` and remote control. Every app gets the same.
package enum BoardRuntime {
    package static func run(_ options: BoardOptions, app source: AppSource, appName: String? = nil) throws {
        let log = processLog
        let startUp = StartupClock.secondsSinceExec()
        var building = 0.0
        func build(_ w: Int, _ h: Int, _ cfg: BoardConfig) throws -> App {
            let start = monotonicSeconds()
            defer { building += monotonicSeconds() - start }
            return try source.build(w, h, cfg.scale, false, cfg)
        }
        var cfg = try options.mergedConfig(apps: source.names)
        if let appName { cfg.app = appName }
        // Checked before the display is taken, so that a bad address or token says so at once.
        let remoteConfiguration = try options.remote.configuration(config: cfg)
        if remoteConfiguration?.clock == .virtual {
            throw ValidationError("--remote-clock virtual is for headless runs: a board shows frames when the display is ready")
        }
        try checkAccessibility(cfg)
        // While the display is not there yet (at boot, before udev gives the card to the video
        // group), the app is built for the size sysfs suggests: its start-up and the wait overlap.
        var early: (width: Int, height: Int, app: Result<App, any Error>)?
        let display = try openDisplay(
            options, cfg, log: log,
            whileWaiting: {
                guard let size = guessedCanvas(options, cfg) else { return }
                early = (size.width, size.height, Result { try build(size.width, size.height, cfg) })
            })
        defer {
            display.restore()
            log.info("display restored; exiting")
        }
        var transform = touchTransform(cfg, display: display, log: log)
        if let c = cfg.calibration, let m = CalibrationMatrix(c) { transform.calibration = m }
        let backend: InputContext.Backend = cfg.inputs.isEmpty ? .udev(seat: cfg.seat) : .paths(cfg.inputs)
        let input = try InputContext(backend: backend, transform: transform, pointerAsTouch: cfg.pointerAsTouch, log: log)
        let app = try buildApp(build, early: early, display: display, cfg: cfg, log: log)
        let speaker = try configure(app, display: display, input: input, cfg: cfg, log: log)

        let loop = try makeLoop(app, display: display, input: input, options: options, log: log) {
            guard let total = StartupClock.secondsSinceExec() else { return "" }
            // The display's wait and modesetting overlap the app's building.
            let parts = [startUp.map { "start-up \(StartupClock.ms($0))" }, "app \(StartupClock.ms(building))"].compactMap { $0 }
            return
                ", \(StartupClock.ms(total)) ms after exec: \(parts.joined(separator: ", ")), the rest the display, modesetting and the first frame"
        }
        let backlight = setUpBlanking(loop.driver, display: display, cfg: cfg, log: log)
        defer { if !loop.driver.isScreenOn, let backlight { try? backlight.setPower(on: true) } }
        let console = VirtualTerminal(fd: STDIN_FILENO)
        if console != nil { log.info("the terminal on standard input is in graphics mode with its keyboard off until exit") }
        defer { console?.restore() }
        let server = try remoteConfiguration.map { try startRemote($0, counting: loop.driver, display: display) }
        if let server { log.info("remote control on port \(server.port ?? 0)") }
        loop.remote = server
        defer { if let server { RemoteRuntime.stop(server) } }

        try loop.run()
        if options.stats { printStats(loop.driver, display: display, app: app, speaker: speaker) }
    }

    /// The app for the display's canvas: the one built while waiting for the display when the
    /// canvas is the size sysfs suggested, else a new one.
    static func buildApp(
        _ build: (Int, Int, BoardConfig) throws -> App, early: (width: Int, height: Int, app: Result<App, any Error>)?,
        display: DRMDisplay, cfg: BoardConfig, log: Logger
    ) throws -> App {
        do {
            if let early, early.width == display.canvasWidth, early.height == display.canvasHeight {
                return try early.app.get()
            }
            if let early {
                log.notice(
                    "the canvas is \(display.canvasWidth)x\(display.canvasHeight), not the \(early.width)x\(early.height) sysfs suggested: the app is built again"
                )
            }
            return try build(display.canvasWidth, display.canvasHeight, cfg)
        } catch {
            throw AppStartError(underlying: error)
        }
    }

    /// Gives the app the config's settings (threads, memory, text entry, accessibility) and the
    /// display the app's bands; returns the speaker the screen reader speaks through.
    static func configure(
        _ app: App, display: DRMDisplay, input: InputContext, cfg: BoardConfig,
        log: Logger
    ) throws -> SpeakerOutput? {
        var settings = AppSettings()
        settings.memoryBudget = cfg.memoryBudgetMB << 20
        settings.renderThreads = cfg.renderThreads ?? BandRenderer.defaultThreads
        // A frame never waits for a decoder on a board.
        settings.decodesImagesInBackground = true
        configureTextEntry(app, &settings, input: input, cfg: cfg, log: log)
        let speaker = try configureAccessibility(&settings, cfg: cfg, log: log)
        app.apply(settings)
        display.copyBands = app.bandRenderer
        return speaker
    }

    /// The frame loop over the display and libinput: hotplug, signals, the input recording and
    /// the state file.
    static func makeLoop(
        _ app: App, display: DRMDisplay, input: InputContext, options: BoardOptions,
        log: Logger, startup: @escaping () -> String
    ) throws -> FrameLoop {
        let loop = try FrameLoop(app: app, output: display)
        let driver = loop.driver
        driver.inputTimesOnClock = true
        loop.maxFramesPerSecond = options.maxFps
        let supervisor = DisplaySupervisor(display: display, log: log)
        loop.sources = [supervisor, LibinputSource(input: input)]
        if let monitor = ConnectorMonitor() { loop.sources.append(HotplugSource(monitor: monitor, supervisor: supervisor)) }
        loop.catchSignals([SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGHUP])
        loop.onSignal = { [unowned loop] signal in
            if signal == SIGHUP {
                (loop.remote as? RemoteServer)?.reloadTokens(because: "SIGHUP")
            } else {
                supervisor.handle(signal: signal, loop: loop)
            }
        }

        let recorder = try options.record.map { path throws(BoardLoopError) in try InputRecorder(path: path) }
        if let recorder { driver.onInput = recorder.record }
        loop.onFirstFrame = { t in
            if recorder?.origin == nil { recorder?.origin = t }
            log.info("first frame on screen at uptime \(uptime())\(startup())")
        }
        if let path = options.stateFile {
            let stateFile = StateFile(path: path, log: log)
            loop.onDrawing = stateFile.remove
            loop.onRest = { t in stateFile.write(driver.stateJSON(at: t)) }
        }
        return loop
    }

    /// `--stats`: frame times, flips, modesetting, memory and speech latency.
    static func printStats(_ driver: FrameDriver, display: DRMDisplay, app: App, speaker: SpeakerOutput?) {
        print(driver.stats.report)
        let flips = display.flipTiming
        print("flips: \(flips.flips), missed vertical blanks: \(flips.missedBlanks), unusable flip timestamps: \(flips.unusableTimestamps)")
        print(FrameStats.percentiles("input to flip", flips.inputToFlip))
        print(FrameStats.percentiles("flip interval", flips.flipIntervals))
        print(
            "modesetting: \(display.modesettingAPI), \(display.bufferCount) buffers, damage clips: \(display.damageClipsSent) in \(display.flipsWithDamageClips) flips"
        )
        if let report = app.memoryReport { print(report) }
        if let speaker, !speaker.firstSampleDelays.isEmpty {
            print(FrameStats.percentiles("speech: utterance to first sample on the sound card", speaker.firstSampleDelays))
        }
    }
}

extension BoardRuntime {
    /// The display the config names, at its mode, turned by the configured rotation or, with
    /// none configured, by the panel's own orientation property.
    /// `whileWaiting` runs once if the display is not there at the first try.
    static func openDisplay(
        _ options: BoardOptions, _ cfg: BoardConfig, log: Logger,
        whileWaiting: () -> Void = {}
    ) throws -> DRMDisplay {
        let configuredTurn = configuredRotation(options, cfg)
        // At boot the card may not be there yet (a driver that probes late), or udev may not yet
        // have given it to the service user's groups: the board waits rather than fail and restart.
        let wait = PatientAttempt(seconds: cfg.displayWaitSeconds, clock: monotonicSeconds, sleep: { usleep(UInt32($0 * 1e6)) })
        let display = try wait.run(
            isTransient: { error in
                switch error as? DRMError {
                case .noCard?, .permissionDenied?, .noConnectedDisplay?: true
                default: false
                }
            },
            onFirstWait: { error in
                log.notice("waiting up to \(fixed(cfg.displayWaitSeconds, 0)) s for the display: \(error)")
                whileWaiting()
            },
            onSuccess: { waited in
                if waited > 0 { log.notice("the display is ready after \(fixed(waited, 1)) s") }
            }
        ) {
            try DRMDisplay(
                device: try DRMDevice.open(configured: cfg.card), connectorName: cfg.connector,
                mode: cfg.mode.map { ModeRequest(width: $0.width, height: $0.height, refreshHz: $0.refreshHz) },
                rotation: configuredTurn, modesetting: ModesettingAPI(rawValue: cfg.modesetting) ?? .auto, bufferCount: cfg.buffers)
        }
        log.info("display \(display.summary), canvas \(display.canvasWidth)x\(display.canvasHeight)")
        if configuredTurn == nil, let o = display.connector.panelOrientation, o != .none {
            log.notice("rotation \(o.rawValue)° from the connector's panel orientation property")
        }
        if let refusal = display.atomicRefusal { log.notice("atomic modesetting not used: \(refusal)") }
        return display
    }

    /// The rotation the options or the config name; nil leaves it to the panel's orientation.
    static func configuredRotation(_ options: BoardOptions, _ cfg: BoardConfig) -> Rotation? {
        options.rotation != nil || cfg.place(of: "rotation") != nil ? Rotation(rawValue: cfg.rotation) ?? Rotation.none : nil
    }

    /// The canvas the display will likely give, from sysfs, before the card can be opened.
    static func guessedCanvas(_ options: BoardOptions, _ cfg: BoardConfig) -> (width: Int, height: Int)? {
        guard
            let mode = DisplayGuess.modeSize(
                card: cfg.card, connector: cfg.connector,
                mode: cfg.mode.map { ($0.width, $0.height) })
        else { return nil }
        return (configuredRotation(options, cfg) ?? Rotation.none).canvasSize(panelWidth: mode.width, panelHeight: mode.height)
    }

    /// Touches through the touch rotation (`touch_rotation`, else the display's), uncalibrated.
    static func touchTransform(_ cfg: BoardConfig, display: DRMDisplay, log: Logger) -> TouchTransform {
        let turn = display.rotation
        let touchTurn = cfg.touchRotation.flatMap(Rotation.init(rawValue:)) ?? turn
        if touchTurn != turn { log.notice("touch rotation \(touchTurn.rawValue)°, display rotation \(turn.rawValue)°") }
        return TouchTransform(canvasWidth: display.canvasWidth, canvasHeight: display.canvasHeight, touchRotation: touchTurn)
    }
}

extension BoardRuntime {
    /// Brightness, and what switches the screen off after `idle_blank_seconds`: DPMS, the
    /// backlight, or a black frame when the chosen one is missing (said in the log). Returns the
    /// backlight when there is one in use.
    static func setUpBlanking(
        _ driver: FrameDriver, display: DRMDisplay, cfg: BoardConfig,
        log: Logger
    ) -> Backlight? {
        driver.blanking = IdleBlanking(idleSeconds: cfg.idleBlankSeconds, now: 0)
        // The wall clock is read again every minute: it may be set after boot (NTP).
        driver.follow(cfg.displaySchedule, wakeSeconds: cfg.displayWakeSeconds, localTime: { _ in localWallSeconds() }, recheckSeconds: 60)
        let blanks = cfg.idleBlankSeconds > 0 || cfg.displaySchedule != nil
        let wanted = BlankMethod(rawValue: cfg.blank) ?? .dpms
        var backlight: Backlight?
        if cfg.brightness != nil || (wanted == .backlight && blanks) {
            do { backlight = try Backlight(device: cfg.backlight) } catch { log.warning("\(error)") }
        }
        if let percent = cfg.brightness, let backlight {
            do {
                try backlight.setBrightness(percent: percent)
                log.info("\(backlight.name): brightness \(percent)% (\(backlight.level) of \(backlight.maxBrightness))")
            } catch { log.warning("\(error)") }
        }
        guard blanks else { return backlight }
        switch wanted {
        case .dpms:
            do { driver.screenPower = try DPMSPower(display: display) } catch { log.warning("\(error): blanking with a black frame") }
        case .backlight:
            if let backlight { driver.screenPower = backlight } else { log.warning("blanking with a black frame") }
        case .black:
            break
        }
        let how = driver.screenPower?.name ?? "black frame"
        if cfg.idleBlankSeconds > 0 { log.info("the screen goes dark after \(fixed(cfg.idleBlankSeconds, 0)) s without input (\(how))") }
        if cfg.displaySchedule != nil {
            log.info(
                "the screen is off outside the display schedule's hours (\(how)); a touch wakes it for \(fixed(cfg.displayWakeSeconds, 0)) s"
            )
        }
        return backlight
    }
}

/// Seconds since boot from /proc/uptime, for boot-to-first-frame figures.
func uptime() -> String {
    guard let text = try? readText("/proc/uptime") else { return "?" }
    return text.split(separator: " ").first.map(String.init) ?? "?"
}
