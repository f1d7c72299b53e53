import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
@testable import Runtime

/// Timers and posted work on the loop's clock (APP-2): exact times, order, the grid of a
/// repeating timer, cancellation, and refusals with a message.
@Suite struct LoopSchedulerTests {
    /// Collects reports (the scheduler's log) from any thread.
    final class Reports: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ s: String) { lines.withLock { $0.append(s) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func scheduler() -> (LoopScheduler, Reports) {
        let s = LoopScheduler()
        let r = Reports()
        s.log = .lines { _, text in r.add(text) }
        return (s, r)
    }

    @Test func timersMadeBeforeTheLoopCountFromItsFirstFrame() {
        let (s, _) = scheduler()
        var fired: [Double] = []
        s.after(0.5) { fired.append(s.now!) }
        s.every(0.25) { fired.append(s.now!) }
        #expect(s.nextDue == nil)          // no time yet
        s.runDue(upTo: 10)                 // the first frame: t0 = 10
        #expect(fired.isEmpty)
        #expect(s.nextDue == 10.25)
        s.runDue(upTo: 10.5)
        // Each fires at its own due time, in time order. The repeating one was due twice by
        // 10.5 and fired once for both (a late loop does not pile up ticks); it keeps its grid.
        #expect(fired == [10.25, 10.5])
        #expect(s.now == 10.5)
        #expect(s.nextDue == 10.75)
        s.runDue(upTo: 10.75)
        #expect(fired == [10.25, 10.5, 10.75])
    }

    @Test func aLateRepeatingTimerFiresOnceAndKeepsToItsGrid() {
        let (s, _) = scheduler()
        s.start(at: 0)
        var times: [Double] = []
        s.every(0.1) { times.append(s.now!) }
        s.runDue(upTo: 0.35)               // due at 0.1, 0.2, 0.3: one firing, at 0.1
        #expect(times == [0.1])
        #expect(s.nextDue! == 0.1 + 3 * 0.1)
        s.runDue(upTo: 0.4)
        #expect(times.count == 2)
    }

    @Test func cancelledAndOneShotTimersDoNotFireAgain() {
        let (s, _) = scheduler()
        s.start(at: 0)
        var count = 0
        let repeating = s.every(1) { count += 1 }
        let once = s.after(1) { count += 100 }
        #expect(repeating.isScheduled && once.isScheduled)
        s.runDue(upTo: 1)
        #expect(count == 101)
        #expect(!once.isScheduled)
        repeating.cancel()
        s.runDue(upTo: 5)
        #expect(count == 101)
        #expect(s.nextDue == nil)
    }

    @Test func aTimerMadeByARunningTimerWaitsForTheNextCall() {
        let (s, _) = scheduler()
        s.start(at: 0)
        var runs: [Double] = []
        func again() { s.after(0) { runs.append(s.now!); again() } }
        again()
        s.runDue(upTo: 1)      // would never return if after(0) timers made now ran now
        #expect(runs == [0])
        s.runDue(upTo: 2)      // one more per call, at its own due time
        #expect(runs == [0, 0])
        // A chained delay that is due by then still keeps its exact time on the next call.
        var chained: [Double] = []
        s.after(0.25) { chained.append(s.now!); s.after(0.25) { chained.append(s.now!) } }
        s.runDue(upTo: 3)
        s.runDue(upTo: 3)
        #expect(chained == [2.25, 2.5])
    }

    @Test func badIntervalsAreRefusedWithAMessage() {
        let (s, reports) = scheduler()
        s.start(at: 0)
        var ran = 0
        for bad in [0.0, -1, .nan, .infinity] { #expect(!s.every(bad) { ran += 1 }.isScheduled) }
        for bad in [-0.5, .nan, -.infinity] { #expect(!s.after(bad) { ran += 1 }.isScheduled) }
        #expect(s.after(0) { ran += 1 }.isScheduled)   // 0: before the next frame
        s.runDue(upTo: 100)
        #expect(ran == 1)
        #expect(reports.all.count == 7)
        #expect(reports.all[0] == "every(0.0): the interval must be a finite number of seconds above 0; the timer was not started")
    }

    @Test func aTimerThatThrowsIsReportedAndKeepsRunning() {
        struct Broken: Error {}
        let (s, reports) = scheduler()
        s.start(at: 0)
        var count = 0
        s.every(1) { count += 1; throw Broken() }
        s.runDue(upTo: 3)
        s.runDue(upTo: 4)
        #expect(count == 2)
        #expect(reports.all == ["a timer threw Broken(); it keeps running", "a timer threw Broken(); it keeps running"])
    }

    @Test func workPostedFromAnotherThreadRunsOnTheLoopAndChannelsCarryValues() async {
        let (s, reports) = scheduler()
        let seen = Reports()
        var received: [Int] = []
        let channel = s.channel { (v: Int) in received.append(v) }
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<10 {
                group.addTask {
                    s.post { seen.add("post \(i)") }
                    channel.send(i)
                }
            }
        }
        #expect(s.hasPostedWork)
        // The eventfd is readable while work waits: a sleeping loop wakes.
        var p = pollfd(fd: s.wakeFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 0) == 1)
        #expect(s.runDue(upTo: 0))
        #expect(seen.all.count == 10)
        #expect(received.sorted() == Array(0..<10))
        #expect(poll(&p, 1, 0) == 0)
        s.loopStopped()
        #expect(!s.post {})
        #expect(!channel.send(1))
        #expect(reports.all == ["work posted after the loop stopped was dropped (and any more will be, silently)"])
    }
}

/// The process log's pieces: syslog priorities, the journal's stream test, one line per message.
@Suite struct ProcessLogTests {
    @Test func levelsMapToSyslogPriorities() {
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        #expect(levels.map(syslogPriority) == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func theJournalStreamIsTheFileItNames() throws {
        let path = "/tmp/glide-journal-\(getpid())"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var info = stat()
        try #require(fstat(fd, &info) == 0)
        #expect(isJournalStream("\(info.st_dev):\(info.st_ino)", fd: fd))
        #expect(!isJournalStream("\(info.st_dev):\(info.st_ino + 1)", fd: fd))
        for bad in ["", ":", "12", "a:b", "1:2:3", "-1:5", "\(info.st_dev):"] { #expect(!isJournalStream(bad, fd: fd), "\(bad)") }
        #expect(!isJournalStream("\(info.st_dev):\(info.st_ino)", fd: -1))
    }

    @Test func aMessageIsOneLineWithItsMetadataAndError() {
        struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
        let lines = LoopSchedulerTests.Reports()
        var log = Logger.lines { level, text in lines.add("\(syslogPriority(level)) \(text)") }
        log[metadataKey: "panel"] = "HDMI-1"
        log.warning("slow frame", metadata: ["ms": "40"])
        log.error("present failed", error: Broken())
        log.debug("not shown: the level is info")
        #expect(lines.all == ["4 slow frame ms=40 panel=HDMI-1", "3 present failed panel=HDMI-1: it broke"])
    }
}

/// Waiting for something at the edge (a display card at boot) on a virtual clock.
@Suite struct PatientAttemptTests {
    struct NotYet: Error {}
    struct Broken: Error {}

    final class VirtualClock {
        var now = 100.0
        var sleeps: [Double] = []
    }

    func attempt(seconds: Double, _ clock: VirtualClock) -> PatientAttempt {
        PatientAttempt(seconds: seconds, interval: 0.25, clock: { clock.now }, sleep: { clock.sleeps.append($0); clock.now += $0 })
    }

    @Test func aTransientFailureIsTriedAgainUntilItPasses() throws {
        let clock = VirtualClock()
        var tries = 0, firstWait: [String] = [], waited: [Double] = []
        let value = try attempt(seconds: 2, clock).run(isTransient: { $0 is NotYet },
                                                      onFirstWait: { firstWait.append("\($0)") },
                                                      onSuccess: { waited.append($0) }) {
            tries += 1
            if tries < 4 { throw NotYet() }
            return "card0"
        }
        #expect(value == "card0" && tries == 4)
        #expect(clock.sleeps == [0.25, 0.25, 0.25])
        #expect(firstWait.count == 1 && waited == [0.75])
    }

    @Test func atOnceIsZeroSecondsWaited() throws {
        let clock = VirtualClock()
        var waited: [Double] = []
        #expect(try attempt(seconds: 2, clock).run(isTransient: { _ in true }, onSuccess: { waited.append($0) }) { 7 } == 7)
        #expect(clock.sleeps.isEmpty && waited == [0])
    }

    @Test func theTimeRunsOutWithTheLastError() {
        let clock = VirtualClock()
        var tries = 0
        #expect(throws: NotYet.self) {
            try attempt(seconds: 1, clock).run(isTransient: { $0 is NotYet }) { () throws -> Int in tries += 1; throw NotYet() }
        }
        // Tries at 0, 0.25, 0.5, 0.75 and 1.0 s: a sleep never goes past the limit.
        #expect(tries == 5 && clock.sleeps.count == 4 && clock.now == 101)
    }

    @Test func anotherErrorOrNoTimeEndsAtOnce() {
        let clock = VirtualClock()
        var tries = 0
        #expect(throws: Broken.self) {
            try attempt(seconds: 5, clock).run(isTransient: { $0 is NotYet }) { () throws -> Int in tries += 1; throw Broken() }
        }
        for seconds in [0, -1, .nan, .infinity] {
            #expect(throws: NotYet.self) {
                try attempt(seconds: seconds, clock).run(isTransient: { _ in true }) { () throws -> Int in tries += 1; throw NotYet() }
            }
        }
        #expect(tries == 5 && clock.sleeps.isEmpty)
    }
}
