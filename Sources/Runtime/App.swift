import Geometry
import Raster

/// What a frame loop drives: the UI of one app. Backends (DRM, headless, remote) only talk to
/// this, so they never know about views or scrolling.
package protocol App: AnyObject {
    /// Applies one input event (canvas pixels, seconds on the loop's timeline).
    func handle(_ event: InputEvent)
    /// Draws the frame for time `t` into `frame` (the app's shadow buffer, which still holds the
    /// previous frame) and returns what changed, in canvas pixels.
    func render(into frame: PixelBuffer, at t: Double) -> Region
    /// True when nothing animates at `t` and no gesture is under way: the loop may sleep until
    /// input arrives (and `/wait?until=rest` answers).
    func isAtRest(at t: Double) -> Bool
    /// True when the screen would not change from `t` until the next input or timer, even
    /// though a finger may be down (resting on a list, holding a drag still): the loop draws
    /// nothing meanwhile, so a finger held for a day costs what a day at rest costs.
    func isStill(at t: Double) -> Bool
    /// The canvas changed size (mode change, rotation); the next render is a full one.
    func resize(width: Int, height: Int)
    /// The UI state as JSON (scroll views, page controls, focus) at `t`, for tests and remote
    /// control.
    func stateJSON(at t: Double, frameNumber: Int) -> String
    /// The app's timers and work posted from other threads (APP-2), run by the loop on its clock;
    /// nil for an app without any.
    var scheduler: LoopScheduler? { get }
}

extension App {
    package var scheduler: LoopScheduler? { nil }
    package func isStill(at t: Double) -> Bool { isAtRest(at: t) }
}
