@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import AppContract

/// The app's clock: timers, work posted from other threads and channels, run by the
/// frame loop on the window's scheduler.
extension Window {
    /// Runs `action` every `seconds` on the loop's clock (headless: at exact virtual times),
    /// first `seconds` after now, or after the first frame when called before the loop runs.
    @discardableResult
    public func every(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.every(seconds, action)
    }

    /// Runs `action` once, `seconds` from now on the loop's clock.
    @discardableResult
    public func after(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.after(seconds, action)
    }

    /// Runs `work` on the loop's thread before the next frame; call it from any thread (it
    /// wakes a sleeping loop). To hand a result to views, use a `channel`: its handler runs on
    /// the loop and may touch views, while only the value crosses threads.
    @discardableResult
    public func post(_ work: @escaping @Sendable () -> Void) -> Bool { timers.post(work) }

    /// A mailbox whose `receive` runs on the loop's thread for each value sent from any thread.
    public func channel<Value: Sendable>(_ receive: @escaping (Value) -> Void) -> LoopChannel<Value> {
        timers.channel(receive)
    }

    /// The loop's time: inside a timer, the time it was due; else the time the loop last ran
    /// its timers (before each frame and input), or the latest frame or input before the loop ran.
    public var time: Double { timers.now ?? currentTime }
}
