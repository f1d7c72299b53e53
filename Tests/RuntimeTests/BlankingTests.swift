import Geometry
import Headless
import Raster
import Scrolling
import Testing
import UI
@testable import Runtime

/// Idle blanking: when the screen goes dark, and that the touch which wakes it (with the rest of
/// its gesture) never reaches the app.
@Suite struct BlankingTests {
    static func touch(_ phase: InputEvent.TouchPhase, slot: Int = 0, x: Double = 10, y: Double = 10, at t: Double) -> InputEvent {
        InputEvent(.touch(phase, slot: slot, position: Point(x: x, y: y)), time: t)
    }

    @Test func theScreenBlanksAfterTheIdleTimeAndTheWakingGestureIsSwallowed() {
        var b = IdleBlanking(idleSeconds: 30, now: 100)
        #expect(b.blankDue == 130)
        #expect(b.filter(Self.touch(.down, at: 110)) == .deliver)
        #expect(b.filter(Self.touch(.up, at: 111)) == .deliver)
        #expect(b.blankDue == 141)
        b.blank()
        #expect(b.blankDue == nil)
        // A lift or frame of a gesture begun before the dark is dropped and wakes nothing.
        #expect(b.filter(Self.touch(.up, slot: 3, at: 150)) == .swallow)
        #expect(b.filter(InputEvent(.touchFrame, time: 150)) == .swallow)
        #expect(b.isBlank)
        // The waking finger: down wakes, its moves and lift are swallowed...
        #expect(b.filter(Self.touch(.down, slot: 1, at: 200)) == .wake)
        #expect(!b.isBlank && b.blankDue == 230)
        #expect(b.filter(InputEvent(.touchFrame, time: 200)) == .deliver)
        #expect(b.filter(Self.touch(.move, slot: 1, at: 200.05)) == .swallow)
        // ...while a second finger that lands meanwhile is the app's.
        #expect(b.filter(Self.touch(.down, slot: 2, at: 200.06)) == .deliver)
        #expect(b.filter(Self.touch(.up, slot: 1, at: 200.1)) == .swallow)
        #expect(b.filter(Self.touch(.up, slot: 2, at: 200.2)) == .deliver)
        // The next touch with slot 1 is a new finger.
        #expect(b.filter(Self.touch(.down, slot: 1, at: 201)) == .deliver)
        #expect(b.blankDue == 231)
    }

    @Test func keysAndButtonsWakeAndTheirReleaseIsSwallowed() {
        var b = IdleBlanking(idleSeconds: 5, now: 0)
        let enter = Key(name: "Enter", code: 28)
        b.blank()
        #expect(b.filter(InputEvent(.key(enter, pressed: true), time: 9)) == .wake)
        #expect(b.filter(InputEvent(.key(enter, pressed: false), time: 9.1)) == .swallow)
        #expect(b.filter(InputEvent(.key(enter, pressed: true), time: 9.2)) == .deliver)
        b.blank()
        let p = Point(x: 1, y: 1)
        #expect(b.filter(InputEvent(.pointerButton(code: 0x110, pressed: true, position: p), time: 20)) == .wake)
        #expect(b.filter(InputEvent(.pointerMotion(position: p), time: 20.1)) == .swallow)
        #expect(b.filter(InputEvent(.pointerButton(code: 0x110, pressed: false, position: p), time: 20.2)) == .swallow)
        #expect(b.filter(InputEvent(.pointerMotion(position: p), time: 20.3)) == .deliver)
    }

    @Test func neverBlanksAtZeroAndBadTimesDoNotMoveTheClock() {
        var never = IdleBlanking(idleSeconds: 0, now: 0)
        #expect(never.blankDue == nil)
        #expect(IdleBlanking(idleSeconds: .nan, now: 0).blankDue == nil)
        #expect(IdleBlanking(idleSeconds: -5, now: 0).blankDue == nil)
        var b = IdleBlanking(idleSeconds: 10, now: 50)
        #expect(b.filter(Self.touch(.down, at: .nan)) == .deliver)
        #expect(b.filter(Self.touch(.up, at: 20)) == .deliver)  // earlier than the last: no step back
        #expect(b.blankDue == 60)
        never.noteActivity(at: 3)
        b.blank()
        b.noteActivity(at: 70)  // a remote-injected event wakes, and is not swallowed
        #expect(!b.isBlank && b.blankDue == 80)
    }

    @Test func stateJSONReportsTheDisplay() {
        #expect(stateJSON("{\"t\":1}", screenOn: false, reason: .idle) == "{\"display\":{\"on\":false,\"reason\":\"idle\"},\"t\":1}")
        #expect(stateJSON("{}", screenOn: true, reason: .on) == "{\"display\":{\"on\":true,\"reason\":\"on\"}}")
    }

