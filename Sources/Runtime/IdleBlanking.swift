/// How a dark screen is made: the connector's DPMS property, the panel's backlight, or a black
/// frame (what every display can show).
package enum BlankMethod: String, Sendable {
    case dpms, backlight, black
}

/// Switches a panel off and on (DPMS, a backlight). I/O lives in the implementations; the frame
/// driver only says when.
package protocol ScreenPower: AnyObject {
    /// What it switches, for the log: "DPMS of HDMI-A-1", "backlight intel_backlight".
    var name: String { get }
    func setPower(on: Bool) throws
}

/// When the screen goes dark and which input only wakes it. Pure: times are passed in.
///
/// After `idleSeconds` without input the screen blanks. The input that wakes it is swallowed,
/// and so is the rest of its gesture (the finger's moves and lift, the button's release, the
/// key's release): a tap on a dark screen must not press the button under it.
package struct IdleBlanking: Sendable {
    /// Seconds without input before the screen blanks; 0: never.
    package var idleSeconds: Double
    /// Outside the display schedule's hours: a woken screen goes dark again `wakeSeconds` after
    /// the last input (sooner where `idleSeconds` is shorter).
    package var isOutsideHours = false
    package var wakeSeconds = 60.0
    package private(set) var isBlank = false
    /// The time of the last input (or of the start, or the last wake).
    package private(set) var lastActivity: Double
    var swallowedSlots: Set<Int> = []
    var swallowingButtons = false
    var swallowedKeys: Set<Key> = []

    /// What becomes of an input event.
    package enum Verdict: Equatable, Sendable {
        /// The app gets it.
        case deliver
        /// Part of a waking gesture, or input on a dark screen that starts nothing: dropped.
        case swallow
        /// It woke the screen: dropped, and the screen must come on.
        case wake
    }

    package init(idleSeconds: Double, now: Double) {
        self.idleSeconds = idleSeconds.isFinite && idleSeconds > 0 ? idleSeconds : 0
        lastActivity = now
    }

    /// When the screen is to blank if nothing happens before (nil: never, or dark already).
    package var blankDue: Double? {
        let idle = idleSeconds > 0 ? idleSeconds : .infinity
        let wait = isOutsideHours && wakeSeconds.isFinite && wakeSeconds > 0 ? min(wakeSeconds, idle) : idle
        return wait.isFinite && !isBlank ? lastActivity + wait : nil
    }

    /// Sorts `event` and notes it as activity.
    package mutating func filter(_ event: InputEvent) -> Verdict {
        let t = event.time.isFinite ? max(event.time, lastActivity) : lastActivity
        if isBlank {
            switch event.kind {
            case let .touch(.down, slot, _): swallowedSlots.insert(slot)
            case .pointerButton(_, true, _): swallowingButtons = true
            case let .key(key, true): swallowedKeys.insert(key)
            case .wheel, .fingerScroll, .pointerMotion, .text: break
            // The ends of gestures begun before the screen went dark, and frame markers.
            case .touch, .touchFrame, .pointerButton, .key: return .swallow
            }
            wake(at: t)
            return .wake
        }
        lastActivity = t
        switch event.kind {
        case let .touch(phase, slot, _) where swallowedSlots.contains(slot):
            if phase == .up || phase == .cancel { swallowedSlots.remove(slot) }
            return .swallow
        case .pointerButton(_, let pressed, _) where swallowingButtons:
            if !pressed { swallowingButtons = false }
            return .swallow
        case .pointerMotion where swallowingButtons:
            return .swallow
        case let .key(key, pressed) where swallowedKeys.contains(key):
            if !pressed { swallowedKeys.remove(key) }
            return .swallow
        default:
            return .deliver
        }
    }

    /// Why the screen went dark (while `isBlank`).
    package private(set) var offReason = ScreenReason.idle

    /// The screen goes dark now, for `reason`.
    package mutating func blank(_ reason: ScreenReason = .idle) {
        isBlank = true
        offReason = reason
    }

    /// The screen comes on at `t` (input, or a remote request); the idle time starts again.
    package mutating func wake(at t: Double) {
        isBlank = false
        if t.isFinite { lastActivity = max(lastActivity, t) }
    }

    /// Input that did not go through `filter` (injected by the remote API) at `t`: it counts as
    /// activity and wakes the screen, and is not swallowed (a test drives the app on purpose).
    package mutating func noteActivity(at t: Double) {
        if isBlank { wake(at: t) } else if t.isFinite { lastActivity = max(lastActivity, t) }
    }
}

/// A state JSON object with `"display":{"on":…,"reason":…}` added: what `/state`, the state file
/// and a headless run's states report.
package func stateJSON(_ json: String, screenOn: Bool, reason: ScreenReason) -> String {
    guard let brace = json.firstIndex(of: "{") else { return json }
    let rest = json[json.index(after: brace)...]
    let isEmpty = rest.drop { $0 == " " || $0 == "\n" }.first == "}"
    return String(json[...brace]) + "\"display\":{\"on\":\(screenOn),\"reason\":\"\(reason.rawValue)\"}" + (isEmpty ? "" : ",") + rest
}
