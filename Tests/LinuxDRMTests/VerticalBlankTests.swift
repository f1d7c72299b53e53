@testable import LinuxDRM
import Testing

/// Frames are rendered for the time they reach the panel: the next vertical blank on the grid
/// of the last completed flip.
@Suite struct VerticalBlankTests {
    @Test func theNextBlankAfterNowOnTheFlipGrid() {
        let period = 1.0 / 60
        #expect(DRMDisplay.verticalBlank(after: 10.005, lastFlip: 10, refreshHz: 60) == 10 + period)
        #expect(DRMDisplay.verticalBlank(after: 10, lastFlip: 10, refreshHz: 60) == 10 + period)
        // Idle for a while: still on the grid, the blank after now.
        let later = DRMDisplay.verticalBlank(after: 12.51, lastFlip: 10, refreshHz: 60)
        #expect(later > 12.51 && later - 12.51 <= period)
        #expect(abs(((later - 10) / period).rounded() - (later - 10) / period) < 1e-6)
    }

    @Test func withoutAFlipOrWithBadFiguresItIsNow() {
        #expect(DRMDisplay.verticalBlank(after: 5, lastFlip: nil, refreshHz: 60) == 5)
        #expect(DRMDisplay.verticalBlank(after: 5, lastFlip: 6, refreshHz: 60) == 5)
        #expect(DRMDisplay.verticalBlank(after: 5, lastFlip: 4, refreshHz: 0) == 5)
        #expect(DRMDisplay.verticalBlank(after: 5, lastFlip: .nan, refreshHz: 60) == 5)
    }
}
