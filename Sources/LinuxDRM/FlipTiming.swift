/// When frames reach the panel, from the kernel's page-flip timestamps: the vertical blank a
/// frame is drawn for (the next one on the grid of the last flip), and the blanks frames
/// missed (a flip that completed a period or more after the blank its frame was drawn for).
/// Timestamps that are zero, not finite or earlier than the last one (a driver's bug, a clock
/// jump) are counted and leave the grid as it was. Pure: times are passed in.
package struct FlipTiming: Sendable {
    package let refreshHz: Double
    /// The last usable flip timestamp (CLOCK_MONOTONIC seconds).
    package private(set) var lastFlip: Double?
    /// Flips completed, usable timestamp or not.
    package private(set) var flips = 0
    /// Vertical blanks missed by frames that were late.
    package private(set) var missedBlanks = 0
    /// Flip events whose timestamp could not be used.
    package private(set) var unusableTimestamps = 0
    /// Seconds from input events to the flip that showed them (their frame's flip), for
    /// `--stats`; at most `sampleLimit` kept.
    package private(set) var inputToFlip: [Double] = []
    /// Seconds between consecutive usable flip timestamps (idle gaps included), at most
    /// `sampleLimit` kept: a display paced by its vertical blank shows multiples of the period.
    package private(set) var flipIntervals: [Double] = []
    /// The input-to-flip latencies of the last flip alone (a fleet's metrics take them one
    /// flip at a time, however long the board runs).
    package private(set) var lastInputToFlip: [Double] = []
    package static let sampleLimit = 100_000
    /// The blank the frame being drawn is for.
    private var planned: Double?
    /// Frames handed to the display and not yet on screen, oldest first: the blank each is
    /// for and the times of the input it shows. One with double buffering (the queued flip);
    /// with triple buffering also the frame ready to flip when that one completes.
    private var pending: [(target: Double?, inputTimes: [Double])] = []

    package init(refreshHz: Double) {
        self.refreshHz = refreshHz.isFinite && refreshHz > 0 ? refreshHz : 60
    }

    package var period: Double { 1 / refreshHz }

    /// The first vertical blank after `now` on the grid of the last flip (`now` before any
    /// usable flip, or after an hour without one): the time to draw a frame for.
    package func nextBlank(after now: Double) -> Double {
        guard let lastFlip, now.isFinite, now >= lastFlip, now - lastFlip < 3600 else { return now }
        return lastFlip + (((now - lastFlip) / period).rounded(.down) + 1) * period
    }

    /// `nextBlank(after:)`, remembered as the blank the frame now drawn is meant for. A frame
    /// drawn while another waits for its blank is for a blank after that one.
    package mutating func plan(after now: Double) -> Double {
        var t = nextBlank(after: now)
        if let last = pending.last?.target, last.isFinite, last + period > t { t = last + period }
        planned = t
        return t
    }

    /// Frames handed to the display and not on screen yet.
    package var pendingFrames: Int { pending.count }

    /// The frame just drawn is handed to the display (its flip queued, or held until the
    /// queued flip completes); `inputTimes`: the input it is the first to show, on the flip
    /// timestamps' clock.
    package mutating func flipQueued(inputTimes: [Double] = []) {
        pending.append((planned, inputTimes))
        planned = nil
    }

    /// The last frame handed over will not flip (its flip failed, the display was released).
    package mutating func flipDropped() {
        if !pending.isEmpty { pending.removeLast() }
    }

    /// Nothing handed over will flip (the display was released or went away).
    package mutating func pendingDropped() { pending.removeAll() }

    /// The oldest queued flip completed at `time` (the event's timestamp).
    package mutating func flipCompleted(at time: Double) {
        flips += 1
        lastInputToFlip.removeAll(keepingCapacity: true)
        let frame = pending.isEmpty ? nil : pending.removeFirst()
        let target = frame?.target
        guard time.isFinite, time > 0, time >= (lastFlip ?? 0) else {
            unusableTimestamps += 1
            return
        }
        if let lastFlip, flipIntervals.count < Self.sampleLimit { flipIntervals.append(time - lastFlip) }
        lastFlip = time
        for input in frame?.inputTimes ?? [] where input.isFinite && input <= time {
            lastInputToFlip.append(time - input)
            if inputToFlip.count < Self.sampleLimit { inputToFlip.append(time - input) }
        }
        if let target, target.isFinite {
            let late = (time - target) / period
            // Half a period of slack: a timestamp a little after the blank is that blank.
            if late >= 0.5 { missedBlanks += Int(min(late, 1e6).rounded()) }
        }
        // Frames waiting behind this flip cannot reach the panel before the blanks after it:
        // their blanks move with a late flip, so they are not counted late for its delay.
        for i in pending.indices {
            let earliest = time + Double(i + 1) * period
            if let t = pending[i].target, t.isFinite, t < earliest { pending[i].target = earliest }
        }
    }
}
