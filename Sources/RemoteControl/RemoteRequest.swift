import Raster
import Runtime

/// What the HTTP side asks of the frame loop. Each request carries the continuation its handler
/// awaits; the loop answers on its own thread (the app is not Sendable and only the loop touches
/// it). A nil answer means the loop stopped before it could answer.
enum RemoteRequest: Sendable {
    /// With the views of the ids (the second) painted over: what changes by itself (a clock, a
    /// caret) left out of a golden.
    case screenshot(ScreenshotSource, [String], CheckedContinuation<RemoteScreenshot?, Never>)
    case state(CheckedContinuation<RemoteStateReply?, Never>)
    /// The accessibility audit of the screen as presented, for these rules (nil: all).
    case audit(rules: [String]?, CheckedContinuation<RemoteStateReply?, Never>)
    /// Switch the screen on or off; the answer is whether it is on afterwards.
    case display(on: Bool, CheckedContinuation<RemoteDisplayReply?, Never>)
    /// A script to inject, as batch `batch` (numbered by `RemoteInbox.newBatch()`).
    case events(InputScript, batch: Int, CheckedContinuation<RemoteEventsReply?, Never>)
    /// Answered at rest or after `timeout` seconds; with `untilRest` false, after them only (a
    /// virtual clock's explicit advance).
    case wait(timeout: Double, untilRest: Bool, CheckedContinuation<RemoteWaitReply?, Never>)
    /// A live viewer has joined and needs the whole screen.
    case liveJoined(viewer: Int)
    /// A live viewer's input, applied when the loop takes it (its fingers get slots of their own).
    case liveInput(viewer: Int, InputScript.Action)
    /// A live viewer has gone: the fingers it holds are cancelled, its buttons released.
    case liveLeft(viewer: Int)
    /// A scrape of `/metrics` asks whether the loop still turns: the loop notes the answer in the
    /// metrics, and the next scrape reads it (a scrape never waits for the loop).
    case metricsPing

    var isWait: Bool { if case .wait = self { return true } else { return false } }
    /// Joins and leaves are never refused: there are at most `LiveScreen.maxViewers` of them,
    /// and a refused leave would leave a finger down.
    var isLiveMembership: Bool {
        switch self {
        case .liveJoined, .liveLeft, .metricsPing: return true
        default: return false
        }
    }
    /// The events a batch brings (0 for other requests).
    var eventCount: Int { if case let .events(script, _, _) = self { return max(1, script.entries.count) } else { return 0 } }

    /// Tells the handler waiting for this request that the loop has stopped (it answers 503).
    func answerStopped() {
        switch self {
        case let .screenshot(_, _, c): c.resume(returning: nil)
        case let .state(c): c.resume(returning: nil)
        case let .audit(_, c): c.resume(returning: nil)
        case let .display(_, c): c.resume(returning: nil)
        case let .events(_, _, c): c.resume(returning: nil)
        case let .wait(_, _, c): c.resume(returning: nil)
        case .liveJoined, .liveInput, .liveLeft, .metricsPing: break
        }
    }
}

/// Where `/screenshot.png` takes its pixels: the app's last presented canvas (`canvas`, the
/// default), or the output's own pixels read back from it (`scanout`: a board's writeback
/// connector, a headless display's screen), which proves the frame reached the display.
enum ScreenshotSource: String, Sendable {
    case canvas, scanout
}

/// A copy of the presented screen, taken on the loop thread; PNG encoding happens off the loop.
/// `failure`: why the source could not be read (then `image` is nil).
struct RemoteScreenshot: Sendable {
    var image: PixelBuffer?
    var frameNumber: Int
    var failure: String?
    /// Ids of the mask that no view on screen has.
    var missing: [String] = []
}

/// The app's state JSON with the display's, as the loop wrote it (sent on unchanged).
struct RemoteStateReply: Sendable {
    var json: String
}

/// Whether the screen is on after `POST /display`; on the wire `{"on":…}`.
struct RemoteDisplayReply: Sendable, Encodable {
    var on: Bool
}

/// When an injected script ran, on the loop's timeline (seconds, the same `t` as `/state`).
struct RemoteEventsReply: Sendable {
    var count: Int
    var arrival: Double
    var firstApplied: Double
    var lastApplied: Double
    /// Frames presented when the last event was applied: the next frame shows its effect.
    var frameNumber: Int
}

struct RemoteWaitReply: Sendable {
    var atRest: Bool
    var waited: Double
    var stateJSON: String
}
