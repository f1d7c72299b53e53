import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
@testable import Runtime

/// Timers and posted work on the loop's clock: exact times, order, the grid of a
/// repeating timer, cancellation, and refusals with a message.
@Suite struct LoopSchedulerTests {
    /// Collects reports (the scheduler's log) from any thread.
    final class Reports: Sendable {
        let lines = NIOLockedValueBox<[String]>([])
        func add(_ s: String) { lines.withLockedValue { $0.append(s) } }
        var all: [String] { lines.withLockedValue { $0 } }
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
        #expect(s.nextDue == nil)  // no time yet
        s.runDue(upTo: 10)  // the first frame: t0 = 10
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
        s.runDue(upTo: 0.35)  // due at 0.1, 0.2, 0.3: one firing, at 0.1
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
        func again() {
            s.after(0) {
                runs.append(s.now!); again()
            }
        }
        again()
        s.runDue(upTo: 1)  // would never return if after(0) timers made now ran now
        #expect(runs == [0])
        s.runDue(upTo: 2)  // one more per call, at its own due time
        #expect(runs == [0, 0])
        // A chained delay that is due by then still keeps its exact time on the next call.
        var chained: [Double] = []
        s.after(0.25) {
            chained.append(s.now!); s.after(0.25) { chained.append(s.now!) }
        }
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
        #expect(s.after(0) { ran += 1 }.isScheduled)  // 0: before the next frame
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
        s.every(1) {
            count += 1; throw Broken()
        }
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
