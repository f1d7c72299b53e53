import Raster

/// What a frame loop needs from a remote-control server (REM-1), so that board and headless
/// loops serve it without depending on the HTTP library: a descriptor to poll, a deadline to
/// wake for, and a call on the loop's thread that applies queued requests to the app.
public protocol RemoteAccess: AnyObject {
    /// Readable (POLLIN) whenever a request waits.
    var wakeFD: Int32 { get }
    /// The latest time (loop timeline, seconds) by which `pollRequests` must run again.
    var nextDeadline: Double? { get }
    /// Serves queued requests against `app`; `screen` is the last presented canvas. Returns
    /// true when input was injected (the loop should draw).
    func pollRequests(app: App, screen: PixelBuffer, rotation: Rotation, time: Double, frameNumber: Int) -> Bool
    /// The loop has stopped: open requests are answered with 503.
    func loopStopped()
}
