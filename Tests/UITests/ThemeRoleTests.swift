import AppContract
@testable import Controls
import Geometry
import Observation
import Raster
import Scrolling
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

@Observable final class ThemeWalkModel {
    var alert = false
    var dialog = false
    var sheet = false
    var on = true
    var off = false
    var count = 3
    var level = 0.4
    var choice = 1
}

/// Every colour the built-in views draw is a public role of the theme, and a subtree's theme
/// and scheme reach every view under it, the modals it presents included.
///
/// The walk is a pixel test, not a scan of the sources for colour literals: a scan sees
/// `Color(rgb:` but not `Color.white`, a colour worked out from another (a halo from its ring)
/// or a role read from the window's theme instead of the view's, and all of these draw a
/// colour the app cannot theme. Every role is set to one unusual colour, so that every pixel a
/// view draws, blends and antialiased edges included, must be that colour: any other pixel is a
/// colour the theme did not give.
@Suite struct ThemeRoleTests {
    /// Every role through its public property on `Theme` and its `Color` static: a role the
    /// views draw with but an app cannot set fails `everyRoleIsPublicOnThemeAndColor`.
    static var roles: [(Color, WritableKeyPath<Theme, Color>)] {
        [
            (.accent, \.accent), (.background, \.background), (.surface, \.surface), (.primaryText, \.primaryText),
            (.secondaryText, \.secondaryText), (.separator, \.separator), (.destructive, \.destructive),
            (.onAccent, \.onAccent), (.bar, \.bar), (.fieldBorder, \.fieldBorder), (.switchOn, \.switchOn),
            (.switchOff, \.switchOff), (.thumb, \.thumb), (.disabledThumb, \.disabledThumb),
            (.pressedShade, \.pressedShade), (.placeholder, \.placeholder), (.segmentTrack, \.segmentTrack),
            (.grabber, \.grabber), (.messageText, \.messageText), (.shadow, \.shadow), (.indicator, \.indicator),
            (.menuBackground, \.menuBackground), (.menuButton, \.menuButton), (.menuText, \.menuText),
            (.keyboardBackground, \.keyboardBackground), (.keyFill, \.keyFill), (.specialKeyFill, \.specialKeyFill),
            (.pressedKeyFill, \.pressedKeyFill), (.keyLabel, \.keyLabel), (.keyShadow, \.keyShadow),
            (.chosenSegment, \.chosenSegment), (.pageIndicator, \.pageIndicator),
        ]
    }

    /// The one colour every role is given: no built-in default is near it.
    static let ink = Color(rgb: 0x7A3E9D)

    static func paint(_ theme: inout Theme) {
        for (_, role) in roles { theme[keyPath: role] = ink }
    }

