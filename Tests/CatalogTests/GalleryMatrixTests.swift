#if canImport(Glibc)
import Glibc
#endif
import Audit
import Catalog
import Controls
import Headless
import ImageCodecs
import Raster
import Testing
import TestSupport
@testable import UI

/// The gallery in every look (light, dark, high contrast), direction, text size (100, 200 and
/// 300 %) and panel (800x480, 720x1280), each screen and modal of it (issue 59, item 2): the
/// audit finds nothing, each comes to rest within its animation's own time after the last
/// change, and every frame drawn on the way (screen switches, modals opening and closing, a
/// push) equals a full redraw. One window per combination, in one process: the screens are
/// visited as a person would, not built again.
@Suite
struct GalleryMatrixTests {
    struct Look: Sendable, CustomTestStringConvertible {
        var scheme: String
        var direction: LayoutDirection
        var percent: Int
        var width: Int, height: Int

        var name: String {
            "\(scheme)-\(direction == .leftToRight ? "ltr" : "rtl")-\(percent)-\(width)x\(height)"
        }
        var testDescription: String { name }
    }

    static let looks: [Look] = ["light", "dark", "contrast"].flatMap { scheme in
        [LayoutDirection.leftToRight, .rightToLeft].flatMap { direction in
            [100, 200, 300].flatMap { percent in
                [(800, 480), (720, 1280)].map { Look(scheme: scheme, direction: direction, percent: percent, width: $0.0, height: $0.1) }
            }
        }
    }

    /// The screens looked at closely, as goldens: one per look and direction, the sizes between.
    static let goldens: Set<String> = [
        "light-ltr-100-800x480 buttons", "dark-rtl-100-800x480 choices", "contrast-ltr-200-720x1280 modals-sheet",
        "light-rtl-300-720x1280 grid",
    ]

    @Test(arguments: looks) func everyScreenPassesInEveryLook(look: Look) throws {
        let model = GalleryModel()
        let window = GalleryApp.window(model: model, width: look.width, height: look.height, scaleFactor: 1, typography: try typography())
        window.colorScheme = look.scheme == "light" ? .light : .dark
        window.isHighContrast = look.scheme == "contrast"
        window.layoutDirection = look.direction
        window.textScale = Double(look.percent) / 100
        let player = Player(window: window, look: look)
        try player.settle("start")
        for (i, screen) in GalleryApp.screens.enumerated() {
            model.screen = i
            let name = screen.title.lowercased()
            try player.settle(name)
            player.audit(name)
            try visitStates(of: name, model: model, player)
        }
        let found = player.findings.map { "\($0.screen) \($0.rule) \($0.id ?? "-"): \($0.message)" }
        #expect(found.isEmpty, "\(look.name): \(found.joined(separator: "\n"))")
    }

    /// The states of a screen that a change shows: each modal open and closed again, a place
    /// pushed and popped, the spinner's work done.
    func visitStates(of screen: String, model: GalleryModel, _ player: Player) throws {
        let window = player.window
        switch screen {
        case "modals":
            let modals: [(String, ReferenceWritableKeyPath<GalleryModel, Bool>)] = [
                ("alert", \.showingAlert), ("dialog", \.showingDialog), ("sheet", \.showingSheet),
            ]
            for (name, open) in modals {
                model[keyPath: open] = true
                try player.settle("modals-\(name)")
                player.audit("modals-\(name)")
                model[keyPath: open] = false
                try player.settle("modals-\(name)-closed")
            }
        case "navigation":
            (window.root.view(withID: "nav-row-0") as? Button)?.action()
            try player.settle("navigation-pushed")
            player.audit("navigation-pushed")
            _ = (window.root.view(withID: "nav") as? NavigationStack)?.pop()
            try player.settle("navigation-popped")
        case "fields":
            model.working = true
            try player.settle("fields-working")
        default: break
        }
    }

    /// Plays a window's frames on a virtual clock, each drawn twice: with its damage, presented
    /// as a display presents it, and in full, for the comparison.
    final class Player {
        let window: Window
        let look: Look
        let display: HeadlessDisplay
        let frame: PixelBuffer, reference: PixelBuffer
        var t = 0.0
        var findings: [AccessibilityFinding] = []
        private var seenProblems = 0
        /// The longest the gallery takes to come to rest: its spinner's two seconds of work, and
        /// a frame's slack; a transition's own time is well under it.
        static let restLimit = 2.5
        static let hz = 60.0

        init(window: Window, look: Look) {
            self.window = window
            self.look = look
            display = HeadlessDisplay(width: window.pixelWidth, height: window.pixelHeight)
            frame = PixelBuffer(width: window.pixelWidth, height: window.pixelHeight)
            reference = PixelBuffer(width: window.pixelWidth, height: window.pixelHeight)
        }

        /// Draws frames until the window is at rest, comparing each with a full redraw; a
        /// window still drawing `restLimit` seconds after the change is an issue.
        func settle(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let start = t
            repeat {
                t += 1 / Self.hz
                _ = window.timers.runDue(upTo: t)
                try display.present(frame, damage: window.render(into: frame, at: t))
                window.fullDamage = true
                _ = window.render(into: reference, at: t)
                if let differ = differingPixels() {
                    let stem = "/tmp/glide-gallery-\(look.name)-\(name)"
                    try? PNG.write(display.screen, to: stem + "-screen.png")
                    try? PNG.write(reference, to: stem + "-full.png")
                    Issue.record(
                        "\(look.name) \(name): at t = \(t) \(differ) pixels differ from a full redraw; see \(stem)-screen.png",
                        sourceLocation: sourceLocation)
                    return
                }
            } while !window.isAtRest(at: t) && t - start < Self.restLimit
            let moving = window.animatingViews(at: t).map(\.logName)
            #expect(
                window.isAtRest(at: t), "\(look.name) \(name): still drawing \(Self.restLimit) s after the change: \(moving)",
                sourceLocation: sourceLocation)
        }

        func differingPixels() -> Int? {
            let (w, h) = (reference.width, reference.height)
            guard memcmp(display.screen.pixels, reference.pixels, w * h * 4) != 0 else { return nil }
            return (0..<h).reduce(0) { n, y in n + (0..<w).count { display.screen[$0, y] != reference[$0, y] } }
        }

        /// The screen as shown, audited; the goldens' screens compared with their PNGs.
        func audit(_ name: String) {
            let problems = Array(window.layoutProblems[seenProblems...])
            seenProblems = window.layoutProblems.count
            findings += AccessibilityAudit().findings(in: window, pixels: display.screen, screen: name, layoutProblems: problems)
            let key = "\(look.name) \(name)"
            if GalleryMatrixTests.goldens.contains(key) {
                assertGolden(display.screen, suite: "Gallery", name: key.split(separator: " ").joined(separator: "-"), maxChannelDelta: 2)
            }
        }
    }
}
