@_spi(Hooks) import ViewCore
import Geometry
import ImageCodecs
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// An app's own views get what the built-in ones get: they animate, take drags, take part in
/// touch arbitration with scroll views, and lay out their children.
@Suite struct CustomViewTests {
    /// A bar that slides out over 0.5 s once dragged, drawn with the canvas.
    final class Drawer: View, AnimatedView {
        var openedAt: Double?
        var progress = 0.0
        var drags: [DragPhase] = []
        var draws = 0
        init() {
            super.init(id: "drawer")
            onDrag = { [unowned self] phase, _ in
                drags.append(phase)
                if phase == .ended { openedAt = window?.time }
            }
        }
        func sample(at t: Double) {
            guard let start = openedAt else { return }
            let p = min(1, max(0, (t - start) / 0.5))
            if p != progress { progress = p; setNeedsDisplay() }
        }
        func isAnimating(at t: Double) -> Bool { openedAt.map { t - $0 < 0.5 } ?? false }
        override func draw(in context: inout DrawContext) {
            draws += 1
            var path = Path()
            let w = frame.width * progress * context.scale, h = frame.height * context.scale
            path.move(to: Point(x: 0, y: 0)); path.line(to: Point(x: w, y: 0))
            path.line(to: Point(x: w, y: h)); path.line(to: Point(x: 0, y: h)); path.close()
            context.canvas.fill(path: path, color: Color(rgb: 0x0A84FF).premultiplied)
        }
    }

    /// A horizontal slider: sideways moves are its own, others go to the scroll view.
    final class Slider: View, TouchTarget {
        var value = 0.5
        var start: (point: Point, value: Double)?
        var ended: [Bool] = []
        override var backdrop: Backdrop { .varied }
        func touchBegan(at point: Point, time t: Double) { start = (point, value) }
        func touchMoved(to point: Point, time t: Double) -> TouchDisposition {
            guard let start else { return .released }
            let d = point - start.point, slop = window?.touchSlop ?? 8
            if d.length <= slop { return .undecided }
            if abs(d.y) > abs(d.x) { return .released }
            value = max(0, min(1, start.value + d.x / frame.width))
            return .claimed
        }
        func touchEnded(at point: Point, time t: Double, cancelled: Bool) { ended.append(cancelled); start = nil }
    }

    /// Places its children in a grid of `columns`, setting their frames itself.
    final class Grid: View {
        let columns: Int
        init(columns: Int, children: [View]) {
            self.columns = columns
            super.init(id: "grid")
            setChildren(children)
        }
        override func sizeThatFits(_ proposal: Size) -> Size {
            let rows = (children.count + columns - 1) / columns
            return Size(width: proposal.width, height: Double(rows) * 60)
        }
        override func layoutChildren() {
            let w = frame.width / Double(columns)
            for (i, c) in children.enumerated() {
                c.frame = Rect(x: Double(i % columns) * w, y: Double(i / columns) * 60, width: w, height: 60)
                c.layoutChildren()
            }
        }
    }

    static func scene(drawer: Drawer, slider: Slider, tapped: Log) -> ScrollView {
        let cells = (0..<12).map { i in Box(id: "cell-\(i)", fill: Color(rgb: 0xE9C46A)).onTap { tapped.entries.append("cell-\(i)") } }
        let column = Stack(
            .vertical, spacing: 10, padding: EdgeInsets(10),
            children: [
                drawer.frame(height: 60), slider.frame(height: 60), Grid(columns: 4, children: cells),
                Stack(.vertical, children: (0..<20).map { row($0) }),
            ])
        return ScrollView(id: "list", content: column)
    }

    final class Log { var entries: [String] = [] }

    @Test func aCustomViewTakesADragAndAnimatesUntilDone() throws {
        let drawer = Drawer(), slider = Slider()
        let scroll = Self.scene(drawer: drawer, slider: slider, tapped: Log())
        let w = try makeWindow(scroll)
        w.frames(from: 0, to: 0.1)
        // A drag on the drawer is the drawer's, not the list's.
        let end = w.drag(from: Point(x: 100, y: 40), to: Point(x: 100, y: 200), at: 0.2, duration: 0.1)
        #expect(drawer.drags.first == .began && drawer.drags.last == .ended)
        #expect(scroll.sampledOffset.y == 0)
        let drawsBefore = drawer.draws
        w.frames(from: end, to: end + 0.25)
        #expect(!w.isAtRest(at: end + 0.25))
        #expect(approx(drawer.progress, 0.5, 0.02))
        w.frames(from: end + 0.25, to: end + 0.6)
        #expect(drawer.progress == 1)
        #expect(drawer.draws - drawsBefore >= 30)  // redrawn every frame while it slid
        w.frames(from: end + 0.6, to: end + 2)  // the list's indicator, flashed at the start, fades by then
        #expect(w.isAtRest(at: end + 2))
    }

    @Test func aCustomControlAndTheScrollViewShareTouches() throws {
        let drawer = Drawer(), slider = Slider()
        let scroll = Self.scene(drawer: drawer, slider: slider, tapped: Log())
        let w = try makeWindow(scroll)
        w.frames(from: 0, to: 0.1)
        let f = slider.frameInWindow
        // Sideways: the slider's; the list does not move.
        w.drag(from: Point(x: f.midX, y: f.midY), to: Point(x: f.midX + 95, y: f.midY + 3), at: 0.2, duration: 0.1)
        w.frames(from: 0.4, to: 1)
        #expect(approx(slider.value, 0.5 + 95 / f.width, 1e-9))
        #expect(scroll.sampledOffset.y == 0)
        #expect(slider.ended == [false])
        // Upwards: the list's; the slider hears it end cancelled and keeps its value.
        w.drag(from: Point(x: f.midX, y: f.midY), to: Point(x: f.midX + 4, y: f.midY - 60), at: 1.2, duration: 0.2)
        w.frames(from: 1.5, to: 3)
        #expect(approx(slider.value, 0.5 + 95 / f.width, 1e-9))
        #expect(slider.ended == [false, true])
        #expect(scroll.sampledOffset.y > 40)
    }

    @Test func aCustomLayoutPlacesChildrenThatTakeTaps() throws {
        let tapped = Log()
        let scroll = Self.scene(drawer: Drawer(), slider: Slider(), tapped: tapped)
        let w = try makeWindow(scroll, width: 400, height: 600)
        w.frames(from: 0, to: 0.1)
        let cell = w.root.view(withID: "cell-6")!.frameInWindow
        #expect(cell == Rect(x: 10 + 2 * 95, y: 10 + 60 + 10 + 60 + 10 + 60, width: 95, height: 60))
        w.tap(cell.midX, cell.midY, at: 0.2)
        #expect(tapped.entries == ["cell-6"])
    }
}