    @Test func everyRoleIsPublicOnThemeAndColor() {
        var theme = Theme.dark
        for (i, (_, role)) in Self.roles.enumerated() { theme[keyPath: role] = Color(rgb: 0x010101 * UInt32(i + 1)) }
        // Each property sets its own role, and each role has one.
        #expect(Set(ColorRole.allCases.map { theme[$0] }).count == ColorRole.allCases.count)
        #expect(Self.roles.count == ColorRole.allCases.count)
        for (color, role) in Self.roles { #expect(theme.resolve(color) == theme[keyPath: role]) }
        // The standard themes keep the colours the views drew before the roles were public.
        #expect(Theme.light.shadow == Color(rgb: 0x000000) && Theme.dark.pageIndicator == Color(rgb: 0xFFFFFF))
    }

    /// One of each built-in view and control, in light and in dark: nothing but the theme's
    /// colour anywhere on the screen.
    @Test(arguments: [ColorScheme.light, .dark])
    func everyBuiltInViewDrawsOnlyTheThemesColours(scheme: ColorScheme) throws {
        for scene in Self.scenes {
            let (w, model) = try window(for: scene, scheme: scheme)
            var t = 0.1
            _ = w.timers.runDue(upTo: 0)
            scene.act(w, model, &t)
            // Every frame of what moves: transitions, springs, the keyboard rising.
            for step in 0..<16 {
                let at = t + Double(step) / 15
                _ = w.timers.runDue(upTo: at)
                let frame = w.fullRedraw(at: at)
                let stray = Self.strayPixels(frame, apartFrom: Self.focusRingBand(w))
                #expect(stray.isEmpty, "\(scene.name), \(scheme), \(at) s: \(stray.prefix(5))")
                if !stray.isEmpty { break }
            }
            #expect(scene.shows(w), "\(scene.name), \(scheme): not on the screen")
        }
    }

    /// Where the focus ring is drawn: its ring is the accent of the focused view's theme, but
    /// its halo is black or white by design (the ring's opposite, for 3:1 on any background;
    /// see `Window.focusRingColors`), so the band is left out, and the ring checked apart.
    static func focusRingBand(_ w: Window) -> (outer: Rect, inner: Rect)? {
        guard let focused = w.focusedView else { return nil }
        #expect(focused.environment.theme.resolve(w.focusRingColors.ring) == ink, "the ring is the focused view's accent")
        let r = w.visibleRect(of: focused)
        return (r.insetBy(dx: -6, dy: -6), r.insetBy(dx: 2, dy: 2))
    }

    /// A modal lives in the window's modal layer, over everything, but draws in the theme of
    /// the view that presented it: an alert from a light subtree of a dark window is light,
    /// its dimmed screen included, and its presenter's brand accent reaches its buttons.
    @Test func aModalDrawsInItsPresentersSchemeAndTheme() throws {
        let model = ThemeWalkModel()
        let brand = Color(rgb: 0x00796B)
        let light = Self.presenter(model).colorScheme(.light).theme { $0.accent = brand }
        let w = try makeWindow(Stack(.vertical, children: [Box(fill: .background, height: 100), light]), width: 400, height: 600)
        w.colorScheme = .dark
        _ = w.timers.runDue(upTo: 0)
        model.alert = true
        _ = w.timers.runDue(upTo: 0.1)
        let frame = w.frames(from: 0.1, to: 1.2)
        let alert = try #require(w.presentedModal as? AlertView)
        let card = alert.card.frameInWindow
        #expect(frame[Int(card.minX) + 20, Int(card.minY) + 8] & 0xFF_FFFF == 0xFFFFFF, "the light surface")
        #expect(alert.environment.theme.colorScheme == .light && alert.environment.theme.accent == brand)
        // The window's own part, above the subtree, stays dark under the dimming.
        #expect(frame[5, 5] & 0xFF_FFFF == 0x000000)
        // Closed and shown again, it still follows (it is made afresh each time).
        model.alert = false
        _ = w.timers.runDue(upTo: 1.3)
        w.frames(from: 1.3, to: 2.5)
        #expect(w.presentedModal == nil)
        model.alert = true
        _ = w.timers.runDue(upTo: 2.6)
        let again = w.frames(from: 2.6, to: 3.6)
        let card2 = try #require(w.presentedModal as? AlertView).card.frameInWindow
        #expect(again[Int(card2.minX) + 20, Int(card2.minY) + 8] & 0xFF_FFFF == 0xFFFFFF)
    }

    /// The subtree paints every role; the window only its background (what shows where no view
    /// draws), so that a view drawn in the window's theme instead of the subtree's shows.
    func window(for scene: Scene, scheme: ColorScheme) throws -> (Window, ThemeWalkModel) {
        let model = ThemeWalkModel()
        let root = scene.build(model).colorScheme(scheme).theme { Self.paint(&$0) }
        let w = try makeWindow(root, width: 480, height: 640)
        w.colorScheme = scheme == .light ? .dark : .light
        w.lightTheme.background = Self.ink
        w.darkTheme.background = Self.ink
        // The keyboard is the window's, one for every field, so its keys take the window's.
        for key in [\Theme.keyboardBackground, \.keyFill, \.specialKeyFill, \.pressedKeyFill, \.keyLabel, \.keyShadow] {
            w.lightTheme[keyPath: key] = Self.ink
            w.darkTheme[keyPath: key] = Self.ink
        }
        return (w, model)
    }

    /// Pixels further than rounding from the ink, but in the band: "x,y=RRGGBB".
    static func strayPixels(_ frame: PixelBuffer, apartFrom band: (outer: Rect, inner: Rect)?) -> [String] {
        var out: [String] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let point = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                if let band, band.outer.contains(point), !band.inner.contains(point) { continue }
                let p = frame[x, y]
                let (r, g, b) = (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
                if abs(r - Int(ink.red)) > 2 || abs(g - Int(ink.green)) > 2 || abs(b - Int(ink.blue)) > 2 {
                    out.append("\(x),\(y)=\(String(p & 0xFF_FFFF, radix: 16))")
                    if out.count >= 20 { return out }
                }
            }
        }
        return out
    }

