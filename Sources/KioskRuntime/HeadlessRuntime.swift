import ArgumentParser
import Audit
import Dispatch
import FleetMetrics
import Geometry
import Headless
import ImageCodecs
import Speech
import Logging
import RemoteControl
import Runtime
import UI
#if canImport(Glibc)
import Glibc
#endif

/// `run --backend headless` for `glide` and for an app's own executable: on a virtual clock
/// from a script (screenshots, states, `final.png`, `final.json`), or, with `--remote`, in real
/// time serving the remote-control API until SIGINT or SIGTERM.
package enum HeadlessRuntime {
    package static func run(_ options: HeadlessOptions, app source: AppSource) throws {
        let startUp = StartupClock.secondsSinceExec()
        let (w, h, scale) = try options.geometry()
        let script = try options.parsedScript()
        let remote = try options.remote.configuration()
        // The server listens before the app is built: a fleet's probe gets its answer once the
        // first frame is up, however long the app's pictures take to decode, instead of no
        // listener at all until then.
        let server = try remote.map { try RemoteRuntime.start($0, metrics: GlideMetrics(app: Kiosk.commandName)) }
        let app: App
        let building = monotonicSeconds()
        do { app = try source.build(w, h, scale, true, .init()) } catch {
            if let server { server.loopStopped(); RemoteRuntime.stop(server) }
            throw AppStartError(underlying: error)
        }
        let start = Startup(sinceExec: startUp, building: monotonicSeconds() - building)
        let textScale = try Launch.checkedTextScale(percent: options.textSize)
        var settings = AppSettings()
        settings.renderThreads = options.renderThreads
        settings.textScale = textScale
        if options.idleResetSeconds > 0 { settings.idleResetSeconds = options.idleResetSeconds }
        settings.isHighContrast = options.highContrast
        options.language.apply(to: &settings)
        var recorder: SpeechRecorder?
        if options.screenReader {
            try FileIO.makeDirectory(options.out)
            FileIO.removeLeftovers(inFolder: options.out)
            recorder = try SpeechRecorder(directory: options.out)
            settings.speech = recorder
            settings.isScreenReaderEnabled = true
        }
        app.apply(settings)
        try finishingSpeech(of: recorder) {
            if let server {
                try runRealTime(app, width: w, height: h, script: script, options: options, server: server)
            } else {
                let (schedule, wake) = try options.schedule.parsed()
                print(
                    try runVirtual(
                        app, width: w, height: h, script: script, hz: options.hz, out: options.out, timing: options.timing,
                        settleSeconds: options.settleSeconds,
                        idleBlankSeconds: options.idleBlankSeconds, startup: start,
                        schedule: schedule.map { ($0, wake ?? 60, try options.startLocalSeconds() ?? localWallSeconds()) }))
            }
        }
    }

    /// Runs `body`, then finishes the recording of speech: speech that could not be written
    /// (a full disk) fails the run with its error, as a screenshot that cannot be written does.
    /// When `body` fails, its error is the one the run ends with, and the speech's is logged.
    static func finishingSpeech(of recorder: SpeechRecorder?, _ body: () throws -> Void) throws {
        do { try body() } catch {
            do { try recorder?.finish() } catch let speechError { processLog.error("\(speechError)") }
            throw error
        }
        try recorder?.finish()
    }

    /// Runs `script` on the virtual clock and writes its screenshots and states, `final.png` and
    /// `final.json` into `out`. Returns a one-line summary (and the frame times with `timing`).
    package static func runVirtual(
        _ app: App, width: Int, height: Int, script: InputScript, hz: Double,
        out: String, timing: Bool, settleSeconds: Double = 10, idleBlankSeconds: Double = 0, startup: Startup? = nil,
        schedule: (DisplaySchedule, wakeSeconds: Double, startLocalSeconds: Double)? = nil
    ) throws -> String {
        let runner = HeadlessRunner(app: app, width: width, height: height, hz: hz)
        runner.settleLimit = settleSeconds.isFinite ? max(0, settleSeconds) : 10
        runner.display.copyBands = app.bandRenderer
        runner.driver.blanking = IdleBlanking(idleSeconds: idleBlankSeconds, now: 0)
        if let (hours, wake, origin) = schedule {
            // Read on the virtual clock: the script's time 0 is `origin`, local wall time.
            runner.driver.follow(hours, wakeSeconds: wake, localTime: { origin + $0 }, recheckSeconds: nil)
        }
        // Laid out before the run, the first frame's time is its drawing alone.
        let laying = monotonicSeconds()
        if timing { app.layoutIfNeeded() }
        let layout = monotonicSeconds() - laying
        let clock: (() -> Double)? = timing ? { monotonicSeconds() } : nil
        let result = try runner.run(script, clock: clock)
        try FileIO.makeDirectory(out)
        // The run owns `out`: what an earlier run killed mid-write left there goes.
        FileIO.removeLeftovers(inFolder: out)
        for s in result.screenshots { try PNG.write(s.image, to: "\(out)/\(s.name).png") }
        for s in result.states { try writeText(s.json + "\n", to: "\(out)/\(s.name).json") }
        if let final = result.finalScreenshot { try PNG.write(final, to: "\(out)/final.png") }
        try writeText(result.finalState + "\n", to: "\(out)/final.json")
        var summary =
            "\(result.frames) frames, \(fixed(result.endTime, 3)) s of virtual time; wrote \(result.screenshots.count) screenshots, \(result.states.count) states, final.png and final.json to \(out)"
        let times = runner.frameTimes
        if timing, let median = percentile(times, 50), let p90 = percentile(times, 90), let most = times.max() {
            summary +=
                "\nframe time: median \(fixed(median, 3)) ms, p90 \(fixed(p90, 3)) ms, max \(fixed(most, 3)) ms over \(times.count) frames"
            if let startup, let first = times.first { summary += "\n" + startup.report(layout: layout, firstRaster: first / 1000) }
        }
        return summary
    }

    /// The app in wall-clock time with the remote API (and `script` played from the start).
    static func runRealTime(
        _ app: App, width: Int, height: Int, script: InputScript, options: HeadlessOptions, server: RemoteServer
    ) throws {
        defer { RemoteRuntime.stop(server) }
        let display = HeadlessDisplay(width: width, height: height, refreshHz: options.hz)
        display.copyBands = app.bandRenderer
        let loop = try FrameLoop(app: app, output: display)
        let driver = loop.driver
        driver.blanking = IdleBlanking(idleSeconds: options.idleBlankSeconds, now: 0)
        loop.isClockVirtual = server.configuration.clock == .virtual
        try followSchedule(options, driver: driver, virtualClock: loop.isClockVirtual)
        driver.metrics = server.metrics
        // Injected input is timed on the loop's clock: its latency is measured at the present
        // (a headless display shows a frame at once). Not on a virtual clock, where time jumps.
        driver.inputTimesOnClock = !loop.isClockVirtual
        loop.catchSignals([SIGINT, SIGTERM, SIGHUP])
        loop.script = script.entries[...]
        if script.entries.contains(where: {
            if case .input = $0.action { return false }; if case .key = $0.action { return false }; return true
        }) {
            try FileIO.makeDirectory(options.out)
            FileIO.removeLeftovers(inFolder: options.out)
        }
        let out = options.out
        loop.onCapture = { name, isScreenshot, t in
            do {
                if isScreenshot {
                    try PNG.write(display.screen, to: "\(out)/\(name).png", alpha: .opaque)
                } else {
                    try writeText(driver.stateJSON(at: t) + "\n", to: "\(out)/\(name).json")
                }
            } catch { driver.log.error("\(error)") }
        }
        let port = server.port ?? server.configuration.port
        standardOutput("\(Kiosk.commandName): remote control on \(server.url(port: port))")
        loop.remote = server
        loop.onSignal = { if $0 == SIGHUP { server.reloadTokens(because: "SIGHUP") } }
        try loop.run()
        standardOutput("\(Kiosk.commandName): stopped after \(driver.frameNumber) frames")
    }
}

