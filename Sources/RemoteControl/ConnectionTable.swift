import Logging
import NIOCore
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

/// The server's open connections, at most `limit` at once. Each holds a file descriptor, and a
/// process out of descriptors fails anywhere: libdispatch kills it when it cannot open
/// `/proc/self/task/N/stat`. So connections get at most a quarter of the process's descriptor
/// limit, the rest being the app's (its files, display, input devices and threads). One over the
/// bound takes the place of the oldest idle connection (no request in progress: what an attacker
/// holds open costs a real client nothing to reopen), or is closed unread when none is idle.
final class ConnectionTable: Sendable {
    let limit: Int
    private struct Entry {
        let channel: any Channel
        let order: Int
        var busy = false
        var inputClosed = false
    }
    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var opened = 0
    }
    private let state = NIOLockedValueBox(State())
    private let log: RefusalLog

    init(limit: Int, log: RefusalLog) {
        self.limit = max(1, limit)
        self.log = log
    }

    /// A quarter of the soft RLIMIT_NOFILE as the process starts, between 8 and 512.
    static var defaultLimit: Int {
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 64 }
        let soft = Int(clamping: limits.rlim_cur)  // RLIM_INFINITY is the largest value
        return max(8, min(soft / 4, 512))
    }

    /// Takes a newly accepted connection; false when it must be closed unread (every place is
    /// held by a connection with a request in progress).
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, evicted) = state.withLockedValue { s -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if s.entries.count >= limit {
                guard let oldest = s.entries.lazy.filter({ !$0.value.busy }).min(by: { $0.value.order < $1.value.order }) else {
                    return (false, nil)
                }
                s.entries[oldest.key] = nil
                evicted = oldest.value.channel
            }
            s.opened += 1
            s.entries[ObjectIdentifier(channel)] = Entry(channel: channel, order: s.opened)
            return (true, evicted)
        }
        if let evicted {
            evicted.closeQuietly()
            log.warning("remote: \(limit) connections open (a quarter of the descriptor limit): the oldest idle one closed")
        } else if !admitted {
            log.warning("remote: \(limit) connections open (a quarter of the descriptor limit), all busy: a new one refused")
        }
        if admitted { channel.closeFuture.whenComplete { _ in self.remove(channel) } }
        return admitted
    }

    /// Whether `channel` has a request in progress (or is a live viewer's socket): such a
    /// connection is never closed to make room.
    func setBusy(_ channel: any Channel, _ busy: Bool) {
        update(channel) { $0.busy = busy }
    }

    /// The client has shut its side: it will read no reply (see `isInputClosed`).
    func setInputClosed(_ channel: any Channel) {
        update(channel) { $0.inputClosed = true }
    }

    func isInputClosed(_ channel: any Channel) -> Bool {
        state.withLockedValue { $0.entries[ObjectIdentifier(channel)].map { $0.channel === channel && $0.inputClosed } ?? true }
    }

    private func update(_ channel: any Channel, _ change: (inout Entry) -> Void) {
        state.withLockedValue { s in
            let id = ObjectIdentifier(channel)
            guard var entry = s.entries[id], entry.channel === channel else { return }
            change(&entry)
            s.entries[id] = entry
        }
    }

    private func remove(_ channel: any Channel) {
        state.withLockedValue { s in
            let id = ObjectIdentifier(channel)
            if s.entries[id]?.channel === channel { s.entries[id] = nil }
        }
    }
}

/// Lines about refused requests and connections, at most `perSecond` a second: whoever sends
/// refusals fast must not fill the journal (and the disk) with them. What is left out is counted
/// and said in one line when the next second's first refusal is logged.
final class RefusalLog: Sendable {
    let logger: Logger
    let perSecond: Int
    private struct State {
        var since: ContinuousClock.Instant?
        var logged = 0
        var unlogged = 0
    }
    private let state = NIOLockedValueBox(State())

    init(logger: Logger, perSecond: Int = 10) {
        self.logger = logger
        self.perSecond = perSecond
    }

    /// The longest request path a line repeats: enough to recognise it, never a 60 KB one.
    static let pathLimit = 200

    func warning(_ message: @autoclosure () -> String) {
        let now = ContinuousClock.now
        let (logs, unlogged) = state.withLockedValue { s -> (Bool, Int) in
            var unlogged = 0
            if s.since.map({ now - $0 >= .seconds(1) }) ?? true {
                unlogged = s.unlogged
                s = State(since: now)
            }
            guard s.logged < perSecond else {
                s.unlogged += 1
                return (false, unlogged)
            }
            s.logged += 1
            return (true, unlogged)
        }
        if unlogged > 0 { logger.warning("remote: \(unlogged) refusals not logged (more than \(perSecond) a second)") }
        if logs { logger.warning("\(message())") }
    }
}

extension Channel {
    /// Closes a connection that has no request in progress without "Error handling upgrade
    /// result" in the log: the WebSocket upgrade handler, still waiting for a request, fails
    /// with an error when it is removed, and quietly when the input closes first.
    func closeQuietly() {
        pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        close(promise: nil)
    }
}
