import Geometry
import LinuxInput
import TouchCalibration
import Runtime
import Testing

@Suite struct TouchTransforms {
    @Test func identityKeepsPanelPixels() {
        let t = TouchTransform(panelWidth: 1280, panelHeight: 800)
        #expect(t.canvasPoint(panelX: 100, panelY: 50) == Point(x: 100, y: 50))
    }

    /// A touch on the panel lands on the canvas pixel that the rotated copy puts there.
    @Test(arguments: Rotation.allCases)
    func rotationMatchesTheDisplay(rotation: Rotation) {
        let t = TouchTransform(panelWidth: 800, panelHeight: 480, rotation: rotation)
        let canvas = rotation.canvasSize(panelWidth: 800, panelHeight: 480)
        #expect(t.canvasWidth == canvas.width && t.canvasHeight == canvas.height)
        for (cx, cy) in [(0, 0), (10, 20), (canvas.width - 1, canvas.height - 1), (canvas.width / 2, 3)] {
            let panel = rotation.panelPixel(canvasX: cx, canvasY: cy, canvasWidth: canvas.width, canvasHeight: canvas.height)
            // The centre of the panel pixel maps to the centre of the canvas pixel.
            let p = t.canvasPoint(panelX: Double(panel.x) + 0.5, panelY: Double(panel.y) + 0.5)!
            #expect(abs(p.x - (Double(cx) + 0.5)) < 1e-9 && abs(p.y - (Double(cy) + 0.5)) < 1e-9, "\(rotation) \(cx),\(cy) -> \(p)")
        }
    }

    /// `touch_rotation`: a sensor mounted apart from the panel. Turned like the panel it is the
    /// panel's transform; unturned on a 90° panel it reports canvas coordinates directly.
    @Test func touchRotationIsTheSensorsOwnTurn() {
        let panel = TouchTransform(panelWidth: 800, panelHeight: 480, rotation: .clockwise90)
        #expect(TouchTransform(canvasWidth: 480, canvasHeight: 800, touchRotation: .clockwise90) == panel)
        let upright = TouchTransform(canvasWidth: 480, canvasHeight: 800, touchRotation: .none)
        #expect(upright.panelWidth == 480 && upright.panelHeight == 800)
        // libinput scales the normalized position (0.25, 0.5) by the sensor frame's size.
        #expect(upright.canvasPoint(panelX: 120, panelY: 400) == Point(x: 120, y: 400))
        let flipped = TouchTransform(canvasWidth: 480, canvasHeight: 800, touchRotation: .upsideDown)
        #expect(flipped.canvasPoint(panelX: 120, panelY: 400) == Point(x: 360, y: 400))
    }

    @Test func calibrationAppliesInNormalizedSpace() {
        // Swap axes and shift by 10 % of the width: x' = y + 0.1, y' = x.
        let m = CalibrationMatrix([0, 1, 0.1, 1, 0, 0])!
        let t = TouchTransform(panelWidth: 1000, panelHeight: 500, calibration: m)
        let p = t.canvasPoint(panelX: 200, panelY: 100)!  // normalized (0.2, 0.2)
        #expect(abs(p.x - 300) < 1e-9 && abs(p.y - 100) < 1e-9)
    }

    @Test func absurdInputIsClampedOrDropped() {
        let t = TouchTransform(panelWidth: 100, panelHeight: 100, rotation: .clockwise90)
        #expect(t.canvasPoint(panelX: .nan, panelY: 1) == nil)
        #expect(t.canvasPoint(panelX: .infinity, panelY: 1) == nil)
        let p = t.canvasPoint(panelX: 1e12, panelY: -5)!
        #expect(p.x >= 0 && p.x <= 100 && p.y >= 0 && p.y <= 100)
        #expect(CalibrationMatrix([1, 0, 0, 0, 1]) == nil)
        #expect(CalibrationMatrix([1, 0, 0, 0, 1, .nan]) == nil)
    }
}

@Suite struct TouchFrameGrouping {
    func touch(_ phase: InputEvent.TouchPhase, _ slot: Int, _ x: Double, _ t: Double) -> InputEvent {
        InputEvent(.touch(phase, slot: slot, position: Point(x: x, y: x)), time: t)
    }

    @Test func pinchFingersArriveTogetherAtTheFrame() {
        var a = TouchFrameAssembler()
        #expect(a.add(touch(.down, 0, 10, 1)).isEmpty)
        #expect(a.add(touch(.down, 1, 90, 1)).isEmpty)
        let out = a.add(InputEvent(.touchFrame, time: 1))
        #expect(out == [touch(.down, 0, 10, 1), touch(.down, 1, 90, 1), InputEvent(.touchFrame, time: 1)])
        #expect(a.activeSlots.count == 2)
    }

