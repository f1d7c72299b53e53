import Geometry
import Raster
import Runtime
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the HTTP side asks of the frame loop. Each request carries the continuation its handler
/// awaits; the loop answers on its own thread (the app is not Sendable and only the loop touches
/// it). A nil answer means the loop stopped before it could answer.
enum RemoteRequest: Sendable {
    case screenshot(ScreenshotSource, CheckedContinuation<RemoteScreenshot?, Never>)
    case state(CheckedContinuation<RemoteStateReply?, Never>)
    /// Switch the screen on or off; the reply is `{"on":…}`.
    case display(on: Bool, CheckedContinuation<RemoteStateReply?, Never>)
    /// A script to inject, as batch `batch` (numbered by `RemoteInbox.newBatch()`).
    case events(InputScript, batch: Int, CheckedContinuation<RemoteEventsReply?, Never>)
    case wait(timeout: Double, CheckedContinuation<RemoteWaitReply?, Never>)
    /// A live viewer has joined and needs the whole screen.
    case liveJoined(viewer: Int)
    /// A live viewer's input, applied when the loop takes it (its fingers get slots of their own).
    case liveInput(viewer: Int, InputScript.Action)
    /// A live viewer has gone: the fingers it holds are cancelled, its buttons released.
    case liveLeft(viewer: Int)

    var isWait: Bool { if case .wait = self { return true } else { return false } }
    /// Joins and leaves are never refused: there are at most `LiveScreen.maxViewers` of them,
    /// and a refused leave would leave a finger down.
    var isLiveMembership: Bool {
        switch self {
        case .liveJoined, .liveLeft: return true
        default: return false
        }
    }
    /// The events a batch brings (0 for other requests).
    var eventCount: Int { if case let .events(script, _, _) = self { return max(1, script.entries.count) } else { return 0 } }
}

/// Where `/screenshot.png` takes its pixels: the app's last presented canvas (`canvas`, the
/// default), or the output's own pixels read back from it (`scanout`: a board's writeback
/// connector, a headless display's screen), which proves the frame reached the display.
enum ScreenshotSource: String, Sendable {
    case canvas, scanout
}

/// A copy of the presented screen, taken on the loop thread; PNG encoding happens off the loop.
/// `failure`: why the source could not be read (then `image` is nil).
struct RemoteScreenshot: Sendable {
    var image: PixelBuffer?
    var frameNumber: Int
    var failure: String?
}

struct RemoteStateReply: Sendable {
    var json: String
}

/// When an injected script ran, on the loop's timeline (seconds, the same `t` as `/state`).
struct RemoteEventsReply: Sendable {
    var count: Int
    var arrival: Double
    var firstApplied: Double
    var lastApplied: Double
    /// Frames presented when the last event was applied: the next frame shows its effect.
    var frameNumber: Int
}

struct RemoteWaitReply: Sendable {
    var atRest: Bool
    var waited: Double
    var stateJSON: String
}

