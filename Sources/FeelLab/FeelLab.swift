import Geometry
import Physics
import Scrolling

/// The feel lab: runs the scroll engine on a release or a touch trace and tabulates what it
/// does, frame by frame, as CSV. Pure: the frame clock is virtual (`hz`), output is text.
package enum FeelLab {
    /// Longest simulated time after the last input; a motion still running then is reported
    /// as it stands (a guard against configurations that never settle).
    package static let timeLimit = 60.0

    /// Frame times k/hz after `start` (exclusive) until `isAtRest` holds; the last one at rest.
    static func frames(after start: Double, hz: Double, isAtRest: (Double) -> Bool) -> [Double] {
        var times: [Double] = []
        var k = (start * hz).rounded(.down) + 1
        while true {
            let t = k / hz
            times.append(t)
            if isAtRest(t) || t - start > timeLimit { break }
            k += 1
        }
        return times
    }

    /// `glide feel release`: a 1-D vertical release at t = 0.
    package static func release(
        viewport: Double, content: Double, offset: Double, velocity: Double,
        configuration: ScrollConfiguration, hz: Double
    ) -> String {
        var engine = ScrollController(
            viewportSize: Size(width: 1, height: viewport),
            contentSize: Size(width: 1, height: content),
            configuration: configuration, offset: Point(x: 0, y: offset))
        engine.release(velocity: Point(x: 0, y: velocity), at: 0)
        var out = "t_ms,offset,velocity\n"
        func row(_ t: Double) {
            let s = engine.state(at: t)
            out += "\(fixed(t * 1000, 3)),\(fixed(s.offset.y, 3)),\(fixed(s.velocity.y, 3))\n"
        }
        row(0)
        if !engine.isAtRest(at: 0) {
            for t in frames(after: 0, hz: hz, isAtRest: engine.isAtRest) { row(t) }
        }
        return out
    }

    /// `glide feel trace`: replays touch samples and tabulates what is drawn: a row after each
    /// sample (the state at its time) and a row at every frame time k/hz from the first sample
    /// until the motion rests (a frame at a sample's time is that sample's row). While a finger
    /// drags, a frame row shows the offset drawn on that frame, resampled when the
    /// configuration resamples touches.
    package static func trace(
        _ samples: [TraceSample], viewport: Size, content: Size, offset: Point,
        configuration: ScrollConfiguration, hz: Double
    ) -> String {
        var engine = ScrollController(
            viewportSize: viewport, contentSize: content,
            configuration: configuration, offset: offset)
        var out = "t_ms,offset_x,offset_y,scale,velocity_x,velocity_y,phase\n"
        func row(_ t: Double) {
            let s = engine.state(at: t)
            out += "\(fixed(t * 1000, 3)),\(fixed(s.offset.x, 3)),\(fixed(s.offset.y, 3)),\(fixed(s.scale, 4)),"
            out += "\(fixed(s.velocity.x, 3)),\(fixed(s.velocity.y, 3)),\(s.phase.rawValue)\n"
        }
        // Frames and samples meet on whole microseconds, so a sample at 50 ms is the 60 Hz frame.
        var frame = ((samples.first?.milliseconds ?? 0) / 1000 * hz).rounded(.down) + 1
        for sample in samples {
            let t = sample.milliseconds / 1000
            while wholeMicroseconds(frame / hz) < wholeMicroseconds(t) {
                row(frame / hz)
                frame += 1
            }
            while wholeMicroseconds(frame / hz) == wholeMicroseconds(t) { frame += 1 }
            engine.handle(sample.touchEvent)
            row(t)
        }
        let last = (samples.last?.milliseconds ?? 0) / 1000
        if !engine.isAtRest(at: last) {
            for t in frames(after: last, hz: hz, isAtRest: engine.isAtRest) { row(t) }
        }
        return out
    }

    /// `glide feel velocity`: each finger's estimated velocity at each `up`, screen points/s.
    package static func velocities(_ samples: [TraceSample]) -> String {
        var trackers: [Int: (x: VelocityTracker, y: VelocityTracker)] = [:]
        var out = "t_ms,id,vx,vy\n"
        for s in samples {
            let t = s.milliseconds / 1000
            switch s.phase {
            case .down:
                trackers[s.id] = (VelocityTracker(), VelocityTracker())
                fallthrough
            case .move:
                trackers[s.id]?.x.add(time: t, position: s.location.x)
                trackers[s.id]?.y.add(time: t, position: s.location.y)
            case .up:
                let tr = trackers[s.id] ?? (VelocityTracker(), VelocityTracker())
                out += "\(fixed(s.milliseconds, 3)),\(s.id),\(fixed(tr.x.velocity(releaseTime: t), 3)),"
                out += "\(fixed(tr.y.velocity(releaseTime: t), 3))\n"
                trackers[s.id] = nil
            case .cancel:
                trackers[s.id] = nil
            }
        }
        return out
    }

    /// Parses `normal`, `fast` or a number in (0, 1).
    package static func decelerationRate(_ text: String) -> Double? {
        switch text.lowercased() {
        case "normal": return ScrollConfiguration.normalDecelerationRate
        case "fast": return ScrollConfiguration.fastDecelerationRate
        default:
            guard let r = Double(text), r > 0, r < 1 else { return nil }
            return r
        }
    }

    /// Parses `WxH` (e.g. `1280x800`) into a size with positive finite sides.
    package static func size(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            w.isFinite, h.isFinite, w > 0, h > 0, w <= 1e7, h <= 1e7
        else { return nil }
        return Size(width: w, height: h)
    }

    /// Parses `X,Y`.
    package static func point(_ text: String) -> Point? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
            x.isFinite, y.isFinite
        else { return nil }
        return Point(x: x, y: y)
    }
}
