import Geometry
import Runtime
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// The queue between the HTTP handlers (any thread) and the frame loop (one thread), plus the
/// loop's own bookkeeping (scheduled events, waiters, live viewers' fingers). Everything is
/// behind one mutex that only the inbox takes, each operation at once, so the loop calls the app
/// (and delivers input) between operations, never while a handler's thread could be kept waiting.
final class RemoteInbox: Sendable {
    struct Scheduled {
        var time: Double
        var event: InputEvent.Kind
        var isKey: Bool
        var batch: Int
        /// The batch of an event applied for a dropped batch (no request waits for it).
        static let noBatch = -1
    }
    struct Batch {
        var count: Int
        var remaining: Int
        var arrival: Double
        var firstApplied: Double?
        var continuation: CheckedContinuation<RemoteEventsReply?, Never>
    }
    struct Waiter {
        var since: Double
        var deadline: Double
        /// False: answered at the deadline only, at rest or not.
        var untilRest = true
        var continuation: CheckedContinuation<RemoteWaitReply?, Never>
    }
    /// The waiters taken to be answered, with what rest depends on besides the app.
    struct WaitRound {
        var waiters: [Waiter]
        var eventsPending: Bool
        var injectedAtFrame: Int
    }
    /// A batch whose last event was applied, and its handler's answer.
    typealias Completion = (continuation: CheckedContinuation<RemoteEventsReply?, Never>, reply: RemoteEventsReply)

    struct State {
        var incoming: [RemoteRequest] = []
        var scheduled: [Scheduled] = []
        var batches: [Int: Batch] = [:]
        var waiters: [Waiter] = []
        var nextBatch = 0
        /// Touch slots for injected fingers: fresh numbers far from the kernel's (0...9) so an
        /// injected finger never collides with a real one or with another request's.
        var nextSlot = InputEvent.injectedSlots.lowerBound
        /// Live viewers' fingers (their ids → slots) and pressed pointer buttons (→ where).
        var liveFingers: [Int: [Int: Int]] = [:]
        var liveButtons: [Int: [Int: Point]] = [:]
        /// Live viewers' input lines not yet taken by the loop, per viewer.
        var liveQueued: [Int: Int] = [:]
        /// Frames presented when input was last injected; rest needs a later frame.
        var injectedAtFrame = -1
        var closed = false

        /// Event batches held: waiting for their times, or for the loop to take them.
        var batchesHeld: Int { batches.count + incoming.count { $0.eventCount > 0 } }

        /// A touch slot no finger holds (see `nextSlot`).
        mutating func freshSlot() -> Int {
            defer { nextSlot = nextSlot >= InputEvent.injectedSlots.upperBound ? InputEvent.injectedSlots.lowerBound : nextSlot + 1 }
            return nextSlot
        }
    }

    private let state = NIOLockedValueBox(State())
    /// Self-pipe: a byte is written for every request so a loop sleeping in poll(2) wakes up.
    let wakeReadFD: Int32
    let wakeWriteFD: Int32

