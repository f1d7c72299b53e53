import AppContract
import ArgumentParser
import Audit
import FoundationEssentials
import Geometry
import Headless
import ImageCodecs
import Raster
import UI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `audit`'s options, the same on `glide audit` and on every app's command line.
package struct AuditOptions: ParsableArguments {
    @Option(
        help:
            "Script of timed input (JSON Lines): every screenshot it asks for is audited, and the end. Without one: the first screen at rest, at 100 %, 200 % and 300 % text."
    )
    package var script: String?
    @Option(help: "Canvas size in pixels, WxH.")
    package var size = "1280x800"
    @Option(help: "Scale factor: pixels per point.")
    package var scale = 1.0
    @Option(help: "Folder for audit.json, audit.html and the screens with what was found outlined.")
    package var out: String
    @Option(
        help: "Rules to check, comma-separated (contrast, target-size, label, overflow, keypad, timeout, motion, rest); all by default.")
    package var rules: String?
    @Option(help: "Text size in percent for the screens a script shows, 100 to 300 (without a script: 100, 200 and 300).")
    package var textSize = 100
    @OptionGroup package var language: LanguageOptions

    package init() {}
}

/// Runs an app headless and checks each screen against the accessibility rules: the text
/// summary on standard output, `audit.json`, `audit.html` and one PNG per screen in `--out`.
/// Exit status 0 with no findings, 1 with findings, 2 when the audit could not run.
package enum AuditRuntime {
    /// `script`, when given, makes the script from the app once built (the catalog's tour).
    package static func run(_ options: AuditOptions, app source: AppSource, script: ((Window) -> InputScript?)? = nil) throws {
        let report: Report
        do {
            report = try audit(options, app: source, script: script)
        } catch {
            standardError("\(processName) audit: \(error)")
            throw ExitCode(2)
        }
        print(report.summary)
        if !report.findings.isEmpty { throw ExitCode(1) }
    }

    /// Audits the app and writes the report into `options.out` screen by screen, as each is
    /// checked (`screens`, when given, takes the screens instead, for a test).
    static func audit(
        _ options: AuditOptions, app source: AppSource, script make: ((Window) -> InputScript?)? = nil,
        screens: ScreenSink? = nil
    ) throws -> Report {
        let headless = try HeadlessOptions.parse(
            ["--size", options.size, "--scale", String(options.scale)] + (options.script.map { ["--script", $0] } ?? []))
        let (w, h, scale) = try headless.geometry()
        let script = try headless.parsedScript()
        var rules = AccessibilityAudit.allRules
        if let list = options.rules {
            rules = Set(list.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) })
            let unknown = rules.subtracting(AccessibilityAudit.allRules)
            guard unknown.isEmpty else {
                throw ValidationError(
                    "unknown rule(s) \(unknown.sorted().joined(separator: ", ")) (\(AccessibilityAudit.allRules.sorted().joined(separator: ", ")))"
                )
            }
        }
        let textScale = try Launch.checkedTextScale(percent: options.textSize)
        let app: App
        do { app = try source.build(w, h, scale, true, .init()) } catch { throw AppStartError(underlying: error) }
        guard let window = (app as? AuditableApp)?.auditedWindow else {
            throw ValidationError("the audit needs a Glide window; this app draws its own")
        }
        var settings = AppSettings()
        settings.textScale = textScale
        options.language.apply(to: &settings)
        window.apply(settings)
        let played = make?(window) ?? script
        let writer = ReportWriter(folder: options.out)
        if screens == nil { try FileIO.makeDirectory(options.out) }
        let report = try Auditor(window: window, width: w, height: h, audit: AccessibilityAudit(rules: rules)).run(
            script: played.entries.isEmpty ? nil : played, screens: screens ?? writer.write)
        if screens == nil { try writer.finish(report) }
        return report
    }
}

extension Kiosk {
    /// Checks `window`'s screens against the accessibility rules, as `APP audit` does, for a
    /// test: each screenshot `script` takes and the end, or without a script the first screen at
    /// rest at 100 %, 200 % and 300 % text (the window is left at 300 %).
    ///
    /// - Parameters:
    ///   - window: The app's window, at the size and scale to check.
    ///   - script: Timed input; its screenshot lines are the screens checked.
    ///   - rules: The rules to check (`contrast`, `target-size`, `label`, `overflow`, `keypad`,
    ///     `timeout`, `motion`, `rest`); nil: all.
    /// - Returns: What was found, screen by screen; empty when the screens pass.
    public static func audit(_ window: Window, script: InputScript? = nil, rules: Set<String>? = nil) -> [AccessibilityFinding] {
        // Without a sink nothing is written, so nothing can throw.
        let auditor = Auditor(window: window, width: window.pixelWidth, height: window.pixelHeight, audit: AccessibilityAudit(rules: rules))
        return (try? auditor.run(script: script))?.findings ?? []
    }
}

