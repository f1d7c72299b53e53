import FoundationEssentials
import Geometry
import Logging
import Raster
import Runtime
import Text
import TouchCalibration
import UI
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen five-point calibration (`glide calibrate`, `APP calibrate`): a cross to
/// touch, one after another, then the result. Touches go to the session as they come from the
/// touchscreen (rotated, uncalibrated), never to views; Esc or `timeoutSeconds` without a touch
/// cancels. The runtime saves the fit in `onOutcome` and ends the loop in `onDone`.
package final class CalibrationScreen: App {
    package private(set) var session: CalibrationSession
    /// Given the outcome once; returns the line shown under it (where it was saved, or why not).
    package var onOutcome: ((CalibrationSession.Outcome) -> String)?
    /// Called when the outcome has been on screen for `resultSeconds`.
    package var onDone: (() -> Void)?
    package var log = Logger.discarding
    package static let resultSeconds = 2.5

    let window: Window
    private let view: CalibrationView
    private let timeoutSeconds: Double
    private var timeout: LoopTimer?

    package init(
        width: Int, height: Int, scaleFactor: Double, typography: Typography, touchRotation: Rotation = .none,
        limit: Double? = nil, timeoutSeconds: Double = 60
    ) {
        session = CalibrationSession(canvasWidth: width, canvasHeight: height, touchRotation: touchRotation, limit: limit)
        view = CalibrationView()
        window = Window(width: width, height: height, scaleFactor: scaleFactor, typography: typography, root: view)
        self.timeoutSeconds = timeoutSeconds
        view.show(session, scale: scaleFactor, result: nil)
        armTimeout()
    }

    /// Logs the first cross; the runtime calls it once the screen shows (a test waits for it).
    package func start() { logTarget() }

    private func armTimeout() {
        timeout?.cancel()
        timeout = window.after(timeoutSeconds) { [unowned self] in
            session.cancel("no touch for \(fixed(timeoutSeconds, 0)) s")
            finish()
        }
    }

    private func logTarget() {
        guard let i = session.currentTarget else { return }
        let p = session.targets[i]
        log.info("calibration: touch cross \(i + 1) of \(session.targets.count) at \(Int(p.x)),\(Int(p.y))")
    }

    package func handle(_ event: InputEvent) {
        guard session.outcome == nil else { return }
        if case .touch(.down, _, _) = event.kind { armTimeout() }
        let before = session.touches.count
        guard session.handle(event) else { return }
        if session.touches.count > before, let p = session.touches.last {
            log.info("calibration: cross \(before + 1) touched at \(fixed(p.x, 1)),\(fixed(p.y, 1))")
            logTarget()
        } else if let notice = session.notice {
            log.notice("calibration: \(notice)")
        }
        if session.outcome != nil { finish() } else { view.show(session, scale: window.scaleFactor, result: nil) }
    }

    private func finish() {
        guard let outcome = session.outcome else { return }
        timeout?.cancel()
        let line = onOutcome?(outcome) ?? ""
        view.show(session, scale: window.scaleFactor, result: line)
        window.after(Self.resultSeconds) { [unowned self] in onDone?() }
    }

    package func render(into frame: PixelBuffer, at t: Double) -> Region { window.render(into: frame, at: t) }
    package func isAtRest(at t: Double) -> Bool { window.isAtRest(at: t) }
    package func resize(width: Int, height: Int) { window.resize(width: width, height: height) }
    package var scheduler: LoopScheduler? { window.scheduler }

    /// The session as JSON: the cross to touch, the touches taken, the outcome.
    package func stateJSON(at t: Double, frameNumber: Int) -> String {
        struct State: Encodable {
            var target: Int?
            var targets: [[Double]]
            var touches: [[Double]]
            var notice: String?
            var outcome: String?
            var matrix: String?
            var rmsError: Double?
            var error: String?
        }
        var s = State(
            target: session.currentTarget, targets: session.targets.map { [$0.x, $0.y] },
            touches: session.touches.map { [$0.x, $0.y] }, notice: session.notice)
        switch session.outcome {
        case let .fitted(fit)?:
            s.outcome = "fitted"; s.matrix = fit.matrix.configValue; s.rmsError = (fit.rmsError * 100).rounded() / 100
        case let .failed(error)?: s.outcome = "failed"; s.error = "\(error)"
        case let .cancelled(reason)?: s.outcome = "cancelled"; s.error = reason
        case nil: break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(["calibration": s]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Draws the crosses and the words; knows nothing of input.
final class CalibrationView: View {
    private var targets: [Point] = []  // points
    private var current: Int?
    private var taken = 0
    private let title = Label("Touch the centre of each cross", size: 24, color: Color(rgb: 0xFFFFFF), alignment: .center)
    private let progress = Label("", size: 17, color: Color(rgb: 0xAEAEB2), alignment: .center)
    private let message = Label("", size: 17, color: Color(rgb: 0xFF9F0A), alignment: .center)

    init() {
        super.init(id: "calibration")
        add(title); add(progress); add(message)
    }

    func show(_ session: CalibrationSession, scale: Double, result: String?) {
        targets = session.targets.map { $0 / scale }
        current = session.currentTarget
        taken = session.touches.count
        if let i = current {
            progress.text = "Cross \(i + 1) of \(targets.count) · Esc cancels"
        } else {
            progress.text = ""
        }
        switch session.outcome {
        case .fitted?:
            title.text = "Calibrated"
            message.color = Color(rgb: 0x30D158)
        case .failed?, .cancelled?:
            title.text = "Not calibrated"
            message.color = Color(rgb: 0xFF453A)
        case nil:
            message.color = Color(rgb: 0xFF9F0A)
        }
        message.text = result ?? session.notice ?? ""
        setNeedsLayout()
        setNeedsDisplay()
    }

    override func layoutChildren() {
        let w = min(frame.width - 32, 720)
        var y = frame.height * 0.22
        for (label, gap) in [(title, 8.0), (progress, 0)] {
            let size = label.sizeThatFits(Size(width: w, height: .infinity))
            label.frame = Rect(x: (frame.width - w) / 2, y: y, width: w, height: size.height)
            y += size.height + gap
        }
        let size = message.sizeThatFits(Size(width: w, height: .infinity))
        message.frame = Rect(x: (frame.width - w) / 2, y: frame.height * 0.62, width: w, height: size.height)
    }

    override func draw(in context: inout DrawContext) {
        context.fill(Rect(origin: .zero, size: frame.size), color: Color(rgb: 0x101014))
        for (i, p) in targets.enumerated() {
            if i < taken {
                context.fillCircle(center: p, radius: 6, color: Color(rgb: 0x30D158))
            } else if i == current {
                let arm = 28.0, line = 2.0, ring = 18.0
                context.fill(Rect(x: p.x - arm, y: p.y - line / 2, width: 2 * arm, height: line), color: Color(rgb: 0xFFFFFF))
                context.fill(Rect(x: p.x - line / 2, y: p.y - arm, width: line, height: 2 * arm), color: Color(rgb: 0xFFFFFF))
                context.stroke(
                    Rect(x: p.x - ring, y: p.y - ring, width: 2 * ring, height: 2 * ring), cornerRadius: ring,
                    lineWidth: line, color: Color(rgb: 0xFF9F0A))
            }
        }
    }
}