    /// A pager with a page control: a tap on the control's trailing side goes to the next page.
    static func pager() throws -> Window {
        let strip = Stack(.horizontal, id: "strip")
        for (i, rgb) in [0xE63946, 0x2A9D8F, 0xE9C46A].enumerated() { strip.add(Box(id: "page-\(i)", fill: Color(rgb: UInt32(rgb)))) }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let pager = ScrollView(id: "pager", axes: .horizontal, configuration: config, content: strip)
        pager.sizesPagesToViewport = true
        let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: .prominent)
        let root = Overlay(
            id: "root", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 16, trailing: 0),
            children: [pager, control])
        return Window(width: 320, height: 200, scaleFactor: 1, typography: try makeTypography(), root: root)
    }

    @Test func headlessTheWakingTapDoesNotTurnThePageAndTheNextDoes() throws {
        let window = try Self.pager()
        let runner = HeadlessRunner(app: window, width: 320, height: 200)
        runner.driver.blanking = IdleBlanking(idleSeconds: 10, now: 0)
        _ = window.render(into: PixelBuffer(width: 320, height: 200), at: 0)
        let f = try #require(window.state(at: 0, frameNumber: 0).pageControls.first?.frame)
        let tapX = Int(f[0] + f[2] * 0.85), tapY = Int(f[1] + f[3] / 2)
        func tap(_ ms: Int) -> String {
            """
            {"t":\(ms),"touch":"down","id":0,"x":\(tapX),"y":\(tapY)}
            {"t":\(ms + 80),"touch":"up","id":0,"x":\(tapX),"y":\(tapY)}
            """
        }
        let script = try InputScript.parse(
            """
            {"t":9000,"screenshot":"awake"}
            {"t":11000,"screenshot":"dark"}
            \(tap(20000))
            {"t":21000,"screenshot":"woken"}
            {"t":21000,"state":"woken"}
            \(tap(22000))
            {"t":23000,"state":"tapped"}
            """)
        let out = try runner.run(script)
        let shots = Dictionary(uniqueKeysWithValues: out.screenshots.map { ($0.name, $0.image) })
        let dark = try #require(shots["dark"])
        #expect(dark.span.row(100)[160] == 0xFF00_0000 && dark.span.row(5)[5] == 0xFF00_0000, "black after 10 s idle")
        #expect(try #require(shots["woken"]).pixelsEqual(try #require(shots["awake"])), "the same page back after the waking tap")
        let states = Dictionary(uniqueKeysWithValues: out.states.map { ($0.name, $0.json) })
        #expect(states["woken"]?.contains("\"currentPage\":0") == true, "\(states["woken"] ?? "")")
        #expect(states["tapped"]?.contains("\"currentPage\":1") == true, "\(states["tapped"] ?? "")")
    }
}

/// Touches delivered from a loop source at set loop times, as libinput's source delivers them.
final class ScheduledTouches: LoopSource {
    let name = "touches"
    var pollFD: Int32? { nil }
    var pending: [(time: Double, event: InputEvent.Kind)]
    init(_ pending: [(time: Double, event: InputEvent.Kind)]) { self.pending = pending }
    func deadline(now: Double) -> Double? { pending.first?.time }
    func service(readable: Bool, now: Double, loop: FrameLoop) throws {
        while let e = pending.first, e.time <= now {
            pending.removeFirst()
            loop.driver.deliver(InputEvent(e.event, time: now))
        }
    }
}

@Suite struct RealTimeBlankingTests {
    /// The real-time loop blanks when idle, wakes on a touch without passing it on, draws the
    /// frame again and comes to rest (a board's state file is written then).
    @Test func theLoopBlanksWakesAndComesToRestAgain() throws {
        let window = try BlankingTests.pager()
        let display = HeadlessDisplay(width: 320, height: 200)
        let loop = try FrameLoop(app: window, output: display)
        let start = monotonicSeconds()
        // A second of idle time and no deadline to finish by: on a busy machine the first frame or
        // the wake may come late, and the loop stops when it has come to rest again (10 s at most).
        loop.driver.blanking = IdleBlanking(idleSeconds: 1, now: start)
        let p = Point(x: 300, y: 180)
        loop.sources = [
            ScheduledTouches([
                (start + 2, .touch(.down, slot: 0, position: p)), (start + 2, .touchFrame),
                (start + 2.05, .touch(.up, slot: 0, position: p)), (start + 2.05, .touchFrame),
            ])
        ]
        var events: [String] = []
        loop.onRest = { _ in
            events.append(loop.driver.isScreenOn ? "rest" : "rest-dark")
            if events.count >= 3 { loop.stopRequested = true }
        }
        loop.onDrawing = { events.append("drawing") }
        loop.sources.append(Deadline(at: { start + 10 }) { loop.stopRequested = true })
        try loop.run()
        #expect(events == ["rest", "drawing", "rest"], "\(events)")
    }
}

/// Calls `action` at a loop time.
final class Deadline: LoopSource {
    let name = "deadline"
    var pollFD: Int32? { nil }
    let at: () -> Double
    let action: () -> Void
    init(at: @escaping () -> Double, action: @escaping () -> Void) { self.at = at; self.action = action }
    func deadline(now: Double) -> Double? { at() }
    func service(readable: Bool, now: Double, loop: FrameLoop) throws { action() }
}
