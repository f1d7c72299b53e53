import Geometry
import Raster

/// What a frame loop needs from a remote-control server, so that board and headless
/// loops serve it without depending on the HTTP library: a descriptor to poll, a deadline to
/// wake for, and a call on the loop's thread that applies queued requests to the app.
package protocol RemoteAccess: AnyObject {
    /// Readable (POLLIN) whenever a request waits.
    var wakeFD: Int32 { get }
    /// The latest time (loop timeline, seconds) by which `pollRequests` must run again.
    var nextDeadline: Double? { get }
    /// Under a virtual clock (`--remote-clock virtual`): the loop time up to which the pending
    /// requests ask time to run (the last injected event, a `/wait`'s or `/clock`'s deadline),
    /// which the loop then runs to as fast as it can, frame by frame; nil: time stands still.
    /// Always nil under the wall clock.
    var pendingUntil: Double? { get }
    /// Serves queued requests against `app`; `screen` is the last presented canvas, `control`
    /// the output behind it (read back, switched off and on). Injected input goes to `deliver`,
    /// the loop's one door for input.
    func pollRequests(
        app: App, screen: PixelBuffer, rotation: Rotation, time: Double, frameNumber: Int,
        control: ScreenControl?, deliver: (InputEvent) -> Void)
    /// A frame changed `damage` (canvas pixels) of `screen`, which the panel shows turned by
    /// `rotation`: live viewers are sent what changed. Never waits for a viewer.
    func framePresented(_ screen: PixelBuffer, damage: Region, rotation: Rotation, frameNumber: Int)
    /// The loop has stopped: package requests are answered with 503.
    func loopStopped()
}

/// What the remote API may do to the screen besides the app: read the output's pixels back, and
/// switch it off and on (idle blanking's wake and blank).
package protocol ScreenControl: AnyObject {
    /// `FrameOutput.readBack`.
    func readBack() throws -> PixelBuffer
    var isScreenOn: Bool { get }
    /// Why it is on or off (the state JSON's `display.reason`).
    var screenReason: ScreenReason { get }
    /// Off: as idle blanking does it; on: as a waking touch, without a touch.
    func setScreen(on: Bool, at time: Double)
}
