import Geometry
import Runtime

/// libinput's calibration matrix convention: a 3x2 affine map on normalized panel coordinates
/// (0...1), x' = a*x + b*y + c, y' = d*x + e*y + f. Identity is (1 0 0 0 1 0).
public struct CalibrationMatrix: Hashable, Sendable {
    public var a, b, c, d, e, f: Double
    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
    }
    /// From six numbers in the order a b c d e f; nil unless there are six finite numbers.
    public init?(_ values: [Double]) {
        guard values.count == 6, values.allSatisfy(\.isFinite) else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }
    public static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }
}

/// Turns a touch position in panel pixels (libinput's `get_x_transformed(panelWidth)`) into
/// canvas pixels: calibration (normalized), clamp to the panel, then the rotation (INP-1, OUT-2).
public struct TouchTransform: Hashable, Sendable {
    public var panelWidth: Int
    public var panelHeight: Int
    public var rotation: Rotation
    public var calibration: CalibrationMatrix
    public init(panelWidth: Int, panelHeight: Int, rotation: Rotation = .none, calibration: CalibrationMatrix = .identity) {
        self.panelWidth = panelWidth; self.panelHeight = panelHeight
        self.rotation = rotation; self.calibration = calibration
    }

    /// For a touch sensor turned by `touchRotation` against the canvas: the panel here is the
    /// sensor's own frame (the display's panel when the two are mounted alike).
    public init(canvasWidth: Int, canvasHeight: Int, touchRotation: Rotation, calibration: CalibrationMatrix = .identity) {
        // A quarter turn swaps the sides both ways, so the same call undoes it.
        let sensor = touchRotation.canvasSize(panelWidth: canvasWidth, panelHeight: canvasHeight)
        self.init(panelWidth: sensor.width, panelHeight: sensor.height, rotation: touchRotation, calibration: calibration)
    }

    public var canvasWidth: Int { rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight).width }
    public var canvasHeight: Int { rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight).height }

    /// The canvas point for a panel point; nil for NaN/infinite input (a broken device).
    public func canvasPoint(panelX: Double, panelY: Double) -> Point? {
        guard panelX.isFinite, panelY.isFinite, panelWidth > 0, panelHeight > 0 else { return nil }
        let w = Double(panelWidth), h = Double(panelHeight)
        let n = calibration.apply(x: panelX / w, y: panelY / h)
        guard n.x.isFinite, n.y.isFinite else { return nil }
        let px = min(max(n.x * w, 0), w), py = min(max(n.y * h, 0), h)
        return rotation.canvasPoint(fromPanel: Point(x: px, y: py), panelWidth: w, panelHeight: h)
    }
}
