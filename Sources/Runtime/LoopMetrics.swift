import AppContract

/// What a frame loop tells a fleet's metrics as it happens (the remote API's `/metrics`): each
/// frame drawn, each touch, the screen's power and, once a second while frames are drawn, the
/// app's own figures. Called on the loop's thread; an implementation records and returns.
package protocol LoopMetrics: AnyObject {
    /// A frame was rendered in `seconds` (the loop's clock); `presented`: it changed the screen.
    func frameDrawn(seconds: Double, presented: Bool)
    /// Input reached the screen `seconds` after its own time: at its flip on a board, at the
    /// present of its frame where the output completes flips at once.
    func inputShown(after seconds: Double)
    /// Vertical blanks missed by late frames, `count` more.
    func blanksMissed(_ count: Int)
    /// A finger came down (on a dark screen too: the touch that wakes it).
    func touchBegan()
    /// The panel was switched on or off; `idle`: off because nobody touched it for a while.
    func screenPowered(on: Bool, idle: Bool)
    /// Whether the display schedule has the screen on now (always, without a schedule).
    func openingHours(_ open: Bool)
    /// The app's figures now: the picture store's bytes and its idle resets so far.
    func sample(_ app: App)
}