    @Test func upCarriesTheLastPosition() {
        var a = TouchFrameAssembler()
        _ = a.add(touch(.down, 0, 10, 1)); _ = a.add(InputEvent(.touchFrame, time: 1))
        _ = a.add(touch(.move, 0, 20, 2)); _ = a.add(InputEvent(.touchFrame, time: 2))
        _ = a.add(InputEvent(.touch(.up, slot: 0, position: .zero), time: 3))
        #expect(a.add(InputEvent(.touchFrame, time: 3)) == [touch(.up, 0, 20, 3), InputEvent(.touchFrame, time: 3)])
        #expect(a.activeSlots.isEmpty)
    }

    @Test func strayEventsAreDroppedAndReusedSlotsCancelled() {
        var a = TouchFrameAssembler()
        #expect(a.add(touch(.move, 3, 1, 1)).isEmpty)
        #expect(a.add(touch(.up, 3, 1, 1)).isEmpty)
        #expect(a.add(InputEvent(.touchFrame, time: 1)).isEmpty)  // nothing held: no empty frame
        _ = a.add(touch(.down, 0, 10, 2)); _ = a.add(InputEvent(.touchFrame, time: 2))
        _ = a.add(touch(.down, 0, 50, 3))
        #expect(
            a.add(InputEvent(.touchFrame, time: 3)) == [touch(.cancel, 0, 10, 3), touch(.down, 0, 50, 3), InputEvent(.touchFrame, time: 3)])
    }

    @Test func deviceRemovedMidGestureCancelsEveryTouch() {
        var a = TouchFrameAssembler()
        _ = a.add(touch(.down, 1, 5, 1)); _ = a.add(touch(.down, 0, 7, 1)); _ = a.add(InputEvent(.touchFrame, time: 1))
        _ = a.add(touch(.move, 0, 8, 2))  // frame never came
        #expect(
            a.cancelAll(time: 5) == [
                touch(.move, 0, 8, 2), touch(.cancel, 0, 8, 5), touch(.cancel, 1, 5, 5),
                InputEvent(.touchFrame, time: 5),
            ])
        #expect(a.cancelAll(time: 6).isEmpty)
    }

    @Test func otherEventsFlushHeldTouchesInOrder() {
        var a = TouchFrameAssembler()
        _ = a.add(touch(.down, 0, 1, 1))
        let key = InputEvent(.key(.pageDown, pressed: true), time: 1.5)
        #expect(a.add(key) == [touch(.down, 0, 1, 1), InputEvent(.touchFrame, time: 1.5), key])
    }
}

/// The calibration from end to end, as on a board: a skewed sensor behind a turned panel, its
/// readings through the uncalibrated transform into the session, then the fitted matrix in the
/// board's transform puts a touch on every cross where the finger is.
@Suite struct CalibrationThroughTheTransform {
    @Test(arguments: Rotation.allCases)
    func aSkewedSensorIsCalibrated(turn: Rotation) throws {
        let canvas = turn.canvasSize(panelWidth: 1024, panelHeight: 600)
        let raw = TouchTransform(canvasWidth: canvas.width, canvasHeight: canvas.height, touchRotation: turn)
        let sensorW = Double(raw.panelWidth), sensorH = Double(raw.panelHeight)
        // Where the skewed sensor says a finger on canvas point p is (sensor pixels).
        func reading(_ p: Point) -> Point {
            let s = turn.panelPoint(fromCanvas: p, panelWidth: sensorW, panelHeight: sensorH)
            return Point(x: 0.93 * s.x + 0.04 * s.y + 21, y: -0.03 * s.x + 0.95 * s.y + 17)
        }
        var session = CalibrationSession(canvasWidth: canvas.width, canvasHeight: canvas.height, touchRotation: turn)
        for (i, target) in session.targets.enumerated() {
            let r = reading(target)
            let seen = try #require(raw.canvasPoint(panelX: r.x, panelY: r.y))
            _ = session.handle(InputEvent(.touch(.down, slot: 0, position: seen), time: Double(i)))
            _ = session.handle(InputEvent(.touch(.up, slot: 0, position: .zero), time: Double(i) + 0.05))
        }
        guard case let .fitted(fit)? = session.outcome else { Issue.record("\(String(describing: session.outcome))"); return }
        let calibrated = TouchTransform(
            canvasWidth: canvas.width, canvasHeight: canvas.height, touchRotation: turn, calibration: fit.matrix)
        for p in [Point(x: 30, y: 40), Point(x: Double(canvas.width) / 2, y: Double(canvas.height) - 50), Point(x: 300, y: 200)] {
            let r = reading(p)
            let q = try #require(calibrated.canvasPoint(panelX: r.x, panelY: r.y))
            #expect((q - p).length < 1e-6, "\(turn): \(p) → \(q)")
        }
    }
}
