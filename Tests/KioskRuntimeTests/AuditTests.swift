#if canImport(Glibc)
import Glibc
#endif
import AppContract
import ArgumentParser
import Audit
import Catalog
import Geometry
import Headless
import Observation
import ImageCodecs
import Raster
import TestSupport
import Testing
import Text
import UI
import Widgets
import Controls
import TextInput
import ViewCore
@testable import KioskRuntime

/// `audit` on an app with planted faults finds exactly those, with their figures; the catalog and
/// the ordering demo pass.
@Suite struct AuditTests {
    /// A grey-on-grey label, a 30-point icon button without a label next to another target, a
    /// row that fits at 100 % text and not at 200 %, and a view only a finger can use.
    static func faulty(_ launch: Launch) -> Window {
        let grey = Label("Departures", id: "grey", size: 17, color: Color(rgb: 0x9A9A9A))
        let icon = Box(id: "icon", fill: Color(rgb: 0x1C1C1E), width: 30, height: 30).onTap {}.focusable()
        let next = Label("Next", id: "next", size: 17).onTap {}.focusable()
        let tapOnly = Label("Call staff", id: "tap-only", size: 17).onTap {}
        let row = Stack(
            .horizontal, id: "wide-row", spacing: 8,
            children: [
                Label("Platform", size: 17, maxLines: 1).fixedSize(), Label("Destination", size: 17, maxLines: 1).fixedSize(),
                Label("Departure", size: 17, maxLines: 1).fixedSize(),
            ])
        let root = Stack(
            .vertical, spacing: 20, padding: EdgeInsets(20),
            children: [grey, Stack(.horizontal, spacing: 4, children: [icon, next]), tapOnly, row])
        root.fill = Color(rgb: 0xC8C8C8)
        return Window(
            width: launch.width, height: launch.height, scaleFactor: launch.scaleFactor, typography: launch.typography, root: root)
    }

    func window(_ width: Int, _ height: Int) throws -> Window {
        Self.faulty(
            Launch(width: width, height: height, scaleFactor: 1, typography: try CalibrationScreenTests.typography(), isHeadless: true))
    }

