import Geometry
import Runtime
import Testing
import TouchCalibration

/// The crosses on an 800x480 screen: an eighth in from the corners, then the centre.
let crosses800 = [Point(x: 100, y: 60), Point(x: 700, y: 60), Point(x: 700, y: 420), Point(x: 100, y: 420), Point(x: 400, y: 240)]

@Suite struct CalibrationFits {
    @Test func targetsAreAnEighthInAndTheCentre() {
        #expect(CalibrationSession.targets(canvasWidth: 800, canvasHeight: 480) == crosses800)
        #expect(CalibrationSession.defaultLimit(canvasWidth: 800, canvasHeight: 480) == 9.6)
        #expect(CalibrationSession.defaultLimit(canvasWidth: 100, canvasHeight: 100) == 4)
    }

    /// Touches made through a known skew: the fit gives that skew's inverse back, missing by 0.
    @Test func anAffineSkewIsUndoneExactly() throws {
        // The sensor reads x' = 0.9x + 0.05y + 30, y' = -0.04x + 0.92y + 25 (pixels).
        let samples = crosses800.map { t in
            CalibrationSample(target: t, touch: Point(x: 0.9 * t.x + 0.05 * t.y + 30, y: -0.04 * t.x + 0.92 * t.y + 25))
        }
        let fit = try CalibrationFit(samples: samples, width: 800, height: 480, limit: 4)
        #expect(fit.rmsError < 1e-9 && fit.maxError < 1e-9)
        for s in samples {
            let q = fit.matrix.apply(x: s.touch.x / 800, y: s.touch.y / 480)
            #expect(abs(q.x * 800 - s.target.x) < 1e-9 && abs(q.y * 480 - s.target.y) < 1e-9)
        }
        // The inverse of the skew in normalized coordinates, by hand: det = 0.9·0.92 + 0.05·0.04.
        let det = 0.9 * 0.92 + 0.05 * 0.04
        #expect(abs(fit.matrix.a - 0.92 / det) < 1e-9)
        #expect(abs(fit.matrix.b - (-0.05 * 480 / 800) / det) < 1e-9)
        #expect(abs(fit.matrix.d - (0.04 * 800 / 480) / det) < 1e-9)
        #expect(abs(fit.matrix.e - 0.9 / det) < 1e-9)
    }

    /// One touch 10 px off: least squares spreads it (values from numpy's lstsq).
    @Test func aStrayTouchIsSpreadByLeastSquares() throws {
        var samples = crosses800.map { CalibrationSample(target: $0, touch: $0) }
        samples[4].touch.x += 10
        let fit = try CalibrationFit(samples: samples, width: 800, height: 480, limit: 4.5)
        #expect(abs(fit.matrix.a - 0.999777827) < 1e-9 && abs(fit.matrix.b) < 1e-12 && abs(fit.matrix.c - -0.00238835814) < 1e-11)
        #expect(abs(fit.matrix.d) < 1e-12 && abs(fit.matrix.e - 1) < 1e-12 && abs(fit.matrix.f) < 1e-12)
        #expect(abs(fit.rmsError - 3.9995556296) < 1e-9)
        #expect(abs(fit.maxError - 7.9982226172) < 1e-9)
        // The same touches against a stricter limit: refused, with the figures.
        #expect(throws: CalibrationError.poorFit(rms: fit.rmsError, limit: 3)) {
            try CalibrationFit(samples: samples, width: 800, height: 480, limit: 3)
        }
    }

    @Test func touchesThatCannotFixTheMapAreRefused() {
        let spot = crosses800.map { CalibrationSample(target: $0, touch: Point(x: 300 + $0.x / 100, y: 200)) }
        #expect(throws: CalibrationError.touchesOnOneSpot) { try CalibrationFit(samples: spot, width: 800, height: 480, limit: 10) }
        let line = crosses800.map { CalibrationSample(target: $0, touch: Point(x: $0.x, y: 240)) }
        #expect(throws: CalibrationError.touchesOnOneLine) { try CalibrationFit(samples: line, width: 800, height: 480, limit: 10) }
        let two = Array(crosses800.prefix(2)).map { CalibrationSample(target: $0, touch: $0) }
        #expect(throws: CalibrationError.tooFewTouches(2)) { try CalibrationFit(samples: two, width: 800, height: 480, limit: 10) }
        let nan = crosses800.map { CalibrationSample(target: $0, touch: Point(x: .nan, y: $0.y)) }
        #expect(throws: CalibrationError.notInvertible) { try CalibrationFit(samples: nan, width: 800, height: 480, limit: 10) }
        // Touches in the mirror image (a sensor wired the wrong way round): a mirror is a valid
        // matrix, and the fit finds it.
        let mirrored = crosses800.map { CalibrationSample(target: $0, touch: Point(x: 800 - $0.x, y: $0.y)) }
        let a = (try? CalibrationFit(samples: mirrored, width: 800, height: 480, limit: 1))?.matrix.a
        #expect(a.map { abs($0 + 1) < 1e-9 } == true)
    }

    @Test func theMatrixIsWrittenAsTheConfigWantsIt() {
        let m = CalibrationMatrix(a: 1.0000001, b: -0.25, c: 0.0123456789, d: 0, e: 2, f: -1)
        #expect(m.configValue == "1.000000 -0.250000 0.012346 0.000000 2.000000 -1.000000")
    }
}

