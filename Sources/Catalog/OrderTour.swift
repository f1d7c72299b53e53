import AppContract
import Geometry
import Raster
import UI

/// The ordering demo's screenshot tour (`glide demo` runs it after the catalog's): products
/// added from the grid, the takeaway switch, the cart sheet, the confirmation, the spinner while
/// the card terminal answers, and a flick that pins a category's header. Where to tap is found by
/// rehearsing the script on a copy of the app of the same size, so it fits any window and
/// reaches views (the sheet's, the alert's) that only exist once the earlier taps happened.
package enum OrderTour {
    /// The script, rehearsed on `copy`: a window of the order app, set up as the one the script
    /// will play on (size, scale, direction, language), that nothing else uses.
    package static func script(rehearsingOn copy: Window) -> InputScript {
        let rehearsal = Rehearsal(copy)
        var b = ScriptBuilder(scale: copy.scaleFactor)
        func tap(_ id: String, wait ms: Double = 400) {
            guard let f = rehearsal.frame(of: id) else { return }
            b.tap(Point(x: f.midX, y: f.midY)); b.wait(ms)
            rehearsal.play(b)
        }
        b.wait(300); rehearsal.play(b)
        b.shot("order-01-menu")
        tap("add-0"); tap("add-0"); tap("add-1"); tap("takeaway", wait: 600)
        b.shot("order-02-added")
        tap("cart", wait: 700)
        b.shot("order-03-cart")
        tap("pay", wait: 600)
        b.shot("order-04-confirm")
        tap("confirm.button-1", wait: 500)
        b.shot("order-05-paying")
        b.wait(2500); rehearsal.play(b)
        b.shot("order-06-paid")
        if let menu = rehearsal.frame(of: "menu") {
            b.swipe(from: Point(x: menu.midX, y: menu.maxY - 60), to: Point(x: menu.midX, y: menu.minY + 120), ms: 80)
            b.wait(2500)
            b.shot("order-07-pinned-header")
        }
        return InputScript(entries: b.entries)
    }

    /// A copy of the app that the script is played on as it is written.
    final class Rehearsal {
        let window: Window
        private let frame: PixelBuffer
        private var played = 0
        private var t = 0.0

        init(_ window: Window) {
            self.window = window
            frame = PixelBuffer(width: window.pixelWidth, height: window.pixelHeight)
        }

        /// Where the view `id` shows now, in points, found as a test finds it: in the state (the
        /// modal's views are in a layer of their own, over the app's tree).
        func frame(of id: String) -> Rect? {
            let state = window.state(at: t, frameNumber: 0)
            guard let f = state.elements.first(where: { $0.id == id })?.frame ?? state.scrollViews.first(where: { $0.id == id })?.frame,
                f.count == 4
            else { return nil }
            let s = window.scaleFactor
            return Rect(x: f[0] / s, y: f[1] / s, width: f[2] / s, height: f[3] / s)
        }

        /// Plays the entries written since the last call, and the time up to the script's clock,
        /// at 10 frames a second: motion is a function of time, so fewer frames end in the same
        /// picture as the run's 60.
        func play(_ b: ScriptBuilder) {
            for entry in b.entries[played...] {
                advance(to: entry.t / 1000)
                switch entry.action {
                case let .input(kind): window.handle(InputEvent(kind, time: entry.t / 1000))
                case let .key(key): InputEvent.keyStroke(key, at: entry.t / 1000).forEach(window.handle)
                case .screenshot, .state: break
                }
            }
            played = b.entries.count
            advance(to: b.t / 1000)
        }

        private func advance(to end: Double) {
            while t < end {
                t = min(end, t + 0.1)
                _ = window.timers.runDue(upTo: t)
                _ = window.render(into: frame, at: t)
            }
        }
    }
}
