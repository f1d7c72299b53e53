import ArgumentParser
import Catalog
import Headless
import ImageCodecs
import Runtime
import UI
import FeelLab
#if canImport(Glibc)
import Glibc
#endif

/// Options that pick and size an app, shared by `run` and `demo`.
struct AppOptions: ParsableArguments {
    @Option(help: "The app: \(AppFactory.names.joined(separator: ", ")).")
    var app = "catalog"
    @Option(help: "Content manifest for the catalog (default: the shipped Board/content/manifest.json).")
    var manifest: String?
    @Option(help: "Canvas size in pixels, WxH.")
    var size = "1280x800"
    @Option(help: "Scale factor: pixels per point.")
    var scale = 1.0

    func pixelSize() throws -> (Int, Int) {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (64...8192).contains(w), (64...8192).contains(h) else {
            throw ValidationError("--size must be WxH with sides in 64...8192, e.g. 1280x800")
        }
        guard scale.isFinite, scale >= 0.5, scale <= 4 else { throw ValidationError("--scale must lie in 0.5...4") }
        return (w, h)
    }

    /// Builds the app; catalog content problems are printed, and the app shows what it can.
    func makeWindow() throws -> (Window, CatalogApp?) {
        let (w, h) = try pixelSize()
        guard AppFactory.names.contains(app) else {
            throw ValidationError("unknown app '\(app)' (\(AppFactory.names.joined(separator: ", ")))")
        }
        return try AppFactory.window(named: app, width: w, height: h, scaleFactor: scale, manifestPath: manifest,
                                     report: { printError("glide: content: \($0)") })
    }
}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an app: headless on a virtual clock from a script (PNG and JSON out), or on a board.")

    @Option(help: "headless (no display, virtual clock) or drm (use `glide board` for all board options).")
    var backend = "headless"
    @OptionGroup var options: AppOptions
    @Option(help: "Frames per second of the virtual clock.")
    var hz = 60.0
    @Option(help: "Script of timed input events (JSON Lines), or - for standard input.")
    var script: String?
    @Option(help: "Folder for screenshots (NAME.png) and states (NAME.json), final.png and final.json.")
    var out = "out"
    @Flag(help: "Print the median and 90th percentile wall-clock time per frame.")
    var timing = false
    // Remote control (issue 7): with --remote the run is real-time and lasts until SIGINT/SIGTERM.
    @OptionGroup var remoteOptions: RemoteOptions

    func run() throws {
        guard backend == "headless" else {
            throw ValidationError("--backend \(backend): on a board use `glide board` (it takes the display and the touchscreen)")
        }
        guard hz.isFinite, hz >= 1, hz <= 1000 else { throw ValidationError("--hz must lie in 1...1000") }
        var parsed = InputScript(entries: [])
        if let script {
            let text: String
            do { text = try readText(script) } catch { printError("glide: \(error)"); throw ExitCode(2) }
            do { parsed = try InputScript.parse(text) } catch {
                printError("glide: \(script): \(error)")
                throw ExitCode(2)
            }
        }
        let remote = try remoteOptions.configuration()
        let (window, _) = try options.makeWindow()
        if let remote { return try runRemoteHeadless(window: window, script: parsed, hz: hz, out: out, remote: remote) }
        let summary = try runHeadless(window: window, script: parsed, hz: hz, out: out, timing: timing)
        print(summary)
    }
}

/// Runs `script` headless and writes its screenshots and states into `out`.
func runHeadless(window: Window, script: InputScript, hz: Double, out: String, timing: Bool) throws -> String {
    let (w, h) = (window.pixelWidth, window.pixelHeight)
    let runner = HeadlessRunner(app: window, width: w, height: h, hz: hz)
    let clock: (() -> Double)? = timing ? { monotonicSeconds() } : nil
    let result = try runner.run(script, clock: clock)
    try makeDirectory(out)
    for s in result.screenshots { try PNG.write(s.image, to: "\(out)/\(s.name).png") }
    for s in result.states { try writeText(s.json + "\n", to: "\(out)/\(s.name).json") }
    if let final = result.finalScreenshot { try PNG.write(final, to: "\(out)/final.png") }
    try writeText(result.finalState + "\n", to: "\(out)/final.json")
    var summary = "\(result.frames) frames, \(fixed(result.endTime, 3)) s of virtual time; wrote \(result.screenshots.count) screenshots, \(result.states.count) states, final.png and final.json to \(out)"
    if timing, !runner.frameTimes.isEmpty {
        let sorted = runner.frameTimes.sorted()
        summary += "\nframe time: median \(fixed(sorted[sorted.count / 2], 3)) ms, p90 \(fixed(sorted[sorted.count * 9 / 10], 3)) ms, max \(fixed(sorted.last!, 3)) ms over \(sorted.count) frames"
    }
    return summary
}