    init() throws(RemoteError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(operation: "pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeReadFD = fds[0]; wakeWriteFD = fds[1]
    }

    deinit {
        close(wakeReadFD); close(wakeWriteFD)
    }

    // MARK: The HTTP side

    enum PostResult { case accepted, stopped, busy, busyEvents }
    /// Quick requests (screenshots, states, event batches) queued or running at most; more get
    /// 429. Long polls (`/wait`) are counted apart, under a limit far below it, so clients that
    /// wait can never take the room the quick requests need: a client opening too many waits
    /// gets 429 itself.
    static let maxOpenRequests = 256
    /// A live viewer's input lines waiting for the loop: more than its burst
    /// (`RemoteServer.liveInputBurst`) and a slow frame's worth at its greatest rate, so that the
    /// rate, not this share, is what a viewer sending too fast meets.
    static let maxLiveQueued = 256
    static let maxWaits = 16
    /// Event batches waiting for their times (a script may run 120 s) are counted apart too,
    /// under a small limit and a bound on the events they hold: batches scheduled far ahead
    /// can never lock out `/state` and screenshots, nor hold more than a few megabytes.
    static let maxScheduledBatches = 16
    static let maxScheduledEvents = 20_000

    /// Event batches held (see `maxScheduledBatches`).
    var batchesHeld: Int { state.withLockedValue { $0.batchesHeld } }

    /// A number for a batch of events, made before it is posted so that the batch can be
    /// dropped whenever its client goes away.
    func newBatch() -> Int {
        state.withLockedValue { s in
            defer { s.nextBatch += 1 }
            return s.nextBatch
        }
    }

    /// The client of `batch` has gone: its events not yet applied are dropped, except that a
    /// finger it put down is cancelled and a pointer button it pressed is released at once (a
    /// dropped lift would leave them down for good). Its handler is answered with nil.
    func drop(batch: Int) {
        let continuation = state.withLockedValue { s -> CheckedContinuation<RemoteEventsReply?, Never>? in
            if let i = s.incoming.firstIndex(where: { if case let .events(_, b, _) = $0 { b == batch } else { false } }),
                case let .events(_, _, c) = s.incoming.remove(at: i)
            {
                return c
            }
            guard let b = s.batches.removeValue(forKey: batch) else { return nil }
            let endings = s.scheduled.filter { $0.batch == batch }.compactMap(Self.ending)
            s.scheduled.removeAll { $0.batch == batch }
            s.scheduled.insert(contentsOf: endings, at: 0)
            return b.continuation
        }
        continuation?.resume(returning: nil)
        wake()
    }

    /// What must still happen, at once, when `event` of a dropped batch will not: its lift
    /// becomes a cancel, its button release stays.
    private static func ending(of event: Scheduled) -> Scheduled? {
        switch event.event {
        case let .touch(.up, slot, p), let .touch(.cancel, slot, p):
            return .init(time: 0, event: .touch(.cancel, slot: slot, position: p), isKey: false, batch: Scheduled.noBatch)
        case let .pointerButton(code, false, p):
            return .init(
                time: 0, event: .pointerButton(code: code, pressed: false, position: p), isKey: false,
                batch: Scheduled.noBatch)
        default:
            return nil
        }
    }

    /// Queues a request for the loop (or refuses it: loop stopped, too many open requests).
    func post(_ request: RemoteRequest) -> PostResult {
        let result = state.withLockedValue { s -> PostResult in
            guard !s.closed else { return .stopped }
            let queuedWaits = s.incoming.count { $0.isWait }
            if request.isLiveMembership {
                // Always taken (see `isLiveMembership`).
            } else if case let .liveInput(viewer, _) = request {
                // Each viewer has a share of its own: ten busy viewers never push out an
                // eleventh, nor the API's clients.
                guard s.liveQueued[viewer, default: 0] < Self.maxLiveQueued else { return .busy }
                s.liveQueued[viewer, default: 0] += 1
            } else if request.isWait {
                guard s.waiters.count + queuedWaits < Self.maxWaits else { return .busy }
            } else if request.eventCount > 0 {
                let held = s.scheduled.count + s.incoming.reduce(0) { $0 + $1.eventCount }
                guard s.batchesHeld < Self.maxScheduledBatches,
                    held + request.eventCount <= Self.maxScheduledEvents
                else { return .busyEvents }
            } else {
                let queuedMemberships = s.incoming.count { $0.isLiveMembership }
                let queuedLive = s.liveQueued.values.reduce(0, +)
                let queuedBatches = s.incoming.count { $0.eventCount > 0 }
                guard s.incoming.count - queuedWaits - queuedBatches - queuedMemberships - queuedLive < Self.maxOpenRequests else {
                    return .busy
                }
            }
            s.incoming.append(request)
            return .accepted
        }
        if result == .accepted { wake() }
        return result
    }

    private func wake() {
        var b: UInt8 = 1
        _ = write(wakeWriteFD, &b, 1)  // a full pipe already means "wake up"
    }

    // MARK: The loop side

    func drainWakeups() {
        var buf = [UInt8](repeating: 0, count: 256)
        while buf.withUnsafeMutableBytes({ read(wakeReadFD, $0.baseAddress, 256) }) > 0 {}
    }

    /// The next scheduled event's time or `/wait` deadline, whichever is first.
    var nextDeadline: Double? {
        state.withLockedValue { s in
            let e = s.scheduled.lazy.map(\.time).min()
            let w = s.waiters.lazy.map(\.deadline).min()
            switch (e, w) {
            case let (a?, b?): return min(a, b)
            case let (a?, nil): return a
            case let (nil, b?): return b
            case (nil, nil): return nil
            }
        }
    }

    /// The requests posted since the last call, in order.
    func takeIncoming() -> [RemoteRequest] {
        state.withLockedValue { s in
            defer {
                s.incoming.removeAll()
                s.liveQueued.removeAll()
            }
            return s.incoming
        }
    }

    /// Input reached the app at `frameNumber`: `/wait` reports rest only after a later frame.
    func markInjected(atFrame frameNumber: Int) {
        state.withLockedValue { $0.injectedAtFrame = frameNumber }
    }

    /// Times a script's events from `arrival` and gives its fingers fresh slots.
    func schedule(
        _ script: InputScript, batch: Int, arrival: Double,
        continuation: CheckedContinuation<RemoteEventsReply?, Never>
    ) {
        state.withLockedValue { s in
            var slots: [Int: Int] = [:]
            var count = 0
            for entry in script.entries {
                let t = arrival + entry.t / 1000
                switch entry.action {
                case var .input(kind):
                    if case let .touch(phase, id, p) = kind {
                        let slot = slots[id] ?? s.freshSlot()
                        slots[id] = phase == .up || phase == .cancel ? nil : slot
                        kind = .touch(phase, slot: slot, position: p)
                    }
                    s.scheduled.append(.init(time: t, event: kind, isKey: false, batch: batch))
                case let .key(key):
                    s.scheduled.append(.init(time: t, event: .key(key, pressed: true), isKey: true, batch: batch))
                case .screenshot, .state:
                    continue  // refused by the HTTP side; never scheduled
                }
                count += 1
            }
            s.batches[batch] = .init(
                count: count, remaining: count, arrival: arrival, firstApplied: nil,
                continuation: continuation)
        }
    }

    /// Takes the scheduled events due by `now`, in time order (ties in arrival order).
    func takeDue(at now: Double) -> [Scheduled] {
        state.withLockedValue { s in
            guard s.scheduled.contains(where: { $0.time <= now }) else { return [] }
            let due = s.scheduled.filter { $0.time <= now }
            s.scheduled.removeAll { $0.time <= now }
            return due
        }
    }

    /// Counts `applied` (taken by `takeDue` and delivered) against their batches and returns the
    /// batches they finish, with their answers.
    func complete(_ applied: [Scheduled], at now: Double, frameNumber: Int) -> [Completion] {
        state.withLockedValue { s in
            s.injectedAtFrame = frameNumber
            var done: [Completion] = []
            for e in applied {
                guard var b = s.batches[e.batch] else { continue }
                b.remaining -= 1
                if b.firstApplied == nil { b.firstApplied = now }
                if b.remaining == 0 {
                    s.batches[e.batch] = nil
                    done.append(
                        (
                            b.continuation,
                            RemoteEventsReply(
                                count: b.count, arrival: b.arrival,
                                firstApplied: b.firstApplied ?? now,
                                lastApplied: now, frameNumber: frameNumber)
                        ))
                } else {
                    s.batches[e.batch] = b
                }
            }
            return done
        }
    }

    /// The latest loop time that pending work looks ahead to: the last scheduled event and the
    /// last waiter's deadline. A virtual clock runs up to it (see `RemoteAccess.pendingUntil`).
    var horizon: Double? {
        state.withLockedValue { s in
            let events = s.scheduled.map(\.time).max(), waits = s.waiters.map(\.deadline).max()
            return [events, waits].compactMap { $0 }.max()
        }
    }

    func addWaiter(_ waiter: Waiter) {
        state.withLockedValue { $0.waiters.append(waiter) }
    }

    /// Takes every waiter; those not answered go back with `putBack`.
    func takeWaiters() -> WaitRound {
        state.withLockedValue { s in
            defer { s.waiters.removeAll() }
            return WaitRound(waiters: s.waiters, eventsPending: !s.scheduled.isEmpty, injectedAtFrame: s.injectedAtFrame)
        }
    }

    func putBack(_ waiters: [Waiter]) {
        guard !waiters.isEmpty else { return }
        state.withLockedValue { $0.waiters.append(contentsOf: waiters) }
    }

    /// Fingers one live viewer holds at once: enough for a pinch, and the injected fingers the
    /// window follows are shared fairly among viewers instead of one taking them all.
    static let maxLiveFingers = 2

    /// The slot a live viewer's finger `id` is delivered on: the one it holds, or a fresh one
    /// when it goes down (or moves unseen); nil for a finger beyond `maxLiveFingers` (ignored).
    /// A lift gives the slot up.
    func liveSlot(viewer: Int, finger id: Int, phase: InputEvent.TouchPhase) -> Int? {
        state.withLockedValue { s in
            if let slot = s.liveFingers[viewer]?[id] {
                if phase == .up || phase == .cancel { s.liveFingers[viewer]?[id] = nil }
                return slot
            }
            guard (s.liveFingers[viewer]?.count ?? 0) < Self.maxLiveFingers else { return nil }
            let slot = s.freshSlot()
            if phase == .down || phase == .move { s.liveFingers[viewer, default: [:]][id] = slot }
            return slot
        }
    }

    /// Remembers where a live viewer pressed pointer button `code` (forgotten on release), so
    /// that it can be released if the viewer goes.
    func setLiveButton(viewer: Int, code: Int, pressedAt position: Point?) {
        state.withLockedValue { $0.liveButtons[viewer, default: [:]][code] = position }
    }

    /// Takes what a viewer that has gone still holds: its fingers' slots and pressed buttons.
    func takeLiveHoldings(viewer: Int) -> (fingers: [Int: Int], buttons: [Int: Point]) {
        state.withLockedValue { s in
            (s.liveFingers.removeValue(forKey: viewer) ?? [:], s.liveButtons.removeValue(forKey: viewer) ?? [:])
        }
    }

    /// Refuses new requests from now on and takes everything still waiting for an answer.
    func shutDown() -> (incoming: [RemoteRequest], batches: [Batch], waiters: [Waiter]) {
        state.withLockedValue { s in
            s.closed = true
            let r = (s.incoming, Array(s.batches.values), s.waiters)
            s.incoming.removeAll(); s.batches.removeAll(); s.waiters.removeAll(); s.scheduled.removeAll(); s.liveQueued.removeAll()
            return r
        }
    }
}
