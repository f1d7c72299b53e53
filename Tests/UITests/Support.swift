import Geometry
import Raster
import Runtime
import Scrolling
import Testing
import Text
@testable import UI

// Shared helpers: fonts from the repository, a window of a given size, and input at times.

/// Fonts shipped in the repository's `Fonts/` (found from this file's path).
func makeTypography() throws -> Typography {
    try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
}

/// A window over `root`, laid out (pixels `width`×`height`).
func makeWindow(_ root: View, width: Int = 400, height: Int = 400, scale: Double = 1) throws -> Window {
    let w = Window(width: width, height: height, scaleFactor: scale, typography: try makeTypography(), root: root)
    w.layoutIfNeeded()
    return w
}

/// A plain colored row with a fixed height.
func row(_ i: Int, height: Double = 50, id: String? = nil) -> Box {
    let colors: [UInt32] = [0xE63946, 0x2A9D8F, 0xE9C46A, 0x457B9D, 0xF4A261]
    return Box(id: id ?? "row-\(i)", fill: Color(rgb: colors[i % colors.count]), height: height)
}

/// A vertical list of `count` rows in a scroll view with id "list".
func list(_ count: Int, rowHeight: Double = 50, spacing: Double = 0, configuration: ScrollConfiguration = .init()) -> ScrollView {
    let stack = Stack(.vertical, id: "rows", spacing: spacing)
    for i in 0..<count { stack.add(row(i, height: rowHeight)) }
    return ScrollView(id: "list", axes: .vertical, configuration: configuration, content: stack)
}

/// A horizontal paging scroll view with id `id` over `count` full-width pages ("page-0"...) of
/// 200 pt rows.
func pagingScrollView(_ count: Int, id: String = "pager") -> ScrollView {
    let strip = Stack(.horizontal, id: "strip")
    for i in 0..<count { strip.add(row(i, height: 200, id: "page-\(i)")) }
    var paging = ScrollConfiguration()
    paging.isPagingEnabled = true
    let pager = ScrollView(id: id, axes: .horizontal, configuration: paging, content: strip)
    pager.sizesPagesToViewport = true
    return pager
}

extension Window {
    func touch(_ phase: InputEvent.TouchPhase, _ x: Double, _ y: Double, at t: Double, slot: Int = 0) {
        handle(InputEvent(.touch(phase, slot: slot, position: Point(x: x, y: y)), time: t))
    }

    /// A finger from (x0, y0) to (x1, y1) over `duration` s in 8 ms steps starting at `t`, lifted
    /// at the end unless `lift` is false. Returns the time of the last event.
    @discardableResult
    func drag(from a: Point, to b: Point, at t: Double, duration: Double = 0.1, lift: Bool = true, slot: Int = 0) -> Double {
        touch(.down, a.x, a.y, at: t, slot: slot)
        let steps = max(1, Int((duration / 0.008).rounded()))
        var time = t
        for i in 1...steps {
            time = t + Double(i) * 0.008
            let f = Double(i) / Double(steps)
            touch(.move, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, at: time, slot: slot)
        }
        if lift { time += 0.004; touch(.up, b.x, b.y, at: time, slot: slot) }
        return time
    }

    func tap(_ x: Double, _ y: Double, at t: Double, slot: Int = 0) {
        touch(.down, x, y, at: t, slot: slot)
        touch(.up, x, y, at: t + 0.06, slot: slot)
    }

    func key(_ k: Key, at t: Double) {
        handle(InputEvent(.key(k, pressed: true), time: t))
        handle(InputEvent(.key(k, pressed: false), time: t))
    }

    /// Renders a frame at `from`, at every multiple of 1/`hz` after it up to `to`, and at `to`,
    /// into `buffer` and returns it. (Frames never go back in time: start at or after the
    /// last event: `from` is raised to the window's latest event time.)
    @discardableResult
    func frames(from: Double, to: Double, hz: Double = 60, into buffer: PixelBuffer? = nil) -> PixelBuffer {
        let b = buffer ?? PixelBuffer(width: pixelWidth, height: pixelHeight)
        let from = max(from, currentTime)
        _ = render(into: b, at: from)
        var n = Int((from * hz).rounded(.down)) + 1
        while Double(n) / hz < to {
            _ = render(into: b, at: Double(n) / hz)
            n += 1
        }
        if to > from { _ = render(into: b, at: to) }
        return b
    }

    /// A complete redraw of the current state at `t` into a fresh buffer.
    func fullRedraw(at t: Double) -> PixelBuffer {
        let b = PixelBuffer(width: pixelWidth, height: pixelHeight)
        fullDamage = true
        _ = render(into: b, at: t)
        return b
    }

    func scrollView(_ id: String) -> ScrollView { root.view(withID: id) as! ScrollView }
}

/// Counts its draw calls (a row of a long list).
final class CountingBox: Box {
    let counter: Counter
    init(id: String, counter: Counter, height: Double) {
        self.counter = counter
        super.init(id: id, fill: Color(rgb: 0x8ECAE6), height: height)
    }
    override func draw(in context: inout DrawContext) {
        counter.count += 1
        counter.ids.insert(id ?? "")
        super.draw(in: &context)
    }
}

final class Counter {
    var count = 0
    var ids: Set<String> = []
}

func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }
