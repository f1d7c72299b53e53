import Geometry
import AppContract
import TouchCalibration

/// Turns a touch position in panel pixels (libinput's `get_x_transformed(panelWidth)`) into
/// canvas pixels: calibration (normalized), clamp to the panel, then the rotation.
package struct TouchTransform: Hashable, Sendable {
    package var panelWidth: Int
    package var panelHeight: Int
    package var rotation: Rotation
    package var calibration: CalibrationMatrix
    package init(panelWidth: Int, panelHeight: Int, rotation: Rotation = .none, calibration: CalibrationMatrix = .identity) {
        self.panelWidth = panelWidth; self.panelHeight = panelHeight
        self.rotation = rotation; self.calibration = calibration
    }

    /// For a touch sensor turned by `touchRotation` against the canvas: the panel here is the
    /// sensor's own frame (the display's panel when the two are mounted alike).
    package init(canvasWidth: Int, canvasHeight: Int, touchRotation: Rotation, calibration: CalibrationMatrix = .identity) {
        // A quarter turn swaps the sides both ways, so the same call undoes it.
        let sensor = touchRotation.canvasSize(panelWidth: canvasWidth, panelHeight: canvasHeight)
        self.init(panelWidth: sensor.width, panelHeight: sensor.height, rotation: touchRotation, calibration: calibration)
    }

    package var canvasWidth: Int { rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight).width }
    package var canvasHeight: Int { rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight).height }

    /// The canvas point for a panel point; nil for NaN/infinite input (a broken device).
    package func canvasPoint(panelX: Double, panelY: Double) -> Point? {
        guard panelX.isFinite, panelY.isFinite, panelWidth > 0, panelHeight > 0 else { return nil }
        let w = Double(panelWidth), h = Double(panelHeight)
        let n = calibration.apply(x: panelX / w, y: panelY / h)
        guard n.x.isFinite, n.y.isFinite else { return nil }
        let px = min(max(n.x * w, 0), w), py = min(max(n.y * h, 0), h)
        return rotation.canvasPoint(fromPanel: Point(x: px, y: py), panelWidth: w, panelHeight: h)
    }
}
