import CLinux
import Logging
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// Timers and work handed in from other threads, run on a frame loop's thread at the loop's
/// time. It has no clock: the loop says what time it is (`runDue(upTo:)`), so headless
/// a timer fires at its exact virtual time and a screenshot at t = 2.5 s is the same on every
/// machine; on a board the loop's clock is CLOCK_MONOTONIC.
///
/// Timers made before the loop starts count from its first frame (`start(at:)`).
package final class LoopScheduler: @unchecked Sendable {
    // Loop-thread state (timers, channel handlers): touched only by the thread that runs the
    // loop, so it needs no lock. `@unchecked Sendable` covers the cross-thread part below.
    struct Entry {
        /// Loop time; before `start`, the delay from the first frame.
        var due: Double
        var interval: Double?
        var action: () throws -> Void
    }
    private var entries: [Int: Entry] = [:]
    /// Timers, channels: ids grow, so a timer made while timers run is told by its id.
    private var nextID = 1
    private var handlers: [Int: (any Sendable) -> Void] = [:]
    /// The loop's time: the time of the timer firing now, else of the last `runDue`.
    package private(set) var now: Double?

    // Any-thread state.
    private struct Inbox {
        var work: [Posted] = []
        var stopped = false
        var reportedDrop = false
    }
    private enum Posted {
        case closure(@Sendable () -> Void)
        case value(channel: Int, any Sendable)
    }
    private let inbox = NIOLockedValueBox(Inbox())
    /// Readable (an eventfd) while posted work waits: a sleeping loop polls it.
    package let wakeFD: Int32
    /// Where a timer that throws, or a post after the loop stopped, is reported (the loop's log).
    /// Read on whichever thread reports; set it before the loop starts.
    package var log: Logger = processLog

    package init() {
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    }

    deinit { if wakeFD >= 0 { close(wakeFD) } }

    // MARK: Timers (loop thread)

    /// Runs `action` once, `seconds` from now on the loop's clock (0: before the next frame).
    /// Negative or non-finite delays are refused with a message; the returned timer is then
    /// already cancelled.
    @discardableResult
    package func after(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        guard seconds.isFinite, seconds >= 0 else {
            log.error("after(\(seconds)): the delay must be a finite number of seconds, 0 or more; the timer was not started")
            return LoopTimer(scheduler: nil, id: 0)
        }
        return add(delay: seconds, interval: nil, action)
    }

    /// Runs `action` every `seconds` on the loop's clock, first `seconds` from now. A loop that
    /// falls behind fires a late timer once and keeps to its grid (missed ticks are not piled up).
    /// A zero, negative or non-finite interval is refused with a message.
    @discardableResult
    package func every(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        guard seconds.isFinite, seconds > 0 else {
            log.error("every(\(seconds)): the interval must be a finite number of seconds above 0; the timer was not started")
            return LoopTimer(scheduler: nil, id: 0)
        }
        return add(delay: seconds, interval: seconds, action)
    }

    private func add(delay: Double, interval: Double?, _ action: @escaping () throws -> Void) -> LoopTimer {
        let id = nextID
        nextID += 1
        entries[id] = Entry(due: (now ?? 0) + delay, interval: interval, action: action)
        return LoopTimer(scheduler: self, id: id)
    }

    func cancel(_ id: Int) {
        entries[id] = nil
    }

    func isScheduled(_ id: Int) -> Bool { entries[id] != nil }

    /// Sets the time origin: timers made so far count from `t`. Later calls do nothing.
    package func start(at t: Double) {
        guard now == nil else { return }
        now = t
        entries = entries.mapValues {
            var e = $0; e.due += t; return e
        }
    }

    /// The earliest timer's due time (after `start`); a loop sleeps no longer than this.
    package var nextDue: Double? {
        guard now != nil else { return nil }
        return entries.values.lazy.map(\.due).min()
    }

    /// Runs the posted work, then every timer due at or before `t` in time order, each with
    /// `now` at its own due time. Returns true if anything ran (the app may have changed).
    /// A timer made by one that runs waits for the next call, even if it is due already, so a
    /// timer that keeps making `after(0)` timers cannot hold the loop.
    @discardableResult
    package func runDue(upTo t: Double) -> Bool {
        start(at: t)
        now = max(now ?? t, t)
        var ran = runPosted()
        let madeBefore = nextID
        while let (id, entry) = earliest(dueBy: t, madeBefore: madeBefore) {
            if let interval = entry.interval {
                // The next tick on the timer's own grid after `t`.
                let missed = ((t - entry.due) / interval).rounded(.down)
                entries[id]?.due = entry.due + (missed + 1) * interval
            } else {
                entries[id] = nil
            }
            now = entry.due
            do { try entry.action() } catch {
                log.error("a timer threw \(error)\(entry.interval == nil ? "" : "; it keeps running")")
            }
            ran = true
        }
        now = t
        return ran
    }

    /// The timer due first by `t` (ties: the one made first), scanning without allocating:
    /// the loop asks before every frame.
    private func earliest(dueBy t: Double, madeBefore limit: Int) -> (Int, Entry)? {
        var best: (id: Int, entry: Entry)?
        for (id, e) in entries where id < limit && e.due <= t {
            if let b = best, (b.entry.due, b.id) < (e.due, id) { continue }
            best = (id, e)
        }
        return best
    }

    // MARK: Work from other threads

    /// Runs `work` on the loop's thread before its next frame, waking a sleeping loop. Call it
    /// from any thread. After the loop has stopped the work is dropped, and said so once.
    @discardableResult
    package func post(_ work: @escaping @Sendable () -> Void) -> Bool {
        enqueue(.closure(work))
    }

    /// A typed mailbox: `receive` runs on the loop's thread for every value sent to the channel
    /// from any thread. The values cross threads; the handler (which may touch views) never does.
    /// Make channels on the loop's thread (in the app builder, or in a timer).
    package func channel<Value: Sendable>(_ receive: @escaping (Value) -> Void) -> LoopChannel<Value> {
        let id = nextID
        nextID += 1
        handlers[id] = { value in if let v = value as? Value { receive(v) } }
        return LoopChannel(scheduler: self, id: id)
    }

    func send(_ value: any Sendable, to channel: Int) -> Bool {
        enqueue(.value(channel: channel, value))
    }

    private func enqueue(_ item: Posted) -> Bool {
        let accepted = inbox.withLockedValue { box -> Bool? in
            if box.stopped {
                if box.reportedDrop { return nil }
                box.reportedDrop = true
                return false
            }
            // The eventfd counts under the lock with the work, so the loop reads it only when
            // work waits (no system call per frame otherwise).
            box.work.append(item)
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
            return true
        }
        switch accepted {
        case true?:
            return true
        case false?:
            log.warning("work posted after the loop stopped was dropped (and any more will be, silently)")
            return false
        case nil:
            return false
        }
    }

    private func runPosted() -> Bool {
        let work = inbox.withLockedValue { box -> [Posted] in
            guard !box.work.isEmpty else { return [] }
            var count: UInt64 = 0
            _ = read(wakeFD, &count, 8)
            let w = box.work
            box.work.removeAll()
            return w
        }
        for item in work {
            switch item {
            case let .closure(f): f()
            case let .value(channel, value): handlers[channel]?(value)
            }
        }
        return !work.isEmpty
    }

    /// True while posted work waits (any thread).
    package var hasPostedWork: Bool { inbox.withLockedValue { !$0.work.isEmpty } }

    /// The loop has ended: later posts are dropped with a message.
    package func loopStopped() {
        inbox.withLockedValue {
            $0.stopped = true; $0.work.removeAll()
        }
    }
}

/// A timer made by `LoopScheduler.every` or `after`; cancel it on the loop's thread.
public final class LoopTimer {
    weak var scheduler: LoopScheduler?
    let id: Int
    init(scheduler: LoopScheduler?, id: Int) { self.scheduler = scheduler; self.id = id }

    /// Stops the timer so its action runs no more; cancelling a timer that has fired, was
    /// cancelled or was refused does nothing.
    public func cancel() { scheduler?.cancel(id) }
    /// False once a one-shot timer has fired, or the timer was cancelled or refused.
    public var isScheduled: Bool { scheduler?.isScheduled(id) ?? false }
}

/// Sends values to a handler on the loop's thread from any thread (`LoopScheduler.channel`).
public struct LoopChannel<Value: Sendable>: Sendable {
    let scheduler: LoopScheduler
    let id: Int

    /// Queues `value` for the handler and wakes the loop; false if the loop has stopped.
    ///
    /// - Parameter value: What the handler gets, on the loop's thread, in the order sent.
    /// - Returns: True when the value was queued; false when the loop has stopped (it is dropped).
    @discardableResult
    public func send(_ value: Value) -> Bool { scheduler.send(value, to: id) }
}
