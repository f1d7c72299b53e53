import Geometry

/// libinput's calibration matrix convention: a 3x2 affine map on normalized panel coordinates
/// (0...1), x' = a*x + b*y + c, y' = d*x + e*y + f. Identity is (1 0 0 0 1 0).
package struct CalibrationMatrix: Hashable, Sendable {
    package var a, b, c, d, e, f: Double
    package init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
    }
    /// From six numbers in the order a b c d e f; nil unless there are six finite numbers.
    package init?(_ values: [Double]) {
        guard values.count == 6, values.allSatisfy(\.isFinite) else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }
    package static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)
    package func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }
}

extension CalibrationMatrix {
    /// The six numbers as the config file's `calibration` value, "a b c d e f".
    package var configValue: String {
        [a, b, c, d, e, f].map { fixed($0, 6) }.joined(separator: " ")
    }
}
