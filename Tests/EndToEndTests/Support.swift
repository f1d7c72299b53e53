#if canImport(Glibc)
import Glibc
#endif
import AppContract
import Catalog
import FoundationEssentials
import Geometry
import Headless
import ImageCodecs
import Raster
import Runtime
import TestSupport
import Testing
import Text
import UI

let repositoryRoot = String(testsDirectory[..<testsDirectory.lastIndex(of: "/")!])
let manifestPath = repositoryRoot + "/Board/content/manifest.json"
/// Smaller than the board's 1280×800 to keep the debug-build tests fast; the layout adapts.
let screenWidth = 1024, screenHeight = 700

func makeCatalog(width: Int = screenWidth, height: Int = screenHeight) throws -> CatalogApp {
    let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
    let built = AppFactory.catalog(
        manifestPath: manifestPath, width: width, height: height, scaleFactor: 1,
        typography: typography)
    #expect(built.problems.isEmpty, "\(built.problems)")
    let app = try #require(built.app)
    app.window.layoutIfNeeded()
    return app
}

/// Writes JSON Lines script text from timed events (screen pixels, milliseconds), so every
/// end-to-end script goes through the script parser.
struct Script {
    var lines: [String] = []
    var t = 0.0

    mutating func wait(_ ms: Double) { t += ms }
    mutating func touch(_ phase: String, _ p: Point, id: Int = 0) {
        lines.append("{\"t\":\(t),\"touch\":\"\(phase)\",\"id\":\(id),\"x\":\(p.x),\"y\":\(p.y)}")
    }
    mutating func up(_ p: Point, id: Int = 0) { touch("up", p, id: id) }
    mutating func key(_ name: String) { lines.append("{\"t\":\(t),\"key\":\"\(name)\"}") }
    mutating func shot(_ name: String) { lines.append("{\"t\":\(t),\"screenshot\":\"\(name)\"}") }
    mutating func state(_ name: String) { lines.append("{\"t\":\(t),\"state\":\"\(name)\"}") }
    mutating func tap(_ p: Point) { touch("down", p); wait(50); up(p); wait(20) }
    /// A finger from a to b in 8 ms steps over `ms`, lifted unless `hold`.
    mutating func drag(_ a: Point, _ b: Point, ms: Double, hold: Bool = false, id: Int = 0) {
        touch("down", a, id: id)
        let steps = max(1, Int(ms / 8))
        for i in 1...steps {
            wait(8)
            let f = Double(i) / Double(steps)
            touch("move", Point(x: (a.x + (b.x - a.x) * f).rounded(), y: (a.y + (b.y - a.y) * f).rounded()), id: id)
        }
        if !hold { wait(4); up(b, id: id) }
    }
    /// States every `every` ms for `ms` (names prefix-000 …).
    mutating func states(_ prefix: String, every: Double, for ms: Double) {
        var i = 0
        let end = t + ms
        while t < end { state("\(prefix)-\(String(1000 + i).dropFirst())"); wait(every); i += 1 }
    }
    var text: String { lines.joined(separator: "\n") + "\n" }
}

struct RunResult {
    var output: HeadlessRunner.Output
    var states: [String: WindowState]
    var final: WindowState
}

/// Parses `script` and runs it on the catalog through the headless runner, its display copying
/// frames in the window's bands as the runtime sets it up.
func run(_ script: Script, app: CatalogApp? = nil) throws -> RunResult {
    let parsed = try InputScript.parse(script.text)
    let catalog = try app ?? makeCatalog()
    let runner = HeadlessRunner(app: catalog.window, width: catalog.window.pixelWidth, height: catalog.window.pixelHeight)
    runner.display.copyBands = catalog.window.bandRenderer
    let out = try runner.run(parsed)
    var states: [String: WindowState] = [:]
    for s in out.states { states[s.name] = try decodeState(s.json) }
    return RunResult(output: out, states: states, final: try decodeState(out.finalState))
}

func decodeState(_ json: String) throws -> WindowState {
    try JSONDecoder().decode(WindowState.self, from: Data(json.utf8))
}

extension WindowState {
    func scroll(_ id: String) -> ScrollViewState? { scrollViews.first { $0.id == id } }
    func control(_ id: String) -> PageControlState? { pageControls.first { $0.id == id } }
}

/// Centre of an element's frame (pixels) from the state JSON.
func center(_ frame: [Double]) -> Point { Point(x: (frame[0] + frame[2] / 2).rounded(), y: (frame[1] + frame[3] / 2).rounded()) }

func frameOf(_ id: String, in app: CatalogApp) throws -> Rect {
    try #require(app.window.root.view(withID: id)).frameInWindow
}

/// Where the tests put the PNGs they want a person to look at.
let screenshotsDirectory: String = {
    let dir = "/tmp/glide-e2e-screenshots"
    _ = mkdir(dir, 0o755)
    return dir
}()

func save(_ output: HeadlessRunner.Output, prefix: String) {
    for s in output.screenshots { try? PNG.write(s.image, to: "\(screenshotsDirectory)/\(prefix)-\(s.name).png") }
    if let f = output.finalScreenshot { try? PNG.write(f, to: "\(screenshotsDirectory)/\(prefix)-final.png") }
}

/// The build's products folder: the test runner's own (a debug build's, or CI's optimised board
/// build's), which holds the executables it was built with.
let productsDirectory: String = {
    guard let runner = executablePath(), let slash = runner.lastIndex(of: "/") else { return repositoryRoot + "/.build/debug" }
    return String(runner[..<slash])
}()

/// The `glide` binary the end-to-end tests run as a subprocess, built beside the runner.
let glideBinary = productsDirectory + "/glide"

/// Runs a shell command, its standard output dropped; returns its exit status and standard error.
/// Each call gets a file of its own (mkstemp): tests run in parallel, and two that shared a name
/// read each other's standard error.
func shell(_ command: String, name: String) -> (status: Int32, stderr: String) {
    var template = Array("/tmp/glide-e2e-\(getpid())-\(name)-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return (-1, "mkstemp failed for \(name)") }
    close(fd)
    let errPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let status = system("\(command) > /dev/null 2> \(errPath)")
    let err = (try? FileIO.readAll(path: errPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    _ = unlink(errPath)
    return (status == -1 ? -1 : (status >> 8) & 0xFF, err)
}
