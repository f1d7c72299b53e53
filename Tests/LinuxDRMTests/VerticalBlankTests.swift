import LinuxDRM
import Testing

/// Frames are drawn for the time they reach the panel, the next vertical blank on the grid of
/// the last completed flip, and a frame whose flip comes a period or more after that blank
/// counts as missed blanks.
@Suite struct VerticalBlankTests {
    /// A timing whose last flip was at `flip`.
    static func timing(flippedAt flip: Double?, hz: Double = 60) -> FlipTiming {
        var t = FlipTiming(refreshHz: hz)
        if let flip { t.flipCompleted(at: flip) }
        return t
    }

    @Test func theNextBlankAfterNowOnTheFlipGrid() {
        let period = 1.0 / 60
        let timing = Self.timing(flippedAt: 10)
        #expect(timing.nextBlank(after: 10.005) == 10 + period)
        #expect(timing.nextBlank(after: 10) == 10 + period)
        // Idle for a while: still on the grid, the blank after now.
        let later = timing.nextBlank(after: 12.51)
        #expect(later > 12.51 && later - 12.51 <= period)
        #expect(abs(((later - 10) / period).rounded() - (later - 10) / period) < 1e-6)
    }

    @Test func withoutAFlipOrWithBadFiguresItIsNow() {
        #expect(Self.timing(flippedAt: nil).nextBlank(after: 5) == 5)
        #expect(Self.timing(flippedAt: 6).nextBlank(after: 5) == 5)
        #expect(abs(Self.timing(flippedAt: 4, hz: 0).nextBlank(after: 5) - (4 + 61.0 / 60)) < 1e-9)  // a bad rate is 60 Hz
        #expect(Self.timing(flippedAt: .nan).nextBlank(after: 5) == 5)
        #expect(Self.timing(flippedAt: 4).nextBlank(after: .infinity) == .infinity)
    }

    /// Frames drawn each period at 60 Hz, flips on time, then one frame whose flip comes two
    /// blanks late: two missed; the grid follows the late flip.
    @Test func aLateFlipCountsTheBlanksItMissed() {
        let period = 1.0 / 60
        var t = Self.timing(flippedAt: 100)
        var flip = 100.0
        for _ in 0..<3 {
            let target = t.plan(after: flip + 0.004)
            #expect(target == flip + period)
            t.flipQueued()
            flip = target + 0.0002  // the kernel's timestamp, a little after the blank
            t.flipCompleted(at: flip)
        }
        #expect(t.missedBlanks == 0 && t.flips == 4)
        let target = t.plan(after: flip + 0.004)
        t.flipQueued()
        t.flipCompleted(at: target + 2 * period)
        #expect(t.missedBlanks == 2)
        #expect(t.lastFlip == target + 2 * period)
        // A frame drawn without a flip after it (nothing changed) is not counted.
        _ = t.plan(after: t.lastFlip! + 1)
        t.flipCompleted(at: t.lastFlip! + 1.5)
        #expect(t.missedBlanks == 2)
    }

    /// Timestamps of zero, NaN or going backwards are counted and change nothing else.
    @Test func unusableTimestampsLeaveTheGridAlone() {
        var t = Self.timing(flippedAt: 50)
        for bad in [0, -1, .nan, .infinity, 49.99] {
            _ = t.plan(after: 50.001)
            t.flipQueued()
            t.flipCompleted(at: bad)
        }
        #expect(t.unusableTimestamps == 5)
        #expect(t.flips == 6)
        #expect(t.lastFlip == 50)
        #expect(t.missedBlanks == 0)
        #expect(t.nextBlank(after: 50.001) == 50 + 1.0 / 60)
    }

    /// Triple buffering: a frame drawn while a flip is pending is for the blank after that
    /// flip's; both complete in order, and each frame's input is measured to its own flip.
    @Test func aFrameHeldBehindAPendingFlipIsForTheFollowingBlank() {
        let period = 1.0 / 60
        var t = Self.timing(flippedAt: 10)
        let first = t.plan(after: 10.002)
        #expect(first == 10 + period)
        t.flipQueued(inputTimes: [10.001])
        let second = t.plan(after: 10.015)  // still before the first flip
        #expect(abs(second - (10 + 2 * period)) < 1e-12)
        t.flipQueued(inputTimes: [10.012, 10.013])
        #expect(t.pendingFrames == 2)
        t.flipCompleted(at: first)
        t.flipCompleted(at: second)
        #expect(t.missedBlanks == 0 && t.pendingFrames == 0)
        #expect(t.inputToFlip.count == 3)
        #expect(abs(t.inputToFlip[0] - (first - 10.001)) < 1e-12)
        #expect(abs(t.inputToFlip[2] - (second - 10.013)) < 1e-12)
        #expect(t.flipIntervals.count == 2)
        #expect(t.flipIntervals.allSatisfy { abs($0 - period) < 1e-9 })
    }

    /// A frame whose flip failed is forgotten; one released with the display too.
    @Test func droppedFramesAreNotWaitedFor() {
        var t = Self.timing(flippedAt: 20)
        _ = t.plan(after: 20.001)
        t.flipQueued(inputTimes: [20])
        t.flipDropped()
        #expect(t.pendingFrames == 0)
        // The next frame's blank is on the grid again, not behind the dropped one.
        #expect(t.plan(after: 20.001) == 20 + 1.0 / 60)
        t.flipQueued()
        _ = t.plan(after: 20.002)
        t.flipQueued()
        t.pendingDropped()
        #expect(t.pendingFrames == 0)
        // An input time after the flip (another clock) is not a latency.
        _ = t.plan(after: 20.003)
        t.flipQueued(inputTimes: [25])
        t.flipCompleted(at: 20 + 1.0 / 60)
        #expect(t.inputToFlip.isEmpty)
    }

    /// Triple buffering through a hiccup: one flip comes a blank late, and the frames already
    /// drawn behind it each flip a period after the one before. Only that one blank was
    /// missed; the frames behind it were not late, they waited their turn. (Counted against
    /// their planned blanks, every frame after the hiccup counted one: a board's --stats
    /// reported 216 missed blanks in 260 flips spaced exactly one period apart.)
    @Test func framesHeldBehindALateFlipAreNotLateThemselves() {
        let period = 1.0 / 60
        var t = Self.timing(flippedAt: 30)
        var flip = 30.0
        // A pipeline kept full: a frame queued and one held behind it, at every completion.
        _ = t.plan(after: flip + 0.001); t.flipQueued()
        _ = t.plan(after: flip + 0.002); t.flipQueued()
        for i in 0..<20 {
            flip += i == 3 ? 2 * period : period  // the fourth flip misses one blank
            t.flipCompleted(at: flip)
            _ = t.plan(after: flip + 0.001); t.flipQueued()
        }
        #expect(t.flips == 21)
        #expect(t.missedBlanks == 1)
        #expect(t.flipIntervals.filter { abs($0 - period) < 1e-9 }.count == 19)
    }
}
