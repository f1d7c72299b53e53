import Controls
import Geometry
import Raster
import Testing
import TextInput
import UI
import ViewCore
import Widgets
@testable import KioskRuntime

/// An app made of Glide's default views passes Glide's own audit with no ignores, in light,
/// dark and high contrast, left to right and right to left (issue 59's faults: a dark picker's
/// chosen segment white on white, the navigation title read after the screen, the stepper's
/// unlabelled buttons, a focused field's border).
@Suite struct DefaultViewsAuditTests {
    final class Model {
        var tickets = 1
        var zone = 0
    }

    static func ticketScreen(_ model: Model) -> View {
        let stepper = Stepper("Tickets", id: "tickets", value: Binding(get: { model.tickets }, set: { model.tickets = $0 }), in: 1...9)
        let zones = Picker(
            "Zone", id: "zone", selection: Binding(get: { model.zone }, set: { model.zone = $0 }), options: ["Zone 1", "Zone 2", "Zone 3"])
        let search = TextField(id: "station", placeholder: "Station")
        let stations = Stack(.vertical, spacing: 16, padding: EdgeInsets(20), children: [search, zones, stepper])
        return NavigationStack(id: "nav", root: stations, title: "Tickets")
    }

    @Test(arguments: ["light", "dark", "contrast"], [LayoutDirection.leftToRight, .rightToLeft])
    func theDefaultViewsPassTheAudit(look: String, direction: LayoutDirection) throws {
        let w = Window(
            width: 800, height: 480, scaleFactor: 1, typography: try CalibrationScreenTests.typography(),
            root: Self.ticketScreen(Model()))
        w.colorScheme = look == "light" ? .light : .dark
        w.isHighContrast = look == "contrast"
        w.layoutDirection = direction
        w.layoutIfNeeded()
        w.focus(w.root.view(withID: "station"))
        let found = Kiosk.audit(w)
        #expect(found.isEmpty, "\(look) \(direction): \(found.map { "\($0.screen) \($0.rule) \($0.id ?? "-"): \($0.message)" })")
    }
}
