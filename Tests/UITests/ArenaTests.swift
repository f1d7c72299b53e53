@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// The router and the damage planner know views only by their protocols (`GestureParticipant`,
/// `DamageSource`): a view of the app's own that is no scroll view takes part in the touch arena
/// with the scroll views around it, and its moved content is copied like theirs.
@Suite struct ArenaTests {
    /// A list of rows 10 pt apart with a tape in the middle of its content, at y 240...300 (so
    /// no neighbour's pixels touch the tape's).
    static func scene(_ tape: Tape) -> ScrollView {
        let stack = Stack(.vertical, id: "rows", spacing: 10)
        for i in 0..<4 { stack.add(row(i)) }
        stack.add(tape.frame(height: 60))
        for i in 4..<30 { stack.add(row(i)) }
        return ScrollView(id: "list", axes: .vertical, content: stack)
    }

    @Test func aSidewaysDragGoesToTheTapeAndAnUprightOneToTheList() throws {
        let tape = Tape(id: "tape")
        let list = Self.scene(tape)
        let w = try makeWindow(list)
        w.frames(from: 0, to: 0.1)
        var t = w.drag(from: Point(x: 300, y: 270), to: Point(x: 100, y: 275), at: 0.2, duration: 0.2)
        w.frames(from: t, to: t + 1)
        // Claimed once past its 8 pt slop; then the tape follows the finger from where it came down.
        #expect(tape.panned == 200)
        #expect(list.sampledOffset == .zero)
        let panned = tape.panned
        t = w.drag(from: Point(x: 200, y: 280), to: Point(x: 205, y: 180), at: t + 1.2, duration: 0.4)
        w.frames(from: t, to: t + 4)
        #expect(tape.panned == panned)
        #expect(list.sampledOffset.y > 90)
        #expect(list.controller.isAtRest(at: t + 4))
        // A quick touch that moves nothing is a tap on the tape, and moves neither.
        let before = list.sampledOffset
        let tapeFrame = tape.frameInWindow
        #expect(tapeFrame.minY > 0 && tapeFrame.maxY < 400)
        w.tap(tapeFrame.midX, tapeFrame.midY, at: t + 4.5)
        w.frames(from: t + 4.6, to: t + 5)
        #expect(tape.taps == 1)
        #expect(tape.panned == panned && list.sampledOffset == before)
    }

    @Test func aSidewaysWheelTurnsTheTapeAndAnUprightOneTheList() throws {
        let tape = Tape(id: "tape")
        let list = Self.scene(tape)
        let w = try makeWindow(list)
        w.frames(from: 0, to: 0.1)
        w.handle(InputEvent(.wheel(delta: Point(x: 40, y: 0), position: Point(x: 200, y: 270)), time: 0.2))
        #expect(tape.panned == 40)
        // An upright turn over the tape goes past it to the list around it.
        w.handle(InputEvent(.wheel(delta: Point(x: 0, y: 50), position: Point(x: 200, y: 270)), time: 0.3))
        w.frames(from: 0.3, to: 1.5)
        #expect(tape.panned == 40)
        #expect(list.sampledOffset.y == 50)
    }

    @Test func theTapesMovedPixelsAreCopied() throws {
        let tape = Tape(id: "tape")
        let w = try makeWindow(Self.scene(tape))
        w.frames(from: 0, to: 0.1)
        let planner = DamagePlanner()
        _ = planner.plan(at: 0.1, damage: Region(), full: true, in: w.pass)
        tape.drag(by: Point(x: 7, y: 0), at: 0.2)
        tape.sample(at: 0.2)
        let plan = planner.plan(at: 0.2, damage: Region(), full: false, in: w.pass)
        // The tape's 400x60 viewport moves 7 pixels left; only the strip on its right is drawn.
        #expect(plan.blits.count == 1)
        #expect(plan.blits.first?.rect == IntRect(x: 0, y: 240, width: 400, height: 60))
        #expect(plan.blits.first?.dx == -7 && plan.blits.first?.dy == 0)
        #expect(plan.damage.rects == [IntRect(x: 393, y: 240, width: 7, height: 60)])
    }