    struct Scene {
        var name: String
        var build: (ThemeWalkModel) -> View
        var act: (Window, ThemeWalkModel, inout Double) -> Void = { _, _, _ in }
        /// Whether what the scene is for shows once it has acted (the keyboard is up).
        var shows: (Window) -> Bool = { _ in true }
    }

    static var scenes: [Scene] {
        [
            Scene(name: "controls", build: controls),
            Scene(name: "fields", build: fields),
            Scene(
                name: "pressed", build: controls,
                act: { w, _, t in
                    guard let pay = w.root.view(withID: "pay") else { Issue.record("no button"); return }
                    let f = pay.frameInWindow
                    w.touch(.down, f.midX, f.midY, at: t)
                    t += 0.3
                }),
            Scene(
                name: "navigation", build: navigation, act: { w, _, t in push(w, &t) },
                shows: { ($0.root.view(withID: "nav") as? NavigationStack)?.screens.count == 2 }),
            Scene(name: "tabs", build: tabs),
            Scene(
                name: "lists", build: lists, act: { w, _, t in t = w.drag(from: Point(x: 240, y: 620), to: Point(x: 240, y: 480), at: t) },
                shows: { $0.scrollView("list").sampledOffset.y > 0 }),
            Scene(
                name: "pages", build: pages, act: { w, _, t in t = w.drag(from: Point(x: 400, y: 100), to: Point(x: 100, y: 100), at: t) },
                shows: { $0.scrollView("pager").sampledOffset.x > 0 }),
            Scene(name: "alert", build: presenter, act: { _, m, _ in m.alert = true }, shows: { $0.presentedModal != nil }),
            Scene(name: "dialog", build: presenter, act: { _, m, _ in m.dialog = true }, shows: { $0.presentedModal != nil }),
            Scene(name: "sheet", build: presenter, act: { _, m, _ in m.sheet = true }, shows: { $0.presentedModal != nil }),
            Scene(
                name: "keyboard and edit menu", build: fields, act: editMenu,
                shows: { w in
                    w.keyboardHost.keyboard != nil && w.state(at: 5, frameNumber: 0).elements.contains { $0.id == "edit-menu-copy" }
                }),
        ]
    }

    static func controls(_ m: ThemeWalkModel) -> View {
        let disabled: [Control] = [
            Button("Off", id: "off") {}, Toggle("Off", isOn: Binding(m, \.on)),
            Picker("Off", selection: Binding(m, \.choice), options: ["A", "B"]),
            Slider("Off", value: Binding(m, \.level)), Stepper("Off", value: Binding(m, \.count)),
        ]
        for control in disabled { control.isEnabled = false }
        return VStack(spacing: 6, padding: EdgeInsets(8)) {
            Label("Order").font(.title)
            Label("Today", color: .secondaryText)
            HStack(spacing: 6) {
                Button("Pay", id: "pay", icon: .cart, style: .prominent) {}
                Button("Edit", style: .bordered) {}
                Button("Delete", role: .destructive, style: .bordered) {}
                Button("Plain") {}
            }
            Toggle("On", isOn: Binding(m, \.on))
            Toggle("Off", isOn: Binding(m, \.off))
            Picker("Size", selection: Binding(m, \.choice), options: ["S", "M", "L"])
            Slider("Volume", value: Binding(m, \.level))
            Stepper("Count", value: Binding(m, \.count))
            ProgressView("Loading", value: 0.6)
            HStack(spacing: 6) {
                ProgressView(); Divider(); ImageView(source: "missing", width: 40, height: 40)
            }
            Box(fill: .surface, cornerRadius: 8, height: 20).shadow(radius: 4, y: 2)
            HStack(spacing: 6) {
                disabled[0]; disabled[1]; disabled[2]
            }
            HStack(spacing: 6) {
                disabled[3]; disabled[4]
            }
        }
    }

    static func fields(_ m: ThemeWalkModel) -> View {
        VStack(spacing: 8, padding: EdgeInsets(16)) {
            TextField(id: "name", text: "Ada Lovelace", placeholder: "Name")
            TextField(id: "empty", placeholder: "Email")
            TextArea(id: "note", text: "Two lines\nof text")
            Spacer()
        }
    }