/// Takes each screen as soon as it is audited: its name, its pixels and the report so far (its
/// findings included). The pixels are the sink's for the call only: the audit keeps none, so a
/// script's thousand screenshots need one screen's memory.
typealias ScreenSink = (_ screen: String, _ pixels: PixelBuffer, _ report: Report) throws -> Void

/// Plays the app and audits it where the script takes screenshots.
struct Auditor {
    let window: Window
    let width: Int, height: Int
    let audit: AccessibilityAudit

    func run(script: InputScript?, screens sink: ScreenSink? = nil) throws -> Report {
        var report = Report()
        var seenProblems = 0
        let runner = HeadlessRunner(app: window, width: width, height: height)
        // Six seconds to come to rest: an animation that runs longer than five is the motion rule's.
        runner.settleLimit = 6
        func check(_ name: String) -> PixelBuffer {
            let problems = Array(window.layoutProblems[seenProblems...])
            seenProblems = window.layoutProblems.count
            let pixels = PixelBuffer(copying: runner.display.screen.span)
            report.add(screen: name, findings: audit.findings(in: window, pixels: pixels, screen: name, layoutProblems: problems))
            return pixels
        }
        runner.onScreenshot = { name in
            let pixels = check(name)
            try sink?(name, pixels, report)
        }
        _ = try runner.run(script ?? InputScript(entries: []))
        let end = script == nil ? "first" : "final"
        let last = check(end)
        // What still draws at the end is the end screen's finding: it is handed on with it.
        // Frames that change pixels are motion; frames that change none are the rest rule's.
        switch watch(runner) {
        case .atRest: break
        case .moving: report.findings += audit.motion(in: window, at: runner.time, seconds: runner.settleLimit, screen: end)
        case let .drawingNothing(askers, seconds):
            report.findings += audit.rest(askers: askers, in: window, seconds: runner.settleLimit + seconds, screen: end)
        }
        try sink?(end, last, report)
        if script == nil {
            for scale in [2.0, 3.0] {
                window.textScale = scale
                _ = try runner.run(InputScript(entries: []))
                let name = "first-\(Int(scale * 100))"
                let pixels = check(name)
                try sink?(name, pixels, report)
            }
        }
        return report
    }
}

extension Auditor {
    /// What a screen that had the settle's time to come to rest does next.
    enum Restlessness {
        case atRest
        /// Its frames change pixels: something moves (a spinner, a carousel).
        case moving
        /// It drew `seconds` of frames and none changed a pixel; `askers` asked for them.
        case drawingNothing(askers: [View], seconds: Double)
    }

    /// Long enough to see the slowest thing that moves by frames change a pixel (a clock's
    /// seconds, a caret's blink), short enough to cost little on the one screen that needs it.
    static let watchSeconds = 2.0

    /// Plays `watchSeconds` more of frames on a screen still not at rest, comparing each with
    /// the screen before them.
    func watch(_ runner: HeadlessRunner) -> Restlessness {
        guard audit.rules.contains("motion") || audit.rules.contains("rest"), !window.isAtRest(at: runner.time) else {
            return .atRest
        }
        let before = PixelBuffer(copying: runner.display.screen.span)
        window.watchFrameRequests()
        var moved = false
        let frames = Int(Self.watchSeconds * runner.hz)
        for _ in 0..<frames where !moved {
            runner.step()
            moved = !Self.samePixels(before, runner.display.screen)
            if !moved, window.isAtRest(at: runner.time) { break }
        }
        let askers = window.endWatchingFrameRequests(at: runner.time)
        if moved { return .moving }
        if window.isAtRest(at: runner.time) { return .atRest }
        return .drawingNothing(askers: askers, seconds: Self.watchSeconds)
    }

    static func samePixels(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        let (x, y) = (a.span, b.span)
        guard x.width == y.width, x.height == y.height else { return false }
        return (0..<x.height).allSatisfy { row in memcmp(x.row(row), y.row(row), x.width * MemoryLayout<UInt32>.size) == 0 }
    }
}

/// Writes an audit's report into a folder: each screen's PNG as it comes, `audit.json` and
/// `audit.html` once all are checked.
struct ReportWriter {
    let folder: String

