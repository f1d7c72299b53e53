import Geometry

/// One calibration point: where the cross was drawn and where the touchscreen, uncalibrated,
/// said the finger was. Both in the touch sensor's own pixels (rotation undone).
package struct CalibrationSample: Hashable, Sendable {
    package var target: Point
    package var touch: Point
    package init(target: Point, touch: Point) { self.target = target; self.touch = touch }
}

/// Why touches gave no calibration: each says what to do about it.
package enum CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooFewTouches(Int)
    /// The touches lie within a few pixels of each other.
    case touchesOnOneSpot
    /// The touches lie along one line: the other direction cannot be told.
    case touchesOnOneLine
    /// The best affine map still misses the crosses by `rms` pixels on average.
    case poorFit(rms: Double, limit: Double)
    /// The fitted map folds the screen (or the numbers are absurd): no config could hold it.
    case notInvertible

    package var description: String {
        switch self {
        case let .tooFewTouches(n): return "\(n) touches: calibration needs at least 3 crosses touched"
        case .touchesOnOneSpot: return "the touches all landed on one spot: touch each cross where it is drawn"
        case .touchesOnOneLine: return "the touches lie along one line: touch each cross where it is drawn"
        case let .poorFit(rms, limit):
            return
                "the touches miss the crosses by \(fixed(rms, 1)) px on average after the best fit (at most \(fixed(limit, 1)) px is accepted): touch the centre of each cross and try again"
        case .notInvertible: return "the fitted map is not invertible: touch each cross where it is drawn"
        }
    }
}

/// A least-squares affine fit from uncalibrated touches to the crosses, in libinput's matrix
/// convention (normalized sensor coordinates), with how far the fitted touches still land from
/// the crosses.
package struct CalibrationFit: Hashable, Sendable {
    package var matrix: CalibrationMatrix
    /// Root mean square and largest distance, in pixels, between a fitted touch and its cross.
    package var rmsError: Double
    package var maxError: Double

    /// Touches closer together than this fraction of the sensor (along the thinnest direction of
    /// their spread) cannot fix the map in that direction.
    package static let minimumSpread = 0.05

    /// Fits `samples` on a sensor of `width` x `height` pixels; `limit` (pixels, RMS) is the
    /// worst fit accepted.
    package init(samples: [CalibrationSample], width: Int, height: Int, limit: Double) throws(CalibrationError) {
        guard samples.count >= 3 else { throw .tooFewTouches(samples.count) }
        let w = Double(max(width, 1)), h = Double(max(height, 1))
        let u = samples.map { Point(x: $0.touch.x / w, y: $0.touch.y / h) }
        guard u.allSatisfy(\.isFinite), samples.allSatisfy({ $0.target.isFinite }) else { throw .notInvertible }

        // The spread of the touches: the covariance's eigenvalues give it along the widest and the
        // thinnest direction.
        let n = Double(u.count)
        let mean = Point(x: u.reduce(0) { $0 + $1.x } / n, y: u.reduce(0) { $0 + $1.y } / n)
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in u {
            let dx = p.x - mean.x, dy = p.y - mean.y
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        sxx /= n; sxy /= n; syy /= n
        let halfTrace = (sxx + syy) / 2
        let root = ((sxx - syy) * (sxx - syy) / 4 + sxy * sxy).squareRoot()
        let widest = (halfTrace + root).squareRoot(), thinnest = max(halfTrace - root, 0).squareRoot()
        guard widest >= Self.minimumSpread else { throw .touchesOnOneSpot }
        guard thinnest >= Self.minimumSpread else { throw .touchesOnOneLine }

        // Normal equations of [u v 1]·(a b c) = X/w and [u v 1]·(d e f) = Y/h, centred on the
        // mean so that they stay well conditioned.
        var rx = 0.0, ry = 0.0, tx = 0.0, ty = 0.0
        let targetMean = Point(
            x: samples.reduce(0) { $0 + $1.target.x } / n / w,
            y: samples.reduce(0) { $0 + $1.target.y } / n / h)
        for (p, s) in zip(u, samples) {
            let dx = p.x - mean.x, dy = p.y - mean.y
            let X = s.target.x / w - targetMean.x, Y = s.target.y / h - targetMean.y
            rx += dx * X; ry += dy * X; tx += dx * Y; ty += dy * Y
        }
        rx /= n; ry /= n; tx /= n; ty /= n
        let det = sxx * syy - sxy * sxy
        let a = (rx * syy - ry * sxy) / det, b = (ry * sxx - rx * sxy) / det
        let d = (tx * syy - ty * sxy) / det, e = (ty * sxx - tx * sxy) / det
        let c = targetMean.x - a * mean.x - b * mean.y
        let f = targetMean.y - d * mean.x - e * mean.y
        let m = CalibrationMatrix(a: a, b: b, c: c, d: d, e: e, f: f)
        let values = [a, b, c, d, e, f]
        guard values.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }), abs(a * e - b * d) >= 1e-6 else { throw .notInvertible }

        var sum = 0.0, worst = 0.0
        for (p, s) in zip(u, samples) {
            let q = m.apply(x: p.x, y: p.y)
            let miss = Point(x: q.x * w - s.target.x, y: q.y * h - s.target.y).length
            sum += miss * miss
            worst = max(worst, miss)
        }
        let rms = (sum / n).squareRoot()
        guard rms <= limit else { throw .poorFit(rms: rms, limit: limit) }
        matrix = m; rmsError = rms; maxError = worst
    }
}
