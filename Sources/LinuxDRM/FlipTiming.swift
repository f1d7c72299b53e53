/// When frames reach the panel, from the kernel's page-flip timestamps: the vertical blank a
/// frame is drawn for (the next one on the grid of the last flip), and the blanks frames
/// missed (a flip that completed a period or more after the blank its frame was drawn for).
/// Timestamps that are zero, not finite or earlier than the last one (a driver's bug, a clock
/// jump) are counted and leave the grid as it was. Pure: times are passed in.
public struct FlipTiming: Sendable {
    public let refreshHz: Double
    /// The last usable flip timestamp (CLOCK_MONOTONIC seconds).
    public private(set) var lastFlip: Double?
    /// Flips completed, usable timestamp or not.
    public private(set) var flips = 0
    /// Vertical blanks missed by frames that were late.
    public private(set) var missedBlanks = 0
    /// Flip events whose timestamp could not be used.
    public private(set) var unusableTimestamps = 0
    /// The blank the frame being drawn is for, then the blank the queued flip is for.
    private var planned: Double?
    private var queued: Double?

    public init(refreshHz: Double) {
        self.refreshHz = refreshHz.isFinite && refreshHz > 0 ? refreshHz : 60
    }

    public var period: Double { 1 / refreshHz }

    /// The first vertical blank after `now` on the grid of the last flip (`now` before any
    /// usable flip, or after an hour without one): the time to draw a frame for.
    public func nextBlank(after now: Double) -> Double {
        guard let lastFlip, now.isFinite, now >= lastFlip, now - lastFlip < 3600 else { return now }
        return lastFlip + (((now - lastFlip) / period).rounded(.down) + 1) * period
    }

    /// `nextBlank(after:)`, remembered as the blank the frame now drawn is meant for.
    public mutating func plan(after now: Double) -> Double {
        let t = nextBlank(after: now)
        planned = t
        return t
    }

    /// The frame's flip is queued.
    public mutating func flipQueued() {
        queued = planned
        planned = nil
    }

    /// The queued flip completed at `time` (the event's timestamp).
    public mutating func flipCompleted(at time: Double) {
        flips += 1
        let target = queued
        queued = nil
        guard time.isFinite, time > 0, time >= (lastFlip ?? 0) else {
            unusableTimestamps += 1
            return
        }
        lastFlip = time
        if let target, target.isFinite {
            let late = (time - target) / period
            // Half a period of slack: a timestamp a little after the blank is that blank.
            if late >= 0.5 { missedBlanks += Int(min(late, 1e6).rounded()) }
        }
    }
}