    @Test func plantedFaultsAreFoundWithTheirFigures() throws {
        let w = try window(400, 480)
        let found = Kiosk.audit(w)
        let summary = found.map { "\($0.screen) \($0.rule) \($0.id ?? "-")" }
        #expect(
            summary == [
                "first contrast grey", "first target-size icon", "first label icon", "first keypad tap-only",
                "first-200 contrast grey", "first-200 target-size icon", "first-200 label icon", "first-200 keypad tap-only",
                "first-200 overflow wide-row", "first-300 contrast grey", "first-300 target-size icon", "first-300 label icon",
                "first-300 keypad tap-only", "first-300 overflow -",
            ])
        // At 300 % the row said it was cut at 200 % already: its label past the edge is found.
        #expect(found.last?.message.hasPrefix("label \"Destination\" runs past the edge") == true, "\(found.last?.message ?? "")")
        #expect(found.first { $0.rule == "target-size" }?.figure == 30)
        #expect(found.first { $0.rule == "target-size" }?.frame == [20, 60, 30, 30])
    }

    /// A spinner that never stops is still moving six seconds after the last input, and an idle
    /// reset that warns nobody is a timeout; warned first, it passes.
    @Test func endlessMotionAndASilentIdleResetAreFound() throws {
        let spinner = ProgressView("Loading", id: "loading")
        let w = Window(
            width: 400, height: 300, typography: try CalibrationScreenTests.typography(),
            root: Stack(.vertical, padding: EdgeInsets(20), children: [spinner]))
        w.idleResetSeconds = 60
        let found = Kiosk.audit(w, rules: ["motion", "timeout"])
        #expect(
            found.map { "\($0.screen) \($0.rule) \($0.id ?? "-")" } == [
                "first timeout -", "first motion loading", "first-200 timeout -", "first-300 timeout -",
            ])
        #expect(found.first { $0.rule == "motion" }?.figure == 6 && found.first?.figure == 60)
        w.idleResetWarningSeconds = 20
        w.onIdleResetWarning = {}
        #expect(Kiosk.audit(w, rules: ["timeout"]).isEmpty)
    }

    /// The ratio the audit gives is WCAG's formula on the same pixels: the text's colour and the
    /// colour most of the label's box shows.
    @Test func contrastAgreesWithTheWCAGFormulaOnThePixels() throws {
        let w = try window(400, 480)
        let frame = PixelBuffer(width: 400, height: 480)
        _ = w.render(into: frame, at: 0)
        let f = try #require(AccessibilityAudit().findings(in: w, pixels: frame, screen: "s").first { $0.rule == "contrast" })
        func luminance(_ argb: UInt32) -> Double {
            func channel(_ shift: UInt32) -> Double {
                let c = Double((argb >> shift) & 0xFF) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        }
        var counts: [UInt32: Int] = [:]
        let x0 = Int(f.frame[0]), y0 = Int(f.frame[1])
        for y in y0..<(y0 + Int(f.frame[3])) { for x in x0..<(x0 + Int(f.frame[2])) { counts[frame[x, y], default: 0] += 1 } }
        let background = try #require(counts.max { $0.value < $1.value }).key
        let (a, b) = (luminance(0xFF9A_9A9A), luminance(background))
        let reference = (max(a, b) + 0.05) / (min(a, b) + 0.05)
        #expect(abs(try #require(f.figure) - reference) < 0.05, "\(f.figure ?? 0) against \(reference)")
    }

    /// Lays out its first child below its second: read first, seen second.
    final class Swapped: View {
        override func layoutChildren() {
            children[0].frame = Rect(x: 0, y: 100, width: frame.width, height: 90)
            children[1].frame = Rect(x: 0, y: 0, width: frame.width, height: 90)
        }
        override func sizeThatFits(_ proposal: Size) -> Size { Size(width: proposal.width, height: 190) }
    }

    /// Lays out both its children at its top-left corner.
    final class Piled: View {
        override func layoutChildren() { for c in children { c.frame = Rect(x: 0, y: 0, width: frame.width, height: 90) } }
        override func sizeThatFits(_ proposal: Size) -> Size { Size(width: proposal.width, height: 90) }
    }

    /// The rules' other halves: a field whose pale border does not show where to type (non-text
    /// contrast), a label read before one it sits below (reading order), two labels drawn over
    /// each other, and a one-line label that larger text cuts short.
    @Test func paleEdgesReadingOrderOverlapsAndCutTextAreFound() throws {
        func adding(_ v: View, _ children: [View]) -> View { for c in children { v.add(c) }; return v }
        let field = TextField(id: "pale", placeholder: "Name")
        field.borderColor = Color(rgb: 0xE5E5EA)
        let root = Stack(
            .vertical, spacing: 16, padding: EdgeInsets(20),
            children: [
                field, adding(Swapped(), [Label("Second", id: "second"), Label("First", id: "first")]),
                adding(Piled(), [Label("Gate", id: "gate"), Label("Time 12:40", id: "time")]),
                Label("Platform nine and three quarters", id: "cut", size: 17, maxLines: 1),
            ])
        root.fill = .white
        let w = Window(width: 400, height: 900, typography: try CalibrationScreenTests.typography(), root: root)
        let found = Kiosk.audit(w, rules: ["contrast", "label", "overflow"])
        let summary = found.map { "\($0.screen) \($0.rule) \($0.id ?? "-") \($0.figure.map { "\($0)" } ?? "")" }
        func screen(_ name: String, cut: String?) -> [String] {
            ["contrast pale 1.26", "label first "] + (cut.map { ["overflow cut \($0)"] } ?? []) + ["overflow time "]
        }
        #expect(
            summary
                == screen("first", cut: nil).map { "first " + $0 } + screen("first-200", cut: "200.0").map { "first-200 " + $0 }
                + screen("first-300", cut: "300.0").map { "first-300 " + $0 })
        #expect(found[0].message.contains("border stands out 1.26:1"))
    }

    /// Asks for a layout in every layout, as the trial app's sheet did (it set its panel's
    /// padding there): the window never comes to rest, and its frames change nothing.
    final class Restless: View {
        override func layoutChildren() {
            super.layoutChildren()
            setNeedsLayout()
        }
    }

    /// Says it animates for ever, and draws the same every frame.
    final class Idling: View, AnimatedView {
        func sample(at t: Double) {}
        func isAnimating(at t: Double) -> Bool { true }
    }

    func screen(_ children: [View], width: Int = 240, height: Int = 160) throws -> Window {
        let root = Stack(.vertical, spacing: 12, padding: EdgeInsets(20), children: children)
        root.fill = .white
        return Window(width: width, height: height, typography: try CalibrationScreenTests.typography(), root: root)
    }

    /// A screen that keeps drawing frames that change nothing is found, with the views that ask
    /// for them; one that moves is motion, not this; one that rests passes.
    @Test func framesThatChangeNothingAreFound() throws {
        let restless = Restless(id: "restless")
        restless.height = 30
        let w = try screen([Label("Departures", size: 17), restless])
        let found = Kiosk.audit(w, rules: ["rest", "motion"])
        #expect(found.map { "\($0.screen) \($0.rule) \($0.id ?? "-")" } == ["first rest restless"])
        #expect(found.first?.figure == 8, "\(found.first?.figure ?? 0)")
        #expect(found.first?.message.hasPrefix("'restless' keeps asking for frames 8 s after the last input") == true)
        let idling = Idling(id: "idling")
        let still = try screen([Label("Departures", size: 17), idling])
        #expect(Kiosk.audit(still, rules: ["rest", "motion"]).map { "\($0.rule) \($0.id ?? "-")" } == ["rest idling"])
        let spinner = try screen([ProgressView("Loading", id: "loading")])
        #expect(Kiosk.audit(spinner, rules: ["rest", "motion"]).map { "\($0.rule) \($0.id ?? "-")" } == ["motion loading"])
        #expect(Kiosk.audit(try screen([Label("Departures", size: 17)]), rules: ["rest", "motion"]).isEmpty)
    }

    /// A label too narrow for a word at 200 % and 300 % text breaks it between its letters; at
    /// 100 % it fits, and a label that wraps at its spaces passes.
    @Test func aWordBrokenInsideIsFound() throws {
        let narrow = Label("Departures", id: "narrow", size: 17)
        narrow.width = 110
        let w = try screen([narrow, Label("Gate 4 to Platform 9", size: 17)], width: 400, height: 480)
        let found = Kiosk.audit(w, rules: ["overflow"])
        #expect(
            found.map { "\($0.screen) \($0.rule) \($0.id ?? "-") \($0.figure ?? 0)" } == [
                "first-200 overflow narrow 200.0", "first-300 overflow narrow 300.0",
            ])
        #expect(found.last?.message.hasPrefix("'narrow' breaks \"Dep") == true, "\(found.last?.message ?? "")")
        #expect(narrow.wordsBrokenInside.first?.split(separator: "/").joined() == "Departures")
    }

    @Observable final class Choices {
        var sheet = false
        var alert = false
        var dialog = false
    }

    /// The reading order is checked where the screen reader reads: a navigation bar (its back
    /// button, then the title) and a modal over the app, not the screen behind it.
    @Test(arguments: [LayoutDirection.leftToRight, .rightToLeft])
    func theReadingOrderIsCheckedInBarsAndModals(direction: LayoutDirection) throws {
        func adding(_ v: View, _ children: [View]) -> View { for c in children { v.add(c) }; return v }
        let choices = Choices()
        let behind = adding(Swapped(), [Label("Later", id: "later"), Label("Sooner", id: "sooner")])
        let nav = NavigationStack(id: "nav", root: Label("Stations"), title: "Tickets")
        nav.push(Stack(.vertical, padding: EdgeInsets(20), children: [behind]), title: "Zones", animated: false)
        nav.sheet(id: "cart", isPresented: Binding(get: { choices.sheet }, set: { choices.sheet = $0 })) {
            adding(Swapped(), [Label("Total 12.40", id: "total"), Label("Your order", id: "heading")])
        }
        .alert(
            "Delete order?", id: "confirm", isPresented: Binding(get: { choices.alert }, set: { choices.alert = $0 }),
            message: "This cannot be undone.", buttons: [AlertButton("Cancel", role: .cancel), AlertButton("Delete", role: .destructive)]
        )
        .confirmationDialog(
            "Pay how?", id: "pay", isPresented: Binding(get: { choices.dialog }, set: { choices.dialog = $0 }),
            buttons: [AlertButton("Card"), AlertButton("Cash"), AlertButton("Cancel", role: .cancel)])
        let w = Window(width: 400, height: 600, typography: try CalibrationScreenTests.typography(), root: nav)
        w.layoutDirection = direction
        func found() -> [String] {
            w.textScale = 1
            return Kiosk.audit(w, rules: ["label"]).filter { $0.screen == "first" }.map { "\($0.rule) \($0.id ?? "-")" }
        }
        // The bar's back button and title, then the screen's fault.
        #expect(found() == ["label sooner"])
        choices.sheet = true
        #expect(found() == ["label heading"])
        // Read as the screen reader reads it: its texts one by one, not the sheet as one button.
        #expect(w.accessibilityElements().map(\.label) == ["Total 12.40", "Your order"])
        choices.sheet = false
        let modals: [(ReferenceWritableKeyPath<Choices, Bool>, [String])] = [
            (\.alert, ["Delete order?", "This cannot be undone.", "Cancel", "Delete"]), (\.dialog, ["Pay how?", "Card", "Cash", "Cancel"]),
        ]
        for (show, read) in modals {
            choices[keyPath: show] = true
            #expect(found().isEmpty, "\(show)")
            #expect(w.accessibilityElements().map(\.label) == read)
            choices[keyPath: show] = false
        }
    }

    /// The focus ring's two colours stand out 3:1 from each other whatever the accent, so the ring
    /// shows on any background (the lowest is a mid grey's 4.0:1 against its white inner line).
    @Test func theFocusRingStandsOutFromItsInnerLineForEveryAccent() throws {
        let w = Window(width: 100, height: 100, typography: try CalibrationScreenTests.typography(), root: View())
        var lowest = 21.0
        for g in 0...255 {
            for accent in [Color(red: UInt8(g), green: UInt8(g), blue: UInt8(g)), Color(red: UInt8(g), green: 0, blue: 255 - UInt8(g))] {
                w.accent = accent
                let (ring, halo) = w.focusRingColors
                func l(_ c: Color) -> Double { AccessibilityAudit.luminance(red: c.red, green: c.green, blue: c.blue) }
                lowest = min(lowest, AccessibilityAudit.contrastRatio(l(ring), l(halo)))
            }
        }
        #expect(lowest >= 3 && (lowest * 100).rounded() == 400, "\(lowest)")
    }

    @Test func theCatalogAndTheOrderingDemoPass() throws {
        for (app, w, h) in [("catalog", 1280, 800), ("catalog", 480, 800), ("order", 800, 480), ("order", 720, 1280)] {
            let window = try AppFactory.window(named: app, width: w, height: h, scaleFactor: 1, manifestPath: nil, report: { _ in }).0
            let found = Kiosk.audit(window)
            #expect(found.isEmpty, "\(app) at \(w)x\(h): \(found.map(\.message))")
        }
    }

    /// A script's screens are audited and handed on as they come (issue 61: 300 screenshot lines
    /// kept 300 screens twice over, 2.5 GB): each screen's pixels live only through the sink's
    /// call, with the findings on it already in the report, and the runner keeps no copy of a
    /// screenshot it tells of, so memory does not grow with the script.
    @Test func screensAreHandedOnAsTheyComeAndNoneIsKept() throws {
        let shots = 40
        let lines = (0..<shots).map { #"{"t": \#(500 + 50 * $0), "screenshot": "s\#($0)"}"# }
        let script = try InputScript.parse(lines.joined(separator: "\n"))
        let w = try window(400, 480)
        weak var previous: PixelBuffer?
        var names: [String] = [], outlived = 0, found: [Int] = []
        let report = try Auditor(window: w, width: 400, height: 480, audit: AccessibilityAudit()).run(script: script) {
            name, pixels, report in
            if previous != nil { outlived += 1 }
            previous = pixels
            names.append(name)
            found.append(report.findings.filter { $0.screen == name }.count)
        }
        #expect(outlived == 0 && previous == nil)
        #expect(names == (0..<shots).map { "s\($0)" } + ["final"] && report.screens == names)
        // Grey text, a small unlabelled icon beside another target, a view only a finger reaches.
        #expect(found == Array(repeating: 4, count: shots + 1))
        let runner = HeadlessRunner(app: w, width: 400, height: 480)
        runner.onScreenshot = { _ in }
        #expect(try runner.run(script).screenshots.isEmpty)
    }

    /// The command line: exit status 1 and the three reports with findings, 2 for an unknown rule.
    @Test func theCommandWritesItsReportsAndSaysWhatItFound() throws {
        let out = "/tmp/glide-audit-test-\(getpid())"
        let source = AppSource { w, h, scale, _, _ in
            Self.faulty(
                Launch(width: w, height: h, scaleFactor: scale, typography: try CalibrationScreenTests.typography(), isHeadless: true))
        }
        #expect(throws: ExitCode(1)) { try AuditRuntime.run(try AuditOptions.parse(["--size", "400x480", "--out", out]), app: source) }
        let json = String(decoding: try FileIO.readAll(path: out + "/audit.json"), as: UTF8.self)
        #expect(json.contains("\"rule\" : \"keypad\"") && json.contains("\"screen\" : \"first-200\""))
        let html = String(decoding: try FileIO.readAll(path: out + "/audit.html"), as: UTF8.self)
        #expect(html.contains("<img src=\"first.png\""))
        _ = try PNG.read(path: out + "/first-200.png")
        #expect(throws: ExitCode(2)) {
            try AuditRuntime.run(try AuditOptions.parse(["--out", out, "--rules", "contrast,colour"]), app: source)
        }
    }
}

/// The first frame's report (`run --timing`, the board's log): the process's age from the kernel's
/// record, and the parts in order.
@Suite struct StartupClockTests {
    @Test func theProcessKnowsItsAgeAndTheReportNamesItsParts() throws {
        let age = try #require(StartupClock.secondsSinceExec())
        // This test process started before the test, and less than an hour ago.
        #expect(age > 0 && age < 3600)
        let report = Startup(sinceExec: 0.04, building: 0.1).report(layout: 0.02, firstRaster: 0.03)
        #expect(
            report
                == "first frame 190 ms after exec: start-up 40 (loader, Swift runtime, options; in 10 ms steps), app 100 (its views and fonts), layout 20, first raster 30"
        )
        #expect(Startup(sinceExec: nil, building: 0.1).report(layout: 0, firstRaster: 0).hasPrefix("first frame 100 ms after run: app 100"))
    }
}
