import Catalog
import Geometry
import Headless
import Raster
import Runtime
import TestSupport
import Testing
import Text
import UI

/// Virtual time skips what does not change: while the app is at rest and nothing is scheduled,
/// the headless clock jumps to the next event or timer, so a day at rest costs nothing, and
/// screenshots and states at any time stay what every frame would have shown.
@Suite struct VirtualTimeTests {
    @Test func aDayAtRestCostsNothingAndEndsExactly() throws {
        let tab = try frameOf("tab-photo", in: try makeCatalog())
        func script(idle: Double) -> Script {
            var s = Script()
            s.wait(2000)
            s.shot("before")
            s.wait(idle)
            s.tap(Point(x: tab.midX, y: tab.midY))
            s.wait(1500)
            s.shot("after"); s.state("after")
            return s
        }
        let day = try run(script(idle: 86_390_000))  // scripts end within a day
        let short = try run(script(idle: 100))
        // The same pictures a day apart, and the tap did its work.
        #expect(compare(day.output.screenshots[0].image, short.output.screenshots[0].image).mismatches == 0)
        #expect(compare(day.output.screenshots[1].image, short.output.screenshots[1].image).mismatches == 0)
        #expect(day.states["after"]?.scroll("photo") != nil)
        // The same moment after the tap, to the frame: the idle times differ by 86,389.9 s.
        #expect(abs(day.states["after"]!.t - short.states["after"]!.t - 86_389.9) < 1e-6)
        // Drawn: the frames around the events, not 5.2 million.
        #expect(day.output.frames < short.output.frames + 10, "\(day.output.frames) frames for a day at rest")
    }

    @Test func aTimerAnHourAwayFiresAtItsTimeWithoutTheFramesBetween() throws {
        let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
        let label = Label("waiting", id: "label", size: 20)
        let window = Window(width: 200, height: 60, typography: typography, root: label)
        var fired: [Double] = []
        window.after(3600) {
            fired.append(window.time); label.text = "fired"
        }
        let runner = HeadlessRunner(app: window, width: 200, height: 60)
        let out = try runner.run(
            try InputScript.parse("{\"t\":3599000,\"screenshot\":\"before\"}\n{\"t\":3600500,\"screenshot\":\"after\"}\n"))
        #expect(fired == [3600])
        #expect(compare(out.screenshots[0].image, out.screenshots[1].image).mismatches > 0)
        #expect(out.frames < 100)
    }

    /// A finger resting on a list for an hour, and one holding a drag still: the screen does not
    /// change, so the frames between are skipped as at rest, and the lift at the end does what
    /// it would after a second.
    @Test func aFingerHeldForAnHourCostsWhatAnHourAtRestCosts() throws {
        let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
        func run(hold: Double, drag: Bool) throws -> (frames: Int, state: String) {
            let rows = Stack(.vertical, id: "rows", children: (0..<60).map { Box(id: "row-\($0)", fill: .white, height: 40) })
            let window = Window(width: 300, height: 400, typography: typography, root: ScrollView(id: "list", content: rows))
            let runner = HeadlessRunner(app: window, width: 300, height: 400)
            var lines = ["{\"t\":100,\"touch\":\"down\",\"id\":0,\"x\":150,\"y\":300}"]
            if drag {
                for k in 1...6 { lines.append("{\"t\":\(100 + 16 * k),\"touch\":\"move\",\"id\":0,\"x\":150,\"y\":\(300 - 30 * k)}") }
            }
            let end = Int(200 + hold * 1000)
            lines.append("{\"t\":\(end),\"touch\":\"up\",\"id\":0}")
            lines.append("{\"t\":\(end + 2000),\"state\":\"after\"}")
            let out = try runner.run(try InputScript.parse(lines.joined(separator: "\n")))
            return (out.frames, out.states[0].json)
        }
        for drag in [false, true] {
            let day = try run(hold: 3_600, drag: drag), second = try run(hold: 1, drag: drag)
            #expect(day.frames < second.frames + 10, "\(day.frames) frames for a finger held an hour (drag: \(drag))")
            // The same place after the lift (a held drag lifts without a fling).
            func offset(_ json: String) -> Substring? {
                json.split(separator: "\"offset\":").dropFirst().first?.prefix(while: { $0 != "]" })
            }
            #expect(offset(day.state) == offset(second.state))
        }
    }
}
