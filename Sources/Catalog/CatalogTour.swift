import Geometry
import AppContract
import UI

/// The demo's screenshot tour: a script that visits every screen and shows what it does,
/// computed from the catalog's own layout so it fits any window size.
package enum CatalogTour {
    package static func script(for app: CatalogApp) -> InputScript {
        var b = ScriptBuilder(scale: app.window.scaleFactor)
        let window = app.window
        window.layoutIfNeeded()
        func frame(_ id: String) -> Rect? { window.root.view(withID: id).map { $0.frameInWindow } }
        // Right to left, "forward" along a row is leftwards: swipes and taps mirror.
        let forward = window.layoutDirection == .rightToLeft ? -1.0 : 1.0

        b.shot("01-feed")
        if let carousel = frame("feed-carousel") {
            b.swipe(
                from: Point(x: carousel.midX + 200 * forward, y: carousel.midY),
                to: Point(x: carousel.midX - 200 * forward, y: carousel.midY), ms: 120)
            b.wait(700); b.shot("02-carousel-swiped")
        }
        if let control = frame("feed-carousel-pages") {
            b.tap(Point(x: control.midX + 40 * forward, y: control.midY))
            b.wait(700); b.shot("03-carousel-next-page")
        }
        if let feed = frame("feed") {
            b.swipe(from: Point(x: feed.midX, y: feed.maxY - 120), to: Point(x: feed.midX, y: feed.minY + 160), ms: 100)
            b.wait(250); b.shot("04-feed-flick")
            b.wait(3000); b.shot("05-feed-rest")
            b.key("End"); b.wait(1200)
            b.swipe(from: Point(x: feed.midX, y: feed.midY + 200), to: Point(x: feed.midX, y: feed.midY - 150), ms: 60)
            b.wait(120); b.shot("06-feed-bounce")
            b.wait(1500)
        }
        if let tab = frame("tab-photo") {
            b.tap(Point(x: tab.midX, y: tab.midY)); b.wait(400); b.shot("07-photo")
            if let photo = frame("photo") {
                let p = Point(x: photo.midX + 120, y: photo.midY - 60)
                b.tap(p); b.wait(150); b.tap(p)
                b.wait(900); b.shot("08-photo-double-tap")
                b.tap(p); b.wait(150); b.tap(p); b.wait(900)
            }
        }
        for (id, name) in [("article-en", "09-article"), ("article-ja", "11-article-ja"), ("article-ar", "12-article-ar")] {
            if let tab = frame("tab-\(id)") {
                b.tap(Point(x: tab.midX, y: tab.midY)); b.wait(400); b.shot(name)
                b.key("PageDown"); b.wait(900); b.shot(name + "-page-down")
            }
        }
        if let tab = frame("tab-pages") {
            b.tap(Point(x: tab.midX, y: tab.midY)); b.wait(400); b.shot("13-pages")
            if let control = frame("pages-pages") {
                b.drag(
                    from: Point(x: control.midX, y: control.midY), to: Point(x: control.midX + 150 * forward, y: control.midY), ms: 400,
                    hold: true)
                b.shot("14-pages-scrub")
                b.release(); b.wait(800); b.shot("15-pages-after-scrub")
            }
        }
        darkSteps(&b, toggle: frame("dark-mode"), feedTab: frame("tab-feed"))
        return InputScript(entries: b.entries)
    }

    /// The dark scheme, switched at run time from the sidebar (wide panels): the screen redraws
    /// in place, then the feed in the dark.
    static func darkSteps(_ b: inout ScriptBuilder, toggle: Rect?, feedTab: Rect?) {
        guard let toggle, let tab = feedTab else { return }
        b.tap(Point(x: toggle.midX, y: toggle.midY)); b.wait(400); b.shot("16-dark")
        b.tap(Point(x: tab.midX, y: tab.midY)); b.wait(400); b.shot("17-dark-feed")
    }
}

/// Builds script entries in window points (converted to pixels) on a running millisecond clock.
struct ScriptBuilder {
    let scale: Double
    var t = 0.0
    var entries: [InputScript.Entry] = []
    var held: Point?

    init(scale: Double) { self.scale = scale }

    mutating func add(_ action: InputScript.Action) {
        entries.append(InputScript.Entry(line: entries.count + 1, t: t, action: action))
    }
    mutating func wait(_ ms: Double) { t += ms }
    mutating func shot(_ name: String) { add(.screenshot(name)); add(.state(name)) }
    mutating func key(_ name: String) { if let k = Key(name: name) { add(.key(k)) }; wait(16) }
    func px(_ p: Point) -> Point { Point(x: (p.x * scale).rounded(), y: (p.y * scale).rounded()) }

    mutating func touch(_ phase: InputEvent.TouchPhase, _ p: Point) {
        add(.input(.touch(phase, slot: 0, position: px(p))))
    }
    mutating func tap(_ p: Point) {
        touch(.down, p); wait(60); touch(.up, p); wait(16)
    }
    /// A finger moves from `a` to `b` over `ms` in 8 ms steps, then lifts (unless `hold`).
    mutating func drag(from a: Point, to b: Point, ms: Double, hold: Bool = false) {
        touch(.down, a)
        let steps = max(1, Int(ms / 8))
        for i in 1...steps {
            wait(8)
            let f = Double(i) / Double(steps)
            touch(.move, Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))
        }
        held = b
        if !hold { release() }
    }
    mutating func release() {
        guard let p = held else { return }
        wait(4); touch(.up, p); held = nil; wait(16)
    }
    mutating func swipe(from a: Point, to b: Point, ms: Double) { drag(from: a, to: b, ms: ms) }
}
