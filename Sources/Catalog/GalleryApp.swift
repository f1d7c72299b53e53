import Controls
import Observation
import Raster
import UI

/// What the gallery shows: the screen, and the values its samples stand at. Each sample's state
/// is a value here, so a test or a tour sets a state as a tap would.
@Observable package final class GalleryModel {
    package var screen = 0
    package var on = true
    package var off = false
    package var arabicOn = true
    package var segment = 1
    package var empty = 0
    package var full = 9
    package var middle = 0.4
    package var low = 0.0
    package var high = 1.0
    package var working = false
    package var showingAlert = false
    package var showingDialog = false
    package var showingSheet = false
    package var sheetToggle = false
    package var chosen = "Nothing chosen yet"

    package init() {}
}

/// Every public view and control of Glide in each of its states, a screen per family, switched
/// by a tab bar (`glide run --app gallery`, the last part of `glide demo`'s tour, and the matrix
/// test's screens in every look, direction, text size and panel).
package enum GalleryApp {
    /// The families, in the tab bar's order: a title and a Material icon each.
    package static let screens: [(title: String, icon: String)] = [
        ("Buttons", "touch_app"), ("Choices", "toggle_on"), ("Fields", "edit"), ("Modals", "layers"),
        ("Navigation", "list"), ("Grid", "grid_view"), ("Pages", "view_carousel"),
    ]

    /// The tab button that shows screen `index`.
    package static func tabID(_ index: Int) -> String { "gallery.tab-\(index)" }

    /// The app's window over `model`, showing `model.screen`.
    package static func window(
        model: GalleryModel = GalleryModel(), width: Int, height: Int, scaleFactor: Double, typography: Typography
    ) -> Window {
        let contents: [View] = [
            buttons(), choices(model: model), fields(model: model), modals(model: model), navigation(),
            grid(), pages(),
        ]
        let tabs = zip(screens, contents).map { Tab($0.0.title, icon: Icon($0.0.icon), content: $0.1) }
        let root = TabView(id: "gallery", selection: Binding(model, \.screen).animation(), tabs: tabs)
        root.fill = .background
        let window = Window(width: width, height: height, scaleFactor: scaleFactor, typography: typography, root: root)
        window.layoutIfNeeded()
        // The focused state is the keypad's focus: the one sample that holds it at the start.
        window.focus(root.view(withID: "button-focused"))
        // The spinner shows while the work it stands for takes its two seconds, then goes: a
        // screen left alone comes to rest.
        root.follow { [weak window] _ in
            guard model.working, let window else { return }
            window.after(2) { model.working = false }
        }
        return window
    }

    /// A screen's samples in a column that scrolls when they do not fit (large text, a small
    /// panel), each family's name at its top.
    static func column(_ id: String, _ title: String, _ samples: [View]) -> View {
        let stack = Stack(
            .vertical, id: "\(id)-column", spacing: 14, padding: EdgeInsets(horizontal: 20, vertical: 16), alignment: .fill,
            children: [Label(title, id: "\(id)-title", size: 26).bold()] + samples)
        return ScrollView(id: id, content: stack)
    }

    /// A sample's caption: what state the control beside it shows.
    static func caption(_ text: String) -> Label { Label(text, size: 15, color: .secondaryText) }
}
