import Testing
import Geometry
import TestSupport
@testable import Scrolling

@Suite struct TouchResamplingTests {
    let resampling = TouchResampling()  // 5 ms
    func samples(_ pairs: [(Double, Double)]) -> [TouchSample] {
        pairs.map { TouchSample(time: $0.0, location: Point(x: 0, y: $0.1)) }
    }
    func y(_ frame: Double, _ s: [TouchSample]) -> Double { resampling.position(at: frame, in: s)!.y }

    @Test func interpolatesFiveMillisecondsBehindTheFrame() {
        let s = samples([(0, 0), (0.010, 10), (0.020, 30)])
        #expect(close(y(0.020, s), 20, 1e-9))  // 15 ms: halfway from 10 to 30
        #expect(close(y(0.012, s), 7, 1e-9))  // 7 ms: between the first two
        #expect(y(0.004, s) == 0)  // before the first sample: the first
    }

    @Test func predictsUntilTheNextSampleIsDueOrHalfAnIntervalAtMostEightMilliseconds() {
        let s = samples([(0, 0), (0.010, 10), (0.020, 20)])
        #expect(close(y(0.027, s), 22, 1e-9))  // 2 ms past the newest
        // 15 ms past: the next sample was due at 30 ms; a frame at 30 ms (target 25 ms) is
        // predicted to 25, and up to 2 ms more for a late sample: 27.
        #expect(close(y(0.030, s), 25, 1e-9))
        #expect(close(y(0.040, s), 27, 1e-9))
        // 240 Hz: half the 4 ms interval, 2 ms, and no more when the samples stop.
        let fast = samples([(0, 0), (0.004, 4), (0.008, 8)])
        #expect(close(y(0.030, fast), 10, 1e-9))
        let slow = samples([(0, 0), (0.020, 20)])
        #expect(close(y(0.045, slow), 28, 1e-9))  // 20 ms past: 8 ms at most
    }

    @Test func fewOrSimultaneousSamplesGiveTheNewest() {
        #expect(resampling.position(at: 1, in: []) == nil)
        #expect(y(1, samples([(0.5, 7)])) == 7)
        #expect(y(1, samples([(0.5, 7), (0.5, 9)])) == 9)
        #expect(y(.nan, samples([(0.5, 7), (0.6, 9)])) == 9)
        #expect(TouchResampling(latency: .nan).latency == 0.005)
        #expect(TouchResampling(latency: 3).latency == 0.05 && TouchResampling(latency: -1).latency == 0)
    }

    /// A steady 1000 pt/s drag sampled at `rate` Hz, each sample up to 1 ms early or late (with
    /// its true time and place), drawn at 60 Hz. Returns the standard deviation of the content's
    /// movement per frame and the largest lag behind the finger's true position, in seconds.
    static func steadyDrag(rate: Double, resampling: TouchResampling?, seed: UInt64 = 1) -> (spread: Double, lag: Double) {
        var random = SeededGenerator(seed: UInt64(rate * 1000) &+ seed)
        var c = ScrollConfiguration()
        c.touchResampling = resampling
        var e = ScrollController(viewportSize: Size(800, 800), contentSize: Size(800, 5000), configuration: c)
        let speed = 1000.0, down = 700.0
        func finger(_ t: Double) -> Double { down - speed * t }
        var times: [Double] = [0]
        for k in 1..<Int(0.6 * rate) {
            times.append(Double(k) / rate + Double.random(in: -0.001...0.001, using: &random))
        }
        e.handle(TouchEvent(.began, location: Point(400, down), time: 0))
        var next = 1
        var offsets: [Double] = [], lag = 0.0
        for n in 1...33 {
            let frame = Double(n) / 60
            while next < times.count, times[next] <= frame {
                e.handle(TouchEvent(.moved, location: Point(400, finger(times[next])), time: times[next]))
                next += 1
            }
            guard frame >= 0.1 else { continue }  // well past the slop
            let offset = e.state(at: frame).offset.y
            // The content shows the finger (down - 8 is where the drag began) at some moment.
            // offset = (down - slop) - finger(shownAt) = speed · shownAt - slop.
            let shownAt = (offset + c.touchSlop) / speed
            lag = max(lag, frame - shownAt)
            offsets.append(offset)
        }
        let moves = zip(offsets.dropFirst(), offsets).map { $0 - $1 }
        let mean = moves.reduce(0, +) / Double(moves.count)
        let spread = (moves.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(moves.count)).squareRoot()
        return (spread, lag)
    }

    @Test(arguments: [90.0, 100, 120, 133, 240])
    func aSteadyDragMovesEvenlyOnEveryFrame(rate: Double) {
        for seed in 1...20 as ClosedRange<UInt64> {
            let on = Self.steadyDrag(rate: rate, resampling: TouchResampling(), seed: seed)
            #expect(on.spread <= 0.5, "\(rate) Hz, jitter \(seed): \(on.spread) px")
            #expect(on.lag <= 0.008 + 0.005 + 1e-9, "\(rate) Hz, jitter \(seed): \(on.lag * 1000) ms behind")
        }
    }

    /// The same drags drawn at the newest sample judder by several points.
    @Test func withoutResamplingTheDragJudders() {
        #expect(Self.steadyDrag(rate: 100, resampling: nil).spread > 3)
        #expect(Self.steadyDrag(rate: 90, resampling: nil).spread > 2)
    }

    /// Release velocity comes from the raw samples: the same whether frames resample or not.
    @Test func releaseIsTheSameWithAndWithoutResampling() {
        func released(_ r: TouchResampling?) -> ScrollState {
            var e = feed { $0.touchResampling = r }
            let up = flick(&e)
            return e.state(at: up + 0.3)
        }
        #expect(released(TouchResampling()) == released(nil))
    }
}