/// The queue between the HTTP handlers (any thread) and the frame loop (one thread), plus the
/// loop's own bookkeeping (scheduled events, waiters). Everything is behind one mutex; the app is
/// called only by `RemoteServer.pollRequests` on the loop thread, outside the lock.
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
        var continuation: CheckedContinuation<RemoteWaitReply?, Never>
    }
    struct State {
        var incoming: [RemoteRequest] = []
        var scheduled: [Scheduled] = []
        var batches: [Int: Batch] = [:]
        var waiters: [Waiter] = []
        var nextBatch = 0
        /// Touch slots for injected fingers: fresh numbers far from the kernel's (0...9) so an
        /// injected finger never collides with a real one or with another request's.
        var nextSlot = 1000
        /// Live viewers' fingers (their ids → slots) and pressed pointer buttons (→ where).
        var liveFingers: [Int: [Int: Int]] = [:]
        var liveButtons: [Int: [Int: Point]] = [:]
        /// Frames presented when input was last injected; rest needs a later frame.
        var injectedAtFrame = -1
        var closed = false

        /// A touch slot no finger holds (see `nextSlot`).
        mutating func freshSlot() -> Int {
            defer { nextSlot = nextSlot >= 1_000_000 ? 1000 : nextSlot + 1 }
            return nextSlot
        }
    }

    let state = Mutex(State())
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

    enum PostResult { case accepted, stopped, busy, busyEvents }
    /// Quick requests (screenshots, states, event batches) queued or running at most; more get
    /// 429. Long polls (`/wait`) are counted apart, under a limit far below it, so clients that
    /// wait can never take the room the quick requests need: a client opening too many waits
    /// gets 429 itself.
    static let maxOpenRequests = 256
    static let maxWaits = 16
    /// Event batches waiting for their times (a script may run 120 s) are counted apart too,
    /// under a small limit and a bound on the events they hold: batches scheduled far ahead
    /// can never lock out `/state` and screenshots, nor hold more than a few megabytes.
    static let maxScheduledBatches = 16
    static let maxScheduledEvents = 20_000

    /// A number for a batch of events, made before it is posted so that the batch can be
    /// dropped whenever its client goes away.
    func newBatch() -> Int {
        state.withLock { s in
            defer { s.nextBatch += 1 }
            return s.nextBatch
        }
    }

    /// The client of `batch` has gone: its events not yet applied are dropped, except that a
    /// finger it put down is cancelled and a pointer button it pressed is released at once (a
    /// dropped lift would leave them down for good). Its handler is answered with nil.
    func drop(batch: Int) {
        let continuation = state.withLock { s -> CheckedContinuation<RemoteEventsReply?, Never>? in
            if let i = s.incoming.firstIndex(where: { if case let .events(_, b, _) = $0 { b == batch } else { false } }),
               case let .events(_, _, c) = s.incoming.remove(at: i) {
                return c
            }
            guard let b = s.batches.removeValue(forKey: batch) else { return nil }
            var endings: [Scheduled] = []
            for e in s.scheduled where e.batch == batch {
                switch e.event {
                case let .touch(.up, slot, p), let .touch(.cancel, slot, p):
                    endings.append(.init(time: 0, event: .touch(.cancel, slot: slot, position: p), isKey: false, batch: Scheduled.noBatch))
                case let .pointerButton(code, false, p):
                    endings.append(.init(time: 0, event: .pointerButton(code: code, pressed: false, position: p), isKey: false,
                                         batch: Scheduled.noBatch))
                default: break
                }
            }
            s.scheduled.removeAll { $0.batch == batch }
            s.scheduled.insert(contentsOf: endings, at: 0)
            return b.continuation
        }
        continuation?.resume(returning: nil)
        var w: UInt8 = 1
        _ = write(wakeWriteFD, &w, 1)
    }

    /// Queues a request for the loop (or refuses it: loop stopped, too many open requests).
    func post(_ request: RemoteRequest) -> PostResult {
        let result = state.withLock { s -> PostResult in
            guard !s.closed else { return .stopped }
            let queuedWaits = s.incoming.count { $0.isWait }
            let queuedBatches = s.incoming.count { $0.eventCount > 0 }
            if request.isLiveMembership {
                // Always taken (see `isLiveMembership`).
            } else if request.isWait {
                guard s.waiters.count + queuedWaits < Self.maxWaits else { return .busy }
            } else if request.eventCount > 0 {
                let held = s.scheduled.count + s.incoming.reduce(0) { $0 + $1.eventCount }
                guard s.batches.count + queuedBatches < Self.maxScheduledBatches,
                      held + request.eventCount <= Self.maxScheduledEvents else { return .busyEvents }
            } else {
                let queuedMemberships = s.incoming.count { $0.isLiveMembership }
                guard s.incoming.count - queuedWaits - queuedBatches - queuedMemberships < Self.maxOpenRequests else { return .busy }
            }
            s.incoming.append(request)
            return .accepted
        }
        if result == .accepted {
            var b: UInt8 = 1
            _ = write(wakeWriteFD, &b, 1)   // a full pipe already means "wake up"
        }
        return result
    }

    func drainWakeups() {
        var buf = [UInt8](repeating: 0, count: 256)
        while buf.withUnsafeMutableBytes({ read(wakeReadFD, $0.baseAddress, 256) }) > 0 {}
    }
}

package enum RemoteError: Error, CustomStringConvertible, Sendable {
    case system(operation: String, errno: Int32)
    case badAddress(String)
    case tokenRequired(host: String)
    case badToken
    case bindFailed(String)

    package var description: String {
        switch self {
        case let .system(op, e): return "\(op) failed: \(String(cString: strerror(e)))"
        case let .badAddress(s): return "bad remote address '\(excerpt(s))': expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
        case let .tokenRequired(host):
            return "listening on \(host) (not loopback) requires a token: pass --remote-token or --remote-token-file"
        case .badToken: return "the remote token must be at least 8 characters without spaces (it is not repeated here)"
        case let .bindFailed(s): return "remote control server could not start: \(s)"
        }
    }
}
