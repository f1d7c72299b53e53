import Geometry
import Testing
@testable import Raster

/// `Path.addArc(center:radius:startAngle:endAngle:)`: cubics of at most 45° that stay on the
/// circle, in either direction.
@Suite struct PathArcTests {
    /// The largest distance from the circle of the flattened arc, and its end points.
    func measure(_ path: Path, center c: Point, radius r: Double) -> (error: Double, first: Point, last: Point) {
        let points = path.flattened(tolerance: 0.001).flatMap { $0 }
        let error = points.map { abs(($0 - c).length - r) }.max() ?? .infinity
        return (error, points.first ?? .zero, points.last ?? .zero)
    }

    @Test func aQuarterArcClockwiseOnScreen() {
        var p = Path()
        p.addArc(center: Point(x: 50, y: 50), radius: 40, startAngle: 0, endAngle: .pi / 2)
        #expect(p.elements.count == 3)  // a move and two 45° cubics
        let m = measure(p, center: Point(x: 50, y: 50), radius: 40)
        #expect(m.error < 40 * 5e-6 + 0.001)
        #expect((m.first - Point(x: 90, y: 50)).length < 1e-9)
        #expect((m.last - Point(x: 50, y: 90)).length < 1e-9)  // +y is down: clockwise on screen
    }

    @Test func arcsBackwardsWholeTurnsAndBadInput() {
        var back = Path()
        back.addArc(center: .zero, radius: 10, startAngle: .pi, endAngle: 0)
        let m = measure(back, center: .zero, radius: 10)
        #expect(m.error < 1e-3)
        #expect((m.last - Point(x: 10, y: 0)).length < 1e-9)
        // Angles falling from π to 0 pass π/2: the bottom of the screen.
        #expect(back.flattened().flatMap { $0 }.allSatisfy { $0.y >= -1e-9 })
        var whole = Path()
        whole.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 20)
        #expect(whole.elements.count == 9)
        var none = Path()
        none.addArc(center: .zero, radius: .nan, startAngle: 0, endAngle: 1)
        none.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: .infinity)
        #expect(none.isEmpty)
        // Connected to what came before by a line.
        var joined = Path()
        joined.move(to: .zero)
        joined.addArc(center: Point(x: 20, y: 0), radius: 5, startAngle: 0, endAngle: 1, connected: true)
        #expect(joined.elements[1] == .line(to: Point(x: 25, y: 0)))
    }

    @Test func scaledPathsScaleEveryPoint() {
        var p = Path()
        p.move(to: Point(x: 1, y: 2)); p.quad(to: Point(x: 3, y: 4), control: Point(x: 5, y: 6)); p.close()
        #expect(
            p.scaledBy(2).elements == [.move(to: Point(x: 2, y: 4)), .quad(to: Point(x: 6, y: 8), control: Point(x: 10, y: 12)), .close])
    }
}