extension HeadlessRuntime {
    /// A real-time run follows `--display-schedule` on the wall clock's local time, or from
    /// `--start-time` on the loop's clock (virtual from 0, or monotonic from now).
    static func followSchedule(_ options: HeadlessOptions, driver: FrameDriver, virtualClock: Bool) throws {
        let (schedule, wake) = try options.schedule.parsed()
        guard let origin = try options.startLocalSeconds() else {
            driver.follow(schedule, wakeSeconds: wake ?? 60, localTime: { _ in localWallSeconds() }, recheckSeconds: 60)
            return
        }
        let zero = virtualClock ? 0 : monotonicSeconds()
        driver.follow(schedule, wakeSeconds: wake ?? 60, localTime: { origin + $0 - zero }, recheckSeconds: nil)
    }
}

/// Starting and stopping the remote-control server around a loop.
enum RemoteRuntime {
    /// Starts the server and waits until it listens (port 0: see `server.port`).
    static func start(_ configuration: RemoteConfiguration, metrics: GlideMetrics) throws -> RemoteServer {
        let server = try RemoteServer(
            configuration: configuration, logger: processLog,
            auditor: ScreenAuditor(rules: AccessibilityAudit.ruleNames, check: Report.liveAudit), metrics: metrics)
        do { _ = try server.startBlocking() } catch {
            processLog.error("\(error)")
            throw ExitCode(1)
        }
        return server
    }

    static func stop(_ server: RemoteServer) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await server.stop(); done.signal()
        }
        _ = done.wait(timeout: .now() + 5)
    }
}

/// A script, trace or token file as text: a regular file, or standard input for `-` (a pipe or
/// terminal), at most `limit` bytes.
package func readText(_ path: String, limit: Int = FileIO.maxScriptBytes) throws -> String {
    let stdin = path == "-"
    return String(
        decoding: try FileIO.readAll(path: stdin ? "/dev/stdin" : path, limit: limit, allowingStreams: stdin),
        as: UTF8.self)
}

/// Writes a text file (replacing it whole, never half-written).
package func writeText(_ text: String, to path: String) throws {
    try FileIO.writeAll(Array(text.utf8), path: path)
}
