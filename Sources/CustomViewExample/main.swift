// The README's custom view example, built by CI (and compared with the README).
import GlideKit
#if canImport(Glibc)
import Glibc
#endif

/// A knob the app draws itself: drag round it to turn it; let go and it spins on, slowing down.
final class Knob: View, AnimatedView {
    private(set) var angle = 0.0  // radians, clockwise from 3 o'clock
    private var grab = 0.0  // finger angle minus knob angle at the start
    private var lastMove = (angle: 0.0, time: 0.0)
    private var spin = (speed: 0.0, from: 0.0, since: 0.0)

    init(id: String) {
        super.init(id: id)
        onDrag = { [unowned self] phase, point in self.drag(phase, at: point) }  // window points
    }

    private func drag(_ phase: DragPhase, at point: Point) {
        let f = frameInWindow, now = window?.time ?? 0
        let finger = atan2(point.y - f.midY, point.x - f.midX)
        switch phase {
        case .began:
            spin.speed = 0
            grab = finger - angle
        case .moved:
            var turned = finger - grab
            while turned - angle > .pi { turned -= 2 * .pi }  // the short way round
            while turned - angle < -.pi { turned += 2 * .pi }
            let dt = now - lastMove.time
            spin.speed = dt > 0 ? (turned - lastMove.angle) / dt : 0
            angle = turned
            setNeedsDisplay()
        case .ended, .cancelled:
            spin = (phase == .ended ? spin.speed : 0, angle, now)
        }
        lastMove = (angle, now)
    }

    // AnimatedView: the window samples it before every frame and redraws it while it animates.
    func sample(at t: Double) {
        guard spin.speed != 0 else { return }
        let k = 3.0  // friction, per second
        angle = spin.from + spin.speed / k * (1 - exp(-k * (t - spin.since)))
        setNeedsDisplay()
    }

    func isAnimating(at t: Double) -> Bool { spin.speed != 0 && t - spin.since < 2.5 }

    // Everything in the view's own points: the context applies the scale factor, and pixel
    // snapping is Glide's job, so the knob is the same picture on a 1x and a 2x screen.
    override func draw(in context: inout DrawContext) {
        let r = min(frame.width, frame.height) / 2
        let c = Point(x: frame.width / 2, y: frame.height / 2)
        context.fillCircle(center: c, radius: r, color: Color(rgb: 0x1C1C1E))
        // This turn so far, as an arc round the rim.
        var rim = Path()
        rim.addArc(center: c, radius: r * 0.92, startAngle: 0, endAngle: angle.truncatingRemainder(dividingBy: 2 * .pi))
        context.stroke(rim, lineWidth: r * 0.06, color: Color(rgb: 0x0A84FF), roundCaps: true)
        // The pointer.
        let tip = Point(x: c.x + cos(angle) * r * 0.8, y: c.y + sin(angle) * r * 0.8)
        let side = Point(x: -sin(angle) * r * 0.12, y: cos(angle) * r * 0.12)
        var pointer = Path()
        pointer.move(to: tip)
        pointer.line(to: c + side)
        pointer.line(to: c - side)
        pointer.close()
        context.fill(pointer, color: Color(rgb: 0xFF9F0A))
        let degrees = Int((angle * 180 / .pi).rounded())
        context.draw(
            "\(degrees)°", in: Rect(x: 0, y: c.y + r * 0.45, width: frame.width, height: r * 0.3),
            size: r * 0.16, color: .white, alignment: .center)
    }
}

let knob = Knob(id: "knob").frame(width: 200, height: 200)
let root = VStack(padding: EdgeInsets(40), alignment: .center) { knob }
let window = Window(width: 480, height: 320, typography: try Kiosk.typography(), root: root)

// Turn it a quarter, quickly, and let go: it spins on.
let script = try InputScript.parse(
    """
    {"t":0,"touch":"down","id":0,"x":320,"y":140}
    {"t":20,"touch":"move","id":0,"x":310,"y":180}
    {"t":40,"touch":"move","id":0,"x":290,"y":210}
    {"t":60,"touch":"move","id":0,"x":240,"y":230}
    {"t":62,"touch":"up","id":0}
    """)
_ = try Kiosk.runHeadless(window, script: script)
print("knob at \(Int((knob.angle * 180 / .pi).rounded())) degrees")
