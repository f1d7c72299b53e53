import AppContract
import NIOConcurrencyHelpers

/// Slows token guessing per client address: after a few wrong tokens from one address, that
/// address must wait before its next attempt is even checked, twice as long after each further
/// failure, up to a bound. Other addresses are never slowed by it, and a client that stops
/// failing is forgotten after a quiet while.
final class AttemptThrottle: Sendable {
    /// Failures allowed before any wait (a mistyped token, a stale cookie).
    static let freeFailures = 3
    static let firstWait = 0.5
    static let longestWait = 30.0
    /// Failures are forgotten this long after the last one.
    static let memory = 600.0
    /// Addresses remembered at most; the one that failed longest ago goes first.
    static let capacity = 4096

    private struct Entry {
        var failures: Int
        var last: Double
        var until: Double
    }
    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    /// Seconds on a monotonic clock: passed in, so that tests set the time.
    private let now: @Sendable () -> Double

    init(now: @escaping @Sendable () -> Double = monotonicSeconds) { self.now = now }

    /// Seconds `address` must still wait before an attempt is checked; 0 when it may try.
    func wait(for address: String) -> Double {
        let t = now()
        return entries.withLockedValue { max(0, ($0[address]?.until ?? t) - t) }
    }

    /// Records a wrong token from `address`; returns the wait it now has.
    @discardableResult
    func failed(from address: String) -> Double {
        let t = now()
        return entries.withLockedValue { table in
            var entry = table[address].flatMap { t - $0.last < Self.memory ? $0 : nil } ?? Entry(failures: 0, last: t, until: t)
            entry.failures += 1
            entry.last = t
            let excess = entry.failures - Self.freeFailures
            let wait = excess <= 0 ? 0 : min(Self.longestWait, Self.firstWait * Double(1 << min(excess - 1, 16)))
            entry.until = t + wait
            if table[address] == nil, table.count >= Self.capacity, let oldest = table.min(by: { $0.value.last < $1.value.last }) {
                table[oldest.key] = nil
            }
            table[address] = entry
            return wait
        }
    }
}