    @Test func framesWithTheTapeEqualFullRedraws() throws {
        try DamageTests().check("own participant", width: 400, height: 400, seconds: 2.5, scene: { Self.scene(Tape(id: "tape")) }) { _ in
            DamageTests.drag(from: Point(x: 300, y: 270), to: Point(x: 60, y: 272), at: 0.1, duration: 0.3)
                + DamageTests.drag(from: Point(x: 200, y: 300), to: Point(x: 200, y: 120), at: 0.8, duration: 0.1)
                + DamageTests.drag(from: Point(x: 60, y: 60), to: Point(x: 330, y: 62), at: 1.6, duration: 0.3)
        }
    }
}

/// A strip of numbered cells that a finger pans sideways, 1:1, as a picker's tape does: a view of
/// the app's own that is a gesture participant and a damage source, with no scroll view in it.
final class Tape: View, GestureParticipant, DamageSource {
    private(set) var panned = 0.0
    private(set) var taps = 0
    private var sampled = 0.0
    private var touch: (x: Double, from: Double)?
    private var claimed = false

    var gestureAxes: Axes { .horizontal }
    var takesPinch: Bool { false }
    var canScroll: Bool { true }
    func isAtRest(at t: Double) -> Bool { !claimed }

    func follow(_ phase: TouchEvent.Phase, slot: Int, at p: Point, time t: Double) -> Gesture? {
        switch phase {
        case .began:
            touch = (p.x, panned)
        case .moved:
            guard let touch else { return nil }
            if abs(p.x - touch.x) > 8 { claimed = true }
            if claimed { panned = touch.from - (p.x - touch.x) }
        case .ended, .cancelled:
            defer { touch = nil; claimed = false }
            if phase == .ended, !claimed { taps += 1; return .tap(p) }
        }
        return nil
    }

    func hasClaimedTouch(at t: Double) -> Bool { claimed }
    func scrubber(at point: Point, time t: Double) -> ((Point, Double) -> Void)? { nil }
    func scroll(by delta: Point, at t: Double) { panned += delta.x }
    func drag(by delta: Point, at t: Double) { panned += delta.x }
    func release(velocity: Point, at t: Double) {}

    func sample(at t: Double) { sampled = panned }
    func isAnimating(at t: Double) -> Bool { claimed || sampled != panned }
    func isStill(at t: Double) -> Bool { sampled == panned }
    func contentOffset(pixelsAt scale: Double) -> Point { Point(x: (sampled * scale).rounded(), y: 0) }
    var contentScale: Double { 1 }
    func indicators(at t: Double) -> [ScrollIndicator] { [] }
    func takeContentShift() -> Bool { false }
    var pinnedViews: [View] { [] }

    override var backdrop: Backdrop { .uniform(Color(rgb: 0xFFFFFF)) }
    override var clipsContent: Bool { true }

    override func draw(in context: inout DrawContext) {
        let bounds = Rect(origin: .zero, size: frame.size)
        context.fill(bounds, color: Color(rgb: 0xFFFFFF))
        let shift = contentOffset(pixelsAt: context.scale).x / context.scale
        let width = 48.0
        let first = Int((shift / width).rounded(.down))
        for i in first...(first + Int(frame.width / width) + 1) {
            let cell = Rect(x: Double(i) * width - shift + 2, y: 4, width: width - 4, height: frame.height - 8)
            let shown = cell.intersection(bounds)
            guard !shown.isEmpty else { continue }
            let shade = UInt32(truncatingIfNeeded: (i & 7) * 28)
            context.fill(shown, color: Color(rgb: 0x203040 + (shade << 16) + shade))
            // A mark whose place within the cell depends on the cell, so a wrong copy shows.
            let mark = Rect(x: cell.minX + Double((i & 3) * 9) + 2, y: 10, width: 4, height: 20).intersection(bounds)
            if !mark.isEmpty { context.fill(mark, color: Color(rgb: 0xFFD166)) }
        }
    }
}