    /// The screen with what was found on it outlined, as `<screen>.png`. A name taken twice
    /// keeps the last screen, outlined with what all the screens of that name showed.
    func write(screen: String, pixels: PixelBuffer, report: Report) throws {
        try PNG.write(
            report.outlined(pixels, report.findings.filter { $0.screen == screen }), to: "\(folder)/\(report.fileName(screen)).png")
    }

    func finish(_ report: Report) throws {
        try writeText(try report.json(pretty: true) + "\n", to: folder + "/audit.json")
        try writeText(report.html, to: folder + "/audit.html")
    }
}

/// What an audit found, by screen.
struct Report {
    /// The remote API's `/audit`: the screen as presented, called `live`; the layouts the window
    /// said were wrong count while their views are still shown.
    @Sendable static func liveAudit(_ app: App, pixels: PixelBuffer, rules: [String]?) -> String {
        guard let window = (app as? AuditableApp)?.auditedWindow else { return #"{"findings":[],"error":"the app is not a Glide window"}"# }
        let problems = window.layoutProblems.filter { p in
            p.view.map { $0.window === window && !$0.selfAndAncestors.contains { $0.isHidden } } ?? false
        }
        let audit = AccessibilityAudit(rules: rules.map(Set.init))
        var report = Report()
        report.add(screen: "live", findings: audit.findings(in: window, pixels: pixels, screen: "live", layoutProblems: problems))
        return (try? report.json(pretty: false)) ?? #"{"findings":[],"error":"the findings could not be encoded"}"#
    }

    var findings: [AccessibilityFinding] = []
    /// The screens' names in the order checked; their pixels went to the writer as each was.
    var screens: [String] = []

    mutating func add(screen: String, findings new: [AccessibilityFinding]) {
        screens.append(screen)
        findings += new
    }

    var summary: String {
        var lines = findings.map { f in
            "\(f.screen): \(f.rule)\(f.id.map { " '\($0)'" } ?? ""): \(f.message)"
        }
        lines.append(
            "\(findings.count) finding\(findings.count == 1 ? "" : "s") on \(screens.count) screen\(screens.count == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    private struct JSONReport: Encodable {
        var findings: [AccessibilityFinding]
        var screens: [String]
    }

    /// `{"findings": [...], "screens": [...]}`, as `audit.json` and `/audit` give it.
    func json(pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        return String(decoding: try encoder.encode(JSONReport(findings: findings, screens: screens)), as: UTF8.self)
    }

    func fileName(_ screen: String) -> String {
        String(screen.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    /// The screen with a red frame round each finding.
    func outlined(_ pixels: PixelBuffer, _ found: [AccessibilityFinding]) -> PixelBuffer {
        let copy = PixelBuffer(copying: pixels.span)
        let canvas = Canvas(copy, cache: RasterCache())
        let red = Color(rgb: 0xFF1744).premultiplied
        for f in found where f.frame.count == 4 {
            let r = Rect(x: f.frame[0], y: f.frame[1], width: f.frame[2], height: f.frame[3]).insetBy(dx: -2, dy: -2)
            canvas.stroke(roundedRect: r, radius: 0, lineWidth: 3, color: red, alignment: .inside)
        }
        return copy
    }

    var html: String {
        func escape(_ s: String) -> String {
            s.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
        }
        var page = """
            <!doctype html><html><head><meta charset="utf-8"><title>Accessibility audit</title>
            <style>body{font-family:sans-serif;margin:2em}img{max-width:100%;border:1px solid #ccc}td,th{padding:4px 8px;text-align:left;vertical-align:top}</style>
            </head><body><h1>Accessibility audit: \(findings.count) finding\(findings.count == 1 ? "" : "s")</h1>

            """
        for name in screens {
            let found = findings.filter { $0.screen == name }
            page += "<h2>\(escape(name)): \(found.count)</h2>\n<img src=\"\(fileName(name)).png\" alt=\"\(escape(name))\">\n"
            guard !found.isEmpty else { continue }
            page += "<table><tr><th>rule</th><th>id</th><th>figure</th><th>what</th></tr>\n"
            for f in found {
                let figure = f.figure.map { String($0) } ?? ""
                page += "<tr><td>\(f.rule)</td><td>\(escape(f.id ?? ""))</td><td>\(figure)</td><td>\(escape(f.message))</td></tr>\n"
            }
            page += "</table>\n"
        }
        return page + "</body></html>\n"
    }
}
