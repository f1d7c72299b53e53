import AppContract
import Geometry
import UI

/// The gallery's screenshot tour (`glide demo` runs it after the ordering demo's): each family's
/// screen from its tab, each modal open, a pushed screen, the spinner at work and a page turned.
/// Where to tap is found by rehearsing the script on a copy of the app, as the order tour does,
/// so it fits any window, direction and text size.
package enum GalleryTour {
    /// The script, rehearsed on `copy`: a gallery window set up as the one the script will play
    /// on, that nothing else uses.
    package static func script(rehearsingOn copy: Window) -> InputScript {
        let tour = Writer(OrderTour.Rehearsal(copy))
        tour.wait(300)
        for (i, screen) in GalleryApp.screens.enumerated() {
            tour.tap(GalleryApp.tabID(i))
            let name = "gallery-\(i + 1)-\(screen.title.lowercased())"
            tour.shot(name)
            extras(screen.title, name: name, tour)
        }
        return InputScript(entries: tour.builder.entries)
    }

    /// The screen's states that need an input: the modals open, a place pushed, the spinner, the
    /// next page.
    private static func extras(_ screen: String, name: String, _ tour: Writer) {
        switch screen {
        case "Fields":
            tour.tap("start-work", wait: 500); tour.shot(name + "-working")
            tour.wait(2000)
        case "Modals":
            tour.tap("show-alert"); tour.shot(name + "-alert"); tour.tap("alert.button-0")
            tour.tap("show-dialog"); tour.shot(name + "-dialog"); tour.tap("dialog.button-2")
            tour.tap("show-sheet", wait: 800); tour.shot(name + "-sheet"); tour.tap("sheet-close", wait: 800)
        case "Navigation":
            tour.tap("nav-row-0", wait: 800); tour.shot(name + "-pushed")
        case "Pages":
            guard let f = tour.rehearsal.frame(of: "pages") else { return }
            // The next page lies to the trailing side: a swipe towards the leading edge.
            let forward = tour.rehearsal.window.layoutDirection == .leftToRight
            let (right, left) = (f.minX + f.width * 0.8, f.minX + f.width * 0.2)
            tour.builder.swipe(
                from: Point(x: forward ? right : left, y: f.midY), to: Point(x: forward ? left : right, y: f.midY), ms: 120)
            tour.wait(1500)
            tour.shot(name + "-turned")
        default: break
        }
    }

    /// The script as it is written, played on the rehearsal as it grows.
    final class Writer {
        let rehearsal: OrderTour.Rehearsal
        var builder: ScriptBuilder

        init(_ rehearsal: OrderTour.Rehearsal) {
            self.rehearsal = rehearsal
            builder = ScriptBuilder(scale: rehearsal.window.scaleFactor)
        }

        func wait(_ ms: Double) { builder.wait(ms); rehearsal.play(builder) }
        func shot(_ name: String) { builder.shot(name) }

        /// A tap on the middle of the view `id` where it shows now; nothing when it does not.
        func tap(_ id: String, wait ms: Double = 700) {
            guard let f = rehearsal.frame(of: id) else { return }
            builder.tap(Point(x: f.midX, y: f.midY))
            wait(ms)
        }
    }
}