@Suite struct CalibrationSessions {
    static func tap(_ p: Point, slot: Int = 0, at t: Double) -> [InputEvent] {
        [
            InputEvent(.touch(.down, slot: slot, position: p), time: t), InputEvent(.touchFrame, time: t),
            InputEvent(.touch(.up, slot: slot, position: .zero), time: t + 0.06),
        ]
    }

    @Test func fiveTapsGiveAFit() {
        var s = CalibrationSession(canvasWidth: 800, canvasHeight: 480)
        for (i, p) in crosses800.enumerated() {
            #expect(s.currentTarget == i)
            for e in Self.tap(p + Point(x: 20, y: -10), at: Double(i)) { _ = s.handle(e) }
        }
        #expect(s.currentTarget == nil)
        guard case let .fitted(fit)? = s.outcome else { Issue.record("no fit: \(String(describing: s.outcome))"); return }
        #expect(abs(fit.matrix.c - -20.0 / 800) < 1e-12 && abs(fit.matrix.f - 10.0 / 480) < 1e-12)
        // After the outcome, touches change nothing.
        let changed = s.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: 5, y: 5)), time: 9))
        #expect(!changed)
    }

    /// A touch is the mean of where the finger was while down.
    @Test func aTouchIsTheMeanOfItsPositions() {
        var s = CalibrationSession(canvasWidth: 800, canvasHeight: 480)
        _ = s.handle(InputEvent(.touch(.down, slot: 3, position: Point(x: 90, y: 50)), time: 0))
        _ = s.handle(InputEvent(.touch(.move, slot: 3, position: Point(x: 100, y: 60)), time: 0.02))
        _ = s.handle(InputEvent(.touch(.move, slot: 3, position: Point(x: 110, y: 70)), time: 0.04))
        let changed = s.handle(InputEvent(.touch(.up, slot: 3, position: .zero), time: 0.05))
        #expect(changed)
        #expect(s.touches == [Point(x: 100, y: 60)])
    }

    @Test func edgeTouchesAndTwoFingersAreAskedAgain() {
        var s = CalibrationSession(canvasWidth: 800, canvasHeight: 480)
        for e in Self.tap(Point(x: 0, y: 200), at: 0) { _ = s.handle(e) }
        #expect(s.touches.isEmpty && s.notice?.contains("edge") == true)
        _ = s.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: 100, y: 60)), time: 1))
        _ = s.handle(InputEvent(.touch(.down, slot: 1, position: Point(x: 300, y: 60)), time: 1.01))
        _ = s.handle(InputEvent(.touch(.up, slot: 1, position: .zero), time: 1.02))
        _ = s.handle(InputEvent(.touch(.up, slot: 0, position: .zero), time: 1.05))
        #expect(s.touches.isEmpty && s.notice?.contains("One finger") == true)
        for e in Self.tap(Point(x: 100, y: 60), at: 2) { _ = s.handle(e) }
        #expect(s.touches.count == 1 && s.notice == nil)
        _ = s.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: 700, y: 60)), time: 3))
        _ = s.handle(InputEvent(.touch(.cancel, slot: 0, position: .zero), time: 3.1))
        #expect(s.touches.count == 1 && s.notice?.contains("cancelled") == true)
        _ = s.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: .nan, y: 60)), time: 4))
        _ = s.handle(InputEvent(.touch(.up, slot: 0, position: .zero), time: 4.1))
        #expect(s.touches.count == 1)
    }

    @Test func escapeCancelsAndTouchesOnOneSpotFail() {
        var s = CalibrationSession(canvasWidth: 800, canvasHeight: 480)
        for e in InputEvent.keyStroke(.escape, at: 0) { _ = s.handle(e) }
        #expect(s.outcome == .cancelled("cancelled with Esc"))
        var spot = CalibrationSession(canvasWidth: 800, canvasHeight: 480)
        for i in 0..<5 { for e in Self.tap(Point(x: 400, y: 240), at: Double(i)) { _ = spot.handle(e) } }
        #expect(spot.outcome == .failed(.touchesOnOneSpot))
    }

    /// The fit is made in the sensor's frame: on a portrait canvas (touch rotation 90°) the
    /// samples are the crosses and touches turned back onto the 800x480 sensor.
    @Test func samplesAreInTheSensorsFrame() {
        var s = CalibrationSession(canvasWidth: 480, canvasHeight: 800, touchRotation: .clockwise90)
        for e in Self.tap(Point(x: 60, y: 100), at: 0) { _ = s.handle(e) }
        #expect(s.samples == [CalibrationSample(target: Point(x: 700, y: 60), touch: Point(x: 700, y: 60))])
    }
}

@Suite struct RotationInverse {
    @Test(arguments: Rotation.allCases)
    func panelPointUndoesCanvasPoint(rotation: Rotation) {
        let p = Point(x: 123.5, y: 45.25)
        let c = rotation.canvasPoint(fromPanel: p, panelWidth: 800, panelHeight: 480)
        #expect(rotation.panelPoint(fromCanvas: c, panelWidth: 800, panelHeight: 480) == p)
    }
}
