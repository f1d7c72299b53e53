#if canImport(Glibc)
import Glibc
#endif
import Controls
import Geometry
import Headless
import ImageCodecs
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// Damage tracking: the headless display receives only the damaged rectangles of each frame;
/// after every frame its screen must equal a full redraw of the same state, pixel for pixel.
@Suite struct DamageTests {
    /// A feed: a header, cards with text, a paged carousel with a page control, more cards.
    static func scene() -> View {
        let column = Stack(.vertical, id: "column", spacing: 12, padding: EdgeInsets(14))
        column.add(Label("Damage", size: 26))
        func card(_ i: Int) -> View {
            let c = Stack(
                .horizontal, id: "card-\(i)", spacing: 10, padding: EdgeInsets(10), alignment: .leading,
                children: [
                    Box(fill: Color(rgb: [0xE63946, 0x2A9D8F, 0xE9C46A, 0x457B9D][i % 4]), cornerRadius: 9, width: 56, height: 56),
                    Label("Card \(i): text that wraps onto a second line in this narrow card.", size: 14, maxLines: 3),
                ])
            c.background(.white, cornerRadius: 11, border: Color(rgb: 0xC7C7CC))
            c.isFocusable = true
            return c
        }
        for i in 0..<2 { column.add(card(i)) }
        let strip = Stack(.horizontal, id: "strip", spacing: 8)
        for i in 0..<6 {
            strip.add(
                Overlay(
                    id: "photo-\(i)", alignment: .center,
                    children: [
                        Box(fill: Color(rgb: [0x264653, 0x2A9D8F, 0xE76F51, 0x6D597A, 0x355070, 0xB56576][i]), cornerRadius: 12),
                        Label("\(i + 1)", size: 40, color: .white, alignment: .center, maxLines: 1),
                    ]
                ).frame(width: 300))
        }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        config.pageSize = 308
        let carousel = ScrollView(id: "carousel", axes: .horizontal, configuration: config, content: strip)
        let control = PageControl(id: "dots", scrollView: carousel, backgroundStyle: .automatic)
        control.width = 300
        column.add(
            Overlay(
                id: "carousel-box", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 6, trailing: 0),
                children: [carousel, control]
            ).frame(height: 150))
        for i in 2..<12 { column.add(card(i)) }
        return ScrollView(id: "feed", content: column)
    }

    /// Runs the same events through a window presented with damage and one fully redrawn every
    /// frame, comparing the screens after each frame. Returns the number of frames compared.
    @discardableResult
    func check(
        _ name: String, scale: Double = 1, width: Int = 480, height: Int = 400, seconds: Double,
        scene: () -> View = DamageTests.scene, sourceLocation: SourceLocation = #_sourceLocation,
        events: (Window) -> [InputEvent]
    ) throws -> Int {
        let typography = try makeTypography()
        let damaged = Window(width: width, height: height, scaleFactor: scale, typography: typography, root: scene())
        let full = Window(width: width, height: height, scaleFactor: scale, typography: try makeTypography(), root: scene())
        damaged.layoutIfNeeded(); full.layoutIfNeeded()
        var pending = events(damaged)[...]
        let display = HeadlessDisplay(width: width, height: height)
        let frame = PixelBuffer(width: width, height: height)
        let reference = PixelBuffer(width: width, height: height)
        var compared = 0, partial = 0
        for n in 0...Int(seconds * 60) {
            let t = Double(n) / 60
            while let e = pending.first, e.time < t {
                pending.removeFirst()
                damaged.handle(e); full.handle(e)
            }
            let damage = damaged.render(into: frame, at: t)
            try display.present(frame, damage: damage)
            if damage.rects.reduce(0, { $0 + $1.width * $1.height }) < width * height { partial += 1 }
            full.fullDamage = true
            _ = full.render(into: reference, at: t)
            compared += 1
            if memcmp(display.screen.pixels, reference.pixels, width * height * 4) != 0 {
                var differing = 0, first = (0, 0)
                for y in 0..<height {
                    for x in 0..<width where display.screen[x, y] != reference[x, y] {
                        if differing == 0 { first = (x, y) }
                        differing += 1
                    }
                }
                let stem = "/tmp/glide-damage-" + name.split(separator: " ").joined(separator: "-")
                try? PNG.write(display.screen, to: stem + "-screen.png")
                try? PNG.write(reference, to: stem + "-full.png")
                Issue.record(
                    "\(name): frame \(n) (t = \(t)): \(differing) pixels differ from a full redraw, first at \(first); see \(stem)-screen.png and -full.png",
                    sourceLocation: sourceLocation)
                return compared
            }
        }
        // The check means something only if many frames were partial (scroll frames report the whole moved viewport).
        #expect(partial > compared / 4, "\(name): only \(partial) of \(compared) frames were partial", sourceLocation: sourceLocation)
        return compared
    }

    static func touch(_ phase: InputEvent.TouchPhase, _ p: Point, _ t: Double) -> InputEvent {
        InputEvent(.touch(phase, slot: 0, position: p), time: t)
    }

    static func drag(from a: Point, to b: Point, at t: Double, duration: Double) -> [InputEvent] {
        var out = [touch(.down, a, t)]
        let steps = Int(duration / 0.008)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            out.append(touch(.move, Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f), t + Double(i) * 0.008))
        }
        out.append(touch(.up, b, t + duration + 0.004))
        return out
    }

    @Test func flickAndBounce() throws {
        try check("flick", seconds: 4) { _ in
            Self.drag(from: Point(x: 240, y: 350), to: Point(x: 240, y: 100), at: 0.1, duration: 0.08)
                + Self.drag(from: Point(x: 240, y: 100), to: Point(x: 240, y: 380), at: 2.2, duration: 0.06)
        }
    }

    /// Controls sliding and spinning in a list that scrolls under them.
    static func controlsScene() -> View {
        final class Flags { var on = false; var level = 0.3; var size = 0; var count = 1 }
        let flags = Flags()
        let column = Stack(.vertical, spacing: 8, padding: EdgeInsets(12))
        for i in 0..<4 {
            column.add(Toggle("Option \(i)", isOn: Binding(get: { flags.on }, set: { flags.on = $0 })))
            column.add(Slider(value: Binding(get: { flags.level }, set: { flags.level = $0 })))
            column.add(Picker("Size", selection: Binding(get: { flags.size }, set: { flags.size = $0 }), options: ["S", "M", "L"]))
            column.add(Stepper("Count", value: Binding(get: { flags.count }, set: { flags.count = $0 })))
            column.add(
                HStack {
                    ProgressView(); Button("Pay", icon: .cart, style: .prominent) {}; Divider(); ProgressView(value: 0.4)
                })
        }
        return ScrollView(id: "feed", content: column)
    }

    @Test func controlsAnimatingWhileTheListScrolls() throws {
        try check("controls", seconds: 3, scene: Self.controlsScene) { _ in
            [Self.touch(.down, Point(x: 240, y: 34), 0.1), Self.touch(.up, Point(x: 240, y: 34), 0.15)]
                + [Self.touch(.down, Point(x: 400, y: 160), 0.3), Self.touch(.up, Point(x: 400, y: 160), 0.34)]
                + Self.drag(from: Point(x: 240, y: 350), to: Point(x: 240, y: 200), at: 0.35, duration: 0.08)
                + Self.drag(from: Point(x: 100, y: 90), to: Point(x: 300, y: 90), at: 1.5, duration: 0.2)
        }
    }

    /// A pinned header stays put over rows that are copied under it, and is pushed out by the next.
    @Test func pinnedSectionHeaders() throws {
        try check("pinned headers", seconds: 3.5, scene: { ScrollView(id: "sv", content: GridTests().sectionedGrid()).background(.white) })
        { _ in
            Self.drag(from: Point(x: 240, y: 350), to: Point(x: 240, y: 150), at: 0.1, duration: 0.08)
                + Self.drag(from: Point(x: 240, y: 100), to: Point(x: 240, y: 300), at: 2, duration: 0.1)
        }
    }

    @Test func flickAtAFractionalScale() throws {
        try check("flick at 1.25", scale: 1.25, width: 600, height: 500, seconds: 3) { _ in
            Self.drag(from: Point(x: 300, y: 420), to: Point(x: 300, y: 180), at: 0.1, duration: 0.1)
        }
    }

    @Test func pageControlTapsAndCarouselSwipe() throws {
        try check("page control", seconds: 4) { w in
            let dots = w.root.view(withID: "dots")!.frameInWindow
            let box = w.root.view(withID: "carousel-box")!.frameInWindow
            return [
                Self.touch(.down, Point(x: dots.midX + 40, y: dots.midY), 0.1),
                Self.touch(.up, Point(x: dots.midX + 40, y: dots.midY), 0.16),
                Self.touch(.down, Point(x: dots.midX + 40, y: dots.midY), 1.0),
                Self.touch(.up, Point(x: dots.midX + 40, y: dots.midY), 1.06),
                Self.touch(.down, Point(x: dots.midX - 60, y: dots.midY), 1.8),
                Self.touch(.up, Point(x: dots.midX - 60, y: dots.midY), 1.86),
            ]
                + Self.drag(
                    from: Point(x: box.midX + 100, y: box.midY - 30), to: Point(x: box.midX - 100, y: box.midY - 30),
                    at: 2.5, duration: 0.1)
        }
    }

    @Test func pageControlScrub() throws {
        try check("scrub", seconds: 2.5) { w in
            let dots = w.root.view(withID: "dots")!.frameInWindow
            var e = [Self.touch(.down, Point(x: dots.midX, y: dots.midY), 0.1)]
            for i in 1...30 { e.append(Self.touch(.move, Point(x: dots.midX + Double(i) * 4, y: dots.midY), 0.1 + Double(i) * 0.016)) }
            e.append(Self.touch(.up, Point(x: dots.midX + 120, y: dots.midY), 0.7))
            return e
        }
    }

    @Test func indicatorFadeAfterAShortDrag() throws {
        try check("indicator fade", seconds: 3) { _ in
            var e = [Self.touch(.down, Point(x: 240, y: 300), 1.5)]
            for i in 1...10 { e.append(Self.touch(.move, Point(x: 240, y: 300 - Double(i) * 5), 1.5 + Double(i) * 0.016)) }
            e.append(Self.touch(.up, Point(x: 240, y: 250), 1.9))
            return e
        }
    }

    @Test func focusMovesAndKeys() throws {
        try check("focus", seconds: 5) { _ in
            var e: [InputEvent] = []
            for i in 0..<8 { e.append(InputEvent(.key(.tab, pressed: true), time: 0.1 + Double(i) * 0.3)) }
            e.append(InputEvent(.key(.escape, pressed: true), time: 2.6))
            e.append(InputEvent(.key(.pageDown, pressed: true), time: 2.8))
            e.append(InputEvent(.key(.end, pressed: true), time: 3.5))
            e.append(InputEvent(.key(.home, pressed: true), time: 4.2))
            return e
        }
    }

    /// A lazy list of rows of different heights with text: rows are built as they scroll in.
    static func lazyScene() -> View {
        let rows = LazyVStack(id: "rows", count: 100_000, spacing: 2, padding: EdgeInsets(8)) { i in
            let r = Stack(
                .horizontal, id: "row-\(i)", spacing: 8, padding: EdgeInsets(8), alignment: .leading,
                children: [
                    Box(
                        fill: Color(rgb: [0xE63946, 0x2A9D8F, 0xE9C46A, 0x457B9D][i % 4]), cornerRadius: 6, width: 30,
                        height: 30 + Double((i * 37) % 60)),
                    Label("Row \(i)", size: 16, maxLines: 1),
                ])
            r.background(.white, cornerRadius: 8)
            return r
        }
        let scroll = ScrollView(id: "feed", content: rows)
        scroll.fill = Color(rgb: 0xF2F2F7)
        return Stack(.vertical, children: [Label("Lazy", size: 26).frame(height: 40), scroll.flexible()])
    }

    @Test func aLazyListFlickedBothWays() throws {
        try check("lazy list", seconds: 5, scene: Self.lazyScene) { _ in
            Self.drag(from: Point(x: 240, y: 350), to: Point(x: 240, y: 60), at: 0.1, duration: 0.05)
                + Self.drag(from: Point(x: 240, y: 60), to: Point(x: 240, y: 380), at: 2.4, duration: 0.05)
        }
    }

    /// An app's own view that draws a pattern under a scroll view: the scroll view's pixels must
    /// not be copied over it, and it animates by itself.
    static func customScene() -> View {
        let list = ScrollView(
            id: "feed",
            content: Stack(
                .vertical, spacing: 6, padding: EdgeInsets(10),
                children: (0..<30).map { i in
                    Label("Line \(i) over a drawn backdrop", id: "line-\(i)", size: 18, maxLines: 1)
                }))
        let backdrop = Stripes(id: "stripes")
        backdrop.add(list)
        return Stack(.vertical, children: [Pulse(id: "pulse").frame(height: 40), backdrop.flexible()])
    }

    @Test func aCustomViewUnderAScrollViewAndOneThatAnimates() throws {
        try check("custom views", seconds: 3, scene: Self.customScene) { _ in
            Self.drag(from: Point(x: 240, y: 350), to: Point(x: 240, y: 150), at: 0.1, duration: 0.1)
        }
    }
}

/// Diagonal stripes drawn with the canvas: not a flat colour.
final class Stripes: View {
    override func draw(in context: inout DrawContext) {
        for i in stride(from: -Int(frame.height), to: Int(frame.width), by: 24) {
            var path = Path()
            let x = Double(i)
            path.move(to: Point(x: x * context.scale, y: 0))
            path.line(to: Point(x: (x + 12) * context.scale, y: 0))
            path.line(to: Point(x: (x + 12 + frame.height) * context.scale, y: frame.height * context.scale))
            path.line(to: Point(x: (x + frame.height) * context.scale, y: frame.height * context.scale))
            path.close()
            context.canvas.fill(path: path, color: Color(rgb: 0xDDE7F0).premultiplied)
        }
    }
}

/// A bar whose width follows the clock for two seconds.
final class Pulse: View, AnimatedView {
    var progress = 0.0
    func sample(at t: Double) {
        let p = min(1, t / 2)
        if p != progress { progress = p; setNeedsDisplay() }
    }
    func isAnimating(at t: Double) -> Bool { t < 2 }
    override func draw(in context: inout DrawContext) {
        context.fill(Rect(x: 0, y: 0, width: frame.width * progress, height: frame.height), color: Color(rgb: 0x0A84FF))
    }
}
