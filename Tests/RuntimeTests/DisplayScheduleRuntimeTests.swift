import AppContract
import Geometry
import Headless
import Raster
import Testing
import UI
@testable import Runtime

/// The display schedule in a loop: the screen goes off at the schedule's edge, a touch wakes it
/// for the wake time (and is not the app's), it goes off again, it comes on when the hours
/// open; the state JSON's `display` says which and why, and the app's `onDisplayPower` is told.
@Suite struct DisplayScheduleRuntimeTests {
    /// Local wall-clock seconds of a local date and time.
    static func at(_ text: String) -> Double { Double(DisplaySchedule.localSeconds(parsing: text)!) }

    /// The state's `display` as `display` finds it: on or off, and why.
    static func shown(_ on: Bool, _ reason: String) -> String { "\"display\":{\"on\":\(on),\"reason\":\"\(reason)\"}" }

    static func display(_ json: String?) -> String {
        guard let json, let r = json.firstRange(of: "\"display\":{") else { return "none" }
        return String(json[r.lowerBound...].prefix { $0 != "}" }) + "}"
    }

    static func tap(_ ms: Int, x: Int = 300, y: Int = 180) -> String {
        """
        {"t":\(ms),"touch":"down","id":0,"x":\(x),"y":\(y)}
        {"t":\(ms + 80),"touch":"up","id":0,"x":\(x),"y":\(y)}
        """
    }

    @Test func offAtTheEdgeWokenByATouchForTheWakeTimeThenOffAgain() throws {
        let window = try BlankingTests.pager()
        var told: [Bool] = []
        window.onDisplayPower = { told.append($0) }
        let runner = HeadlessRunner(app: window, width: 320, height: 200)
        let origin = Self.at("2026-12-07T21:59")  // a Monday; open until 22:00
        runner.driver.follow(
            try DisplaySchedule(parsing: "Mon-Fri 07:00-22:00"), wakeSeconds: 30, localTime: { origin + $0 }, recheckSeconds: nil)
        // The tap lands on the page control's trailing side: delivered, it would turn the page.
        let script = try InputScript.parse(
            """
            {"t":59000,"state":"open"}
            {"t":59000,"screenshot":"open"}
            {"t":60000,"state":"closed"}
            {"t":60100,"screenshot":"closed"}
            \(Self.tap(100_000))
            {"t":101000,"state":"woken"}
            {"t":101000,"screenshot":"woken"}
            {"t":130000,"state":"still"}
            {"t":130100,"state":"again"}
            """)
        let out = try runner.run(script)
        let states = Dictionary(uniqueKeysWithValues: out.states.map { ($0.name, $0.json) })
        #expect(Self.display(states["open"]) == Self.shown(true, "on"))
        #expect(Self.display(states["closed"]) == Self.shown(false, "schedule"))
        #expect(Self.display(states["woken"]) == Self.shown(true, "woken"))
        #expect(states["woken"]?.contains("\"currentPage\":0") == true, "the waking tap is not the app's")
        // Woken at 100 s, the lift at 100.08 s the last input: off again 30 s later.
        #expect(Self.display(states["still"]) == Self.shown(true, "woken"))
        #expect(Self.display(states["again"]) == Self.shown(false, "schedule"))
        #expect(Self.display(out.finalState) == Self.shown(false, "schedule"))
        let shots = Dictionary(uniqueKeysWithValues: out.screenshots.map { ($0.name, $0.image) })
        let closed = try #require(shots["closed"])
        #expect(closed.span.row(100)[160] == 0xFF00_0000 && closed.span.row(5)[5] == 0xFF00_0000, "black outside the hours")
        #expect(try #require(shots["woken"]).pixelsEqual(try #require(shots["open"])))
        #expect(told == [false, true, false])
    }

    @Test func startedOutsideTheHoursItComesOnWhenTheyOpen() throws {
        let window = try BlankingTests.pager()
        var told: [Bool] = []
        window.onDisplayPower = { told.append($0) }
        let runner = HeadlessRunner(app: window, width: 320, height: 200)
        let origin = Self.at("2026-12-07T06:59:30")
        runner.driver.follow(
            try DisplaySchedule(parsing: "Mon-Fri 07:00-22:00; holidays 2026-12-08"), wakeSeconds: 60, localTime: { origin + $0 },
            recheckSeconds: nil)
        let script = try InputScript.parse(
            """
            {"t":1000,"state":"night"}
            {"t":29900,"state":"before"}
            {"t":30000,"state":"opened"}
            """)
        let out = try runner.run(script)
        let states = Dictionary(uniqueKeysWithValues: out.states.map { ($0.name, $0.json) })
        #expect(Self.display(states["night"]) == Self.shown(false, "schedule"))
        #expect(Self.display(states["before"]) == Self.shown(false, "schedule"))
        #expect(Self.display(states["opened"]) == Self.shown(true, "on"))
        // The first frame shows the app once (a board tells systemd it is ready), then it is off.
        #expect(told == [false, true])
        // The next change: 22:00 the same day (Tuesday the 8th is a holiday: then Wednesday 07:00).
        // (Loop time is a Double: local seconds near 1.8e9 leave it a few microseconds off.)
        #expect(abs(try #require(runner.driver.screenDue) - (30 + 15 * 3600)) < 1e-3)
    }

    @Test func idleBlankingInsideTheHoursSaysIdle() throws {
        let window = try BlankingTests.pager()
        let runner = HeadlessRunner(app: window, width: 320, height: 200)
        runner.driver.blanking = IdleBlanking(idleSeconds: 10, now: 0)
        let origin = Self.at("2026-12-07T12:00")
        runner.driver.follow(
            try DisplaySchedule(parsing: "daily 07:00-22:00"), wakeSeconds: 60, localTime: { origin + $0 }, recheckSeconds: nil)
        let out = try runner.run(try InputScript.parse("{\"t\":11000,\"state\":\"idle\"}"))
        #expect(Self.display(out.states.first?.json) == Self.shown(false, "idle"))
    }

    @Test func outsideTheHoursTheShorterOfTheWakeAndIdleTimesBlanks() {
        var b = IdleBlanking(idleSeconds: 300, now: 0)
        b.isOutsideHours = true
        b.wakeSeconds = 60
        #expect(b.blankDue == 60)
        b.idleSeconds = 20
        #expect(b.blankDue == 20)
        b.idleSeconds = 0
        #expect(b.blankDue == 60)
        b.isOutsideHours = false
        #expect(b.blankDue == nil)
        b.blank(.schedule)
        #expect(b.offReason == .schedule)
    }
}