    static func navigation(_ m: ThemeWalkModel) -> View {
        NavigationStack(
            id: "nav",
            root: VStack(padding: EdgeInsets(16)) {
                Label("Home"); Spacer()
            }, title: "Home")
    }

    static func push(_ w: Window, _ t: inout Double) {
        guard let nav = w.root.view(withID: "nav") as? NavigationStack else { Issue.record("no stack"); return }
        nav.push(
            VStack(padding: EdgeInsets(16)) {
                Label("Detail"); Spacer()
            }, title: "Detail")
    }

    static func tabs(_ m: ThemeWalkModel) -> View {
        TabView(
            selection: Binding(m, \.count),
            tabs: [
                Tab("Menu", icon: .cart, content: Label("Menu")), Tab("Orders", icon: .checkmark, content: Label("Orders")),
                Tab("More", icon: .plus, content: Label("More")), Tab("Done", icon: .xmark, content: Label("Done")),
            ])
    }

    static func lists(_ m: ThemeWalkModel) -> View {
        let sections = LazyVStack(id: "sections", sections: [6, 6, 6], spacing: 4, header: { Label("Section \($0)").bold() }) { s, i in
            Label("Row \(s).\(i)").padding(8).background(.surface, cornerRadius: 6)
        }
        let grid = LazyVGrid(columns: [GridItem(), GridItem()], count: 6, spacing: 4) { i in
            Box(height: 40).background(.surface, cornerRadius: 6, border: .separator)
        }
        let row = LazyHGrid(rows: [GridItem(), GridItem()], count: 8, spacing: 4) { _ in
            Box(width: 60).background(.surface, cornerRadius: 6, border: .separator)
        }
        let chips = Flow(children: (0..<6).map { Label("Chip \($0)").padding(4).background(.surface, cornerRadius: 8) })
        let fits = ViewThatFits(HStack { Label("A line too long to fit beside the others, it is") }, Label("Short"))
        return VStack(spacing: 0) {
            Adaptive(content: chips)
            fits
            ScrollView(id: "row", axes: .horizontal, content: row).frame(height: 90)
            ScrollView(id: "grid", axes: .vertical, content: grid).frame(height: 120)
            ScrollView(id: "list", axes: .vertical, content: sections).frame(height: 200)
        }
    }

    static func pages(_ m: ThemeWalkModel) -> View {
        let strip = Stack(.horizontal)
        for i in 0..<4 { strip.add(Label("Page \(i)", alignment: .center).background(.surface)) }
        var paging = ScrollConfiguration()
        paging.isPagingEnabled = true
        let pager = ScrollView(id: "pager", axes: .horizontal, configuration: paging, content: strip)
        pager.sizesPagesToViewport = true
        pager.height = 200
        return VStack {
            Overlay(children: [pager, PageControl(scrollView: pager, backgroundStyle: .prominent)]); Spacer()
        }
    }

    static func presenter(_ m: ThemeWalkModel) -> View {
        VStack(padding: EdgeInsets(20)) {
            Label("Behind"); Spacer()
        }
        .alert(
            "Delete order?", isPresented: Binding(m, \.alert), message: "This cannot be undone.",
            buttons: [AlertButton("Cancel", role: .cancel), AlertButton("Delete", role: .destructive)]
        )
        .confirmationDialog(
            "Pay how?", isPresented: Binding(m, \.dialog), message: "Choose one.",
            buttons: [AlertButton("Card"), AlertButton("Cancel", role: .cancel)]
        )
        .sheet(isPresented: Binding(m, \.sheet)) {
            VStack(spacing: 8, padding: EdgeInsets(16)) {
                Label("Your order").bold(); Button("Checkout", style: .prominent) {}
            }
        }
    }

    /// A long press on a word of a field: the word selected, the edit menu over it, the
    /// keyboard up.
    static func editMenu(_ w: Window, _ m: ThemeWalkModel, _ t: inout Double) {
        guard let name = w.root.view(withID: "name") else { Issue.record("no field"); return }
        let f = name.frameInWindow
        w.touch(.down, f.minX + 30, f.midY, at: t)
        _ = w.frames(from: t, to: t + 0.6)
        w.touch(.up, f.minX + 30, f.midY, at: t + 0.6)
        t += 0.7
    }
}
