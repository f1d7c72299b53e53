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
    /// The app's timers and work posted from other threads, run by the loop on its clock;
    /// nil for an app without any.
    var scheduler: LoopScheduler? { get }
    /// Takes the runtime's settings for this run (board config or command line): before the
    /// first frame, and again with just what changed (a keyboard plugged in or pulled out).
    func apply(_ settings: AppSettings)
    /// The threads that draw the app's frames in bands; a display copies frames to the screen
    /// in the same bands.
    var bandRenderer: BandRenderer { get }
    /// What the app's caches hold, for `--stats`; nil for an app that keeps no count.
    var memoryReport: String? { get }
    /// Bytes of decoded pictures the app keeps (its picture store and their halved copies),
    /// for a fleet's metrics.
    var pictureStoreBytes: Int { get }
    /// Times the app went back to its start after a time without input.
    var idleResets: Int { get }
    /// Where the view with `id` shows now, in canvas pixels; nil when none shows (for a
    /// screenshot's mask).
    func pixelFrame(ofViewWithID id: String) -> IntRect?
    /// Lays out what changed now rather than in the next frame, so that `run --timing` gives the
    /// first frame's drawing alone; an app that lays out nothing ahead does nothing.
    func layoutIfNeeded()
    /// The panel went off (outside the display schedule's hours, idle, the remote API) or came
    /// on again; the app may pause what nobody sees.
    func displayPowerChanged(on: Bool)
}

extension App {
    package var scheduler: LoopScheduler? { nil }
    package func isStill(at t: Double) -> Bool { isAtRest(at: t) }
    package func apply(_ settings: AppSettings) {}
    package var bandRenderer: BandRenderer { BandRenderer(threads: 1) }
    package var memoryReport: String? { nil }
    package var pictureStoreBytes: Int { 0 }
    package var idleResets: Int { 0 }
    package func pixelFrame(ofViewWithID id: String) -> IntRect? { nil }
    package func layoutIfNeeded() {}
    package func displayPowerChanged(on: Bool) {}
}

/// What the runtime knows that the app's views follow: the device's keyboards and sound, the
/// person's text size, contrast and screen reader, the threads and memory to use. Each field
/// left nil leaves the app's own choice alone, so an update can carry one field.
package struct AppSettings {
    /// Threads a frame is drawn on, in bands.
    package var renderThreads: Int?
    /// Bytes the app's picture and glyph caches may hold beyond what the screen shows.
    package var memoryBudget: Int?
    /// Pictures decode on worker threads and show when ready (on a board a frame never waits
    /// for a decoder); off, a frame decodes what it shows.
    package var decodesImagesInBackground: Bool?
    /// The font chain (`fonts`, `--fonts`): files in the fonts folder or absolute paths.
    package var fonts: [String]?
    /// The on-screen keyboard's layout (`en`, `de`, `fr`, `es`, `it`, `pt`, `nl`, `pl`, `tr`, `ru`,
    /// `uk`, `el`, `ja`, `ar`, `he`, `fa`).
    package var keyboardLayout: String?
    /// Which way the app lays out: `ltr`, `rtl`, or `auto` (as the app's language is read).
    package var layoutDirection: String?
    /// The app's language, a BCP 47 tag (`ar`, `de-CH`).
    package var language: String?
    /// Seconds without input before the app returns to its start (0: never).
    package var idleResetSeconds: Double?
    /// When the on-screen keyboard shows: `automatic`, `always` or `never`.
    package var onScreenKeyboard: String?
    /// Seconds a key is held before it repeats, and repeats a second after that.
    package var keyRepeatDelay: Double?
    package var keyRepeatRate: Double?
    /// A physical keyboard is attached (the automatic on-screen keyboard then stays away).
    package var hasHardwareKeyboard: Bool?
    /// What the keypad's keys do for the screen reader.
    package var keypadMapping: KeypadMapping?
    /// Where the screen reader speaks.
    package var speech: SpeechOutput?
    package var isScreenReaderEnabled: Bool?
    /// Text size, 1 = 100%.
    package var textScale: Double?
    package var isHighContrast: Bool?
    /// `light`, `dark`, or a schedule `HH:MM-HH:MM` (dark between those times of day).
    package var colorScheme: String?

    package init() {}
}
