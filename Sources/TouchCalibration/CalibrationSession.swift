import Geometry
import AppContract

/// Five-point touch calibration as input comes in: which cross to touch, the touches taken, and
/// in the end the fit (or why there is none). Pure: events in, state out; the screen draws it
/// and the runtime saves it.
///
/// Touches arrive in canvas pixels through the touch rotation but no calibration, so the fit
/// maps the sensor's own readings; it is done in the sensor's frame (libinput's convention),
/// where the board applies it before the rotation.
package struct CalibrationSession: Sendable {
    package enum Outcome: Hashable, Sendable {
        case fitted(CalibrationFit)
        case failed(CalibrationError)
        case cancelled(String)
    }

    package let canvasWidth: Int
    package let canvasHeight: Int
    package let touchRotation: Rotation
    /// The worst root mean square miss accepted, in pixels.
    package let limit: Double
    /// The crosses, in canvas pixels, in the order they are shown.
    package let targets: [Point]
    /// The touch taken for each cross so far (canvas pixels, uncalibrated).
    package private(set) var touches: [Point] = []
    /// Why the last touch was not taken; nil once one is.
    package private(set) var notice: String?
    package private(set) var outcome: Outcome?

    /// The finger on the glass: its positions summed for their mean; spoiled by a second finger.
    private struct Finger {
        var slot: Int
        var sum: Point
        var count = 1
        var spoiled = false
    }
    private var finger: Finger?

    package init(canvasWidth: Int, canvasHeight: Int, touchRotation: Rotation = .none, limit: Double? = nil) {
        self.canvasWidth = canvasWidth; self.canvasHeight = canvasHeight
        self.touchRotation = touchRotation
        self.limit = limit ?? Self.defaultLimit(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        targets = Self.targets(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// A miss of 2% of the shorter side (at least 4 px) on average: a finger's width on a
    /// small panel, well beyond a careful tap's scatter, well below a rotated or skewed sensor's.
    package static func defaultLimit(canvasWidth: Int, canvasHeight: Int) -> Double {
        max(4, 0.02 * Double(min(canvasWidth, canvasHeight)))
    }

    /// Four crosses an eighth in from the corners, then the centre: far apart, so the fit is
    /// well conditioned, and away from the bezel, where sensors are least linear.
    package static func targets(canvasWidth: Int, canvasHeight: Int) -> [Point] {
        let w = Double(canvasWidth), h = Double(canvasHeight)
        let x0 = (w / 8).rounded(), x1 = (w * 7 / 8).rounded(), y0 = (h / 8).rounded(), y1 = (h * 7 / 8).rounded()
        return [
            Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1),
            Point(x: (w / 2).rounded(), y: (h / 2).rounded()),
        ]
    }

    /// The cross to touch now; nil once there is an outcome.
    package var currentTarget: Int? { outcome == nil ? touches.count : nil }

    /// Takes one input event. Returns true when what the screen shows changed.
    package mutating func handle(_ event: InputEvent) -> Bool {
        guard outcome == nil else { return false }
        switch event.kind {
        case let .touch(.down, slot, p):
            guard finger == nil else {
                finger?.spoiled = true
                return false
            }
            finger = Finger(slot: slot, sum: p)
            return false
        case let .touch(.move, slot, p):
            guard var f = finger, f.slot == slot, p.isFinite else { return false }
            f.sum = f.sum + p; f.count += 1
            finger = f
            return false
        case let .touch(.up, slot, _):
            guard let f = finger, f.slot == slot else { return false }
            finger = nil
            take(f)
            return true
        case let .touch(.cancel, slot, _):
            guard finger?.slot == slot else { return false }
            finger = nil
            notice = "The touch was cancelled: touch the cross again"
            return true
        case let .key(key, pressed) where pressed && key == .escape:
            cancel("cancelled with Esc")
            return true
        default:
            return false
        }
    }

    package mutating func cancel(_ reason: String) {
        guard outcome == nil else { return }
        outcome = .cancelled(reason)
    }

    private mutating func take(_ f: Finger) {
        guard !f.spoiled else {
            notice = "One finger at a time: touch the cross again"
            return
        }
        let p = f.sum / Double(f.count)
        // The transform clamps a touch beyond the sensor's range to its edge: one there was off
        // the screen (or the sensor is mounted wrong), and would pull the fit.
        let edge = 0.5
        guard p.isFinite, p.x > edge, p.y > edge, p.x < Double(canvasWidth) - edge, p.y < Double(canvasHeight) - edge else {
            notice = "That touch was at the edge of the touchscreen's range, off the screen: touch the cross again"
            return
        }
        notice = nil
        touches.append(p)
        guard touches.count == targets.count else { return }
        do {
            outcome = .fitted(try CalibrationFit(samples: samples, width: sensor.width, height: sensor.height, limit: limit))
        } catch {
            outcome = .failed(error)
        }
    }

    /// The touch sensor's size in its own pixels (the canvas with the touch rotation undone).
    var sensor: (width: Int, height: Int) { touchRotation.canvasSize(panelWidth: canvasWidth, panelHeight: canvasHeight) }

    /// The touches taken with their crosses, in the sensor's frame.
    package var samples: [CalibrationSample] {
        let w = Double(sensor.width), h = Double(sensor.height)
        return zip(targets, touches).map { target, touch in
            CalibrationSample(
                target: touchRotation.panelPoint(fromCanvas: target, panelWidth: w, panelHeight: h),
                touch: touchRotation.panelPoint(fromCanvas: touch, panelWidth: w, panelHeight: h))
        }
    }
}
