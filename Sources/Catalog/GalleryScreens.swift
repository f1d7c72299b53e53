import Controls
import Geometry
import Raster
import Scrolling
import UI

/// The gallery's screens, one per family of views.
extension GalleryApp {
    static let longTitle = "A long title that wraps onto a second line when the panel is narrow or the text is large"
    static let arabicTitle = "أضف إلى السلة"

    /// Every button style, with and without an icon, destructive, disabled, pressed, focused,
    /// with a long title and with an Arabic one.
    static func buttons() -> View {
        let pressed = Button("Pressed", id: "button-pressed") {}
        // The pressed look, held without a finger, so it can be seen and audited at rest.
        pressed.isPressed = true
        return column(
            "buttons", "Buttons",
            [
                Button("Prominent", id: "button-prominent", style: .prominent) {},
                Button("Bordered", id: "button-bordered") {},
                Button("Plain", id: "button-plain", style: .plain) {},
                Button("With an icon", id: "button-icon", icon: Icon("add_shopping_cart"), style: .prominent) {},
                Button("Delete", id: "button-destructive", icon: Icon("delete"), role: .destructive) {},
                Button("Disabled", id: "button-disabled", icon: Icon("block")) {}.disabled(),
                pressed,
                Button("Focused", id: "button-focused") {},
                Button(longTitle, id: "button-long") {},
                Button(arabicTitle, id: "button-arabic", icon: Icon("shopping_cart")) {},
            ])
    }

    /// Switches on and off, segments, steppers empty and full, sliders empty, half and full,
    /// each also disabled.
    static func choices(model: GalleryModel) -> View {
        column(
            "choices", "Choices",
            [
                Toggle("On", id: "toggle-on", isOn: Binding(model, \.on)),
                Toggle("Off", id: "toggle-off", isOn: Binding(model, \.off)),
                Toggle("Disabled", id: "toggle-disabled", isOn: Binding(model, \.on)).disabled(),
                Toggle("الإشعارات", id: "toggle-arabic", isOn: Binding(model, \.arabicOn)),
                Picker("Size", id: "picker", selection: Binding(model, \.segment), options: ["Small", "Medium", "Large"]),
                Picker("Size, disabled", id: "picker-disabled", selection: Binding(model, \.segment), options: ["S", "M", "L"])
                    .disabled(),
                Stepper("Empty", id: "stepper-empty", value: Binding(model, \.empty), in: 0...9),
                Stepper("Full", id: "stepper-full", value: Binding(model, \.full), in: 0...9),
                Stepper(longTitle, id: "stepper-long", value: Binding(model, \.empty), in: 0...9),
                caption("Sliders: empty, part way, full, disabled"),
                Slider("Empty", id: "slider-empty", value: Binding(model, \.low)),
                Slider("Part way", id: "slider-middle", value: Binding(model, \.middle)),
                Slider("Full", id: "slider-full", value: Binding(model, \.high)),
                Slider("Disabled", id: "slider-disabled", value: Binding(model, \.middle)).disabled(),
            ])
    }

    /// Text fields empty (a placeholder), filled, long and Arabic; progress bars empty, part way
    /// and full; a spinner while a piece of work runs; a divider.
    static func fields(model: GalleryModel) -> View {
        let spinner = ProgressView("Working", id: "spinner").follow { $0.isHidden = !model.working }
        let start = Button("Start work", id: "start-work", icon: Icon("play_arrow")) { model.working = true }
            .follow { $0.isEnabled = !model.working }
        return column(
            "fields", "Fields",
            [
                TextField(id: "field-empty", placeholder: "Name (empty)"),
                TextField(id: "field-filled", text: "Ada Lovelace", placeholder: "Name"),
                TextField(id: "field-long", text: longTitle, placeholder: "Note"),
                TextField(id: "field-arabic", text: "مرحبا بالعالم", placeholder: "الاسم"),
                TextArea(id: "area", text: "Several lines of text\nin a text area", placeholder: "Notes"),
                Divider(),
                ProgressView("Empty", id: "progress-empty", value: 0),
                ProgressView("Part way", id: "progress-middle", value: 0.6),
                ProgressView("Full", id: "progress-full", value: 1),
                HStack(spacing: 16) {
                    start.fixedSize(); spinner
                },
            ])
    }

    /// Buttons that open an alert, a confirmation dialog and a sheet, and what was chosen.
    static func modals(model: GalleryModel) -> View {
        let chosen = Label("", id: "chosen", size: 17).follow { $0.text = model.chosen }
        let screen = column(
            "modals", "Modals",
            [
                Button("Show an alert", id: "show-alert") { model.showingAlert = true },
                Button("Show a confirmation dialog", id: "show-dialog") { model.showingDialog = true },
                Button("Show a sheet", id: "show-sheet") { model.showingSheet = true },
                chosen,
            ])
        func chose(_ what: String) -> () -> Void { { model.chosen = "Chosen: \(what)" } }
        return
            screen
            .alert(
                "Delete the photo?", id: "alert", isPresented: Binding(model, \.showingAlert),
                message: "It cannot be brought back.",
                buttons: [AlertButton("Cancel", role: .cancel), AlertButton("Delete", role: .destructive, action: chose("Delete"))]
            )
            .confirmationDialog(
                "Share the photo", id: "dialog", isPresented: Binding(model, \.showingDialog), message: "Where to?",
                buttons: [
                    AlertButton("By email", action: chose("By email")), AlertButton("Print", action: chose("Print")),
                    AlertButton("Cancel", role: .cancel),
                ]
            )
            .sheet(id: "sheet", isPresented: Binding(model, \.showingSheet)) { sheet(model: model) }
    }

    static func sheet(model: GalleryModel) -> View {
        VStack(spacing: 12, padding: EdgeInsets(horizontal: 20, vertical: 8)) {
            Label("A sheet", id: "sheet-title", size: 22).bold()
            Label("It rises from the bottom, as tall as what it holds.", size: 17)
            Toggle("Remember", id: "sheet-toggle", isOn: Binding(model, \.sheetToggle))
            Button("Close", id: "sheet-close", style: .prominent) { model.showingSheet = false }
        }
    }
}
