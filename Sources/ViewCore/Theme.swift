import AppContract
import Raster

/// The roles a theme gives a colour, each public on `Theme` and as `Color.accent` and the
/// others. The first eight are for every view; the rest are the built-in views' own parts (a
/// switch's track, the keyboard's keys), themed so that no view keeps a colour of its own.
package enum ColorRole: UInt8, CaseIterable, Sendable {
    case accent = 1, background, surface, primaryText, secondaryText, separator, destructive, onAccent
    case bar, fieldBorder, switchOn, switchOff, thumb, disabledThumb, pressedShade, placeholder
    case segmentTrack, grabber, messageText, shadow, indicator
    case menuBackground, menuButton, menuText
    case keyboardBackground, keyFill, specialKeyFill, pressedKeyFill, keyLabel, keyShadow
    case chosenSegment, pageIndicator
}

/// The colours every built-in view draws with, by role. A window has one for light and one for
/// dark (`Window.lightTheme`, `Window.darkTheme`) and draws with the one its `colorScheme`
/// picks, made high-contrast when `isHighContrast` is on; a subtree changes it with `theme(_:)`
/// or `colorScheme(_:)`.
///
/// Views name a theme's colours through `Color.accent`, `Color.primaryText` and the other
/// roles: drawn, a role takes the colour the theme in force there gives it, so a label in
/// `.secondaryText` is grey on a light screen and light grey on a dark one.
///
/// ```swift
/// window.lightTheme.accent = Color(rgb: 0x00796B)  // the brand's teal, light
/// window.darkTheme.accent = Color(rgb: 0x4DB6AC)   // and dark
/// window.colorScheme = .dark
/// ```
public struct Theme: Hashable, Sendable {
    private var colors: [Color]
    /// Whether this theme draws for people who need more contrast: text black or white, fills
    /// flattened, borders and separators strong. `highContrast()` makes one.
    public private(set) var isHighContrast = false
    /// Light or dark: which of a window's themes this is.
    public private(set) var colorScheme: ColorScheme
    /// The text sizes of `Label.font(_:)`'s styles, which the built-in views' titles use too.
    public var typeScale = TypeScale.standard
    /// The corners of the built-in views: buttons, fields, pickers, alerts and sheets, menus, keys.
    public var cornerRadii = CornerRadii.standard

    private init(_ scheme: ColorScheme, _ table: [ColorRole: (UInt32, UInt8)]) {
        colorScheme = scheme
        colors =
            [Color.clear]
            + ColorRole.allCases.map { role in
                let (rgb, alpha) = table[role] ?? (0xFF00FF, 255)
                return Color(rgb: rgb, alpha: alpha)
            }
    }

    /// The colour this theme gives `role` (opaque unless the role is a shade).
    package subscript(role: ColorRole) -> Color {
        get { colors[Int(role.rawValue)] }
        set { colors[Int(role.rawValue)] = resolve(newValue) }
    }

    /// `color` as drawn under this theme: a role's colour is the theme's, with the role's
    /// alpha as a fraction of the theme's; a colour of its own is itself.
    package func resolve(_ color: Color) -> Color {
        guard color.role != 0, Int(color.role) < colors.count else { return color }
        var resolved = colors[Int(color.role)]
        if color.alpha != 255 { resolved.alpha = UInt8((UInt32(resolved.alpha) * UInt32(color.alpha) + 127) / 255) }
        return resolved
    }

    /// Buttons, the caret, the selection, the focus ring, links.
    public var accent: Color {
        get { self[.accent] }
        set { self[.accent] = newValue }
    }
    /// Where no view draws.
    public var background: Color {
        get { self[.background] }
        set { self[.background] = newValue }
    }
    /// Cards, fields, alerts and sheets: what sits on the background.
    public var surface: Color {
        get { self[.surface] }
        set { self[.surface] = newValue }
    }
    /// Text on the background and on surfaces.
    public var primaryText: Color {
        get { self[.primaryText] }
        set { self[.primaryText] = newValue }
    }
    /// Text that says less: captions, placeholders, disabled titles.
    public var secondaryText: Color {
        get { self[.secondaryText] }
        set { self[.secondaryText] = newValue }
    }
    /// Hairlines between rows and under bars.
    public var separator: Color {
        get { self[.separator] }
        set { self[.separator] = newValue }
    }
    /// What deletes or cannot be undone (a button with the destructive role).
    public var destructive: Color {
        get { self[.destructive] }
        set { self[.destructive] = newValue }
    }
    /// Text and icons on an accent fill (a prominent button's title).
    public var onAccent: Color {
        get { self[.onAccent] }
        set { self[.onAccent] = newValue }
    }

    /// A segmented picker's chosen segment, under its title in `primaryText`: white on light,
    /// a grey on dark (white there put light text on white).
    public var chosenSegment: Color {
        get { self[.chosenSegment] }
        set { self[.chosenSegment] = newValue }
    }

    // The built-in views' own parts. Each says what it colours and why its light and dark
    // values are what they are, so that a brand changing one knows what else moves with it.

    /// The navigation bar and the tab bar: a step off the background (0xF9F9F9 on light,
    /// 0x161618 on dark), so that a bar reads as a layer over the screen, as iOS's bars do.
    public var bar: Color {
        get { self[.bar] }
        set { self[.bar] = newValue }
    }
    /// A text field's border, a switch's edge when off, the edge of a slider's thumb and of a
    /// picker's chosen segment: 3:1 against the background and surfaces in both schemes
    /// (0x7C7C80 on light, 0x8E8E93 on dark), what WCAG asks of the edge that shows a control.
    public var fieldBorder: Color {
        get { self[.fieldBorder] }
        set { self[.fieldBorder] = newValue }
    }
    /// A switch's track when on: a green with 3:1 against the background, darker on light
    /// (0x248A3D) than on dark (0x30D158).
    public var switchOn: Color {
        get { self[.switchOn] }
        set { self[.switchOn] = newValue }
    }
    /// A switch's track when off, inside its `fieldBorder` edge: a pale grey on light
    /// (0xE9E9EB), a dark one on dark (0x39393D); the edge, not the fill, carries the contrast.
    public var switchOff: Color {
        get { self[.switchOff] }
        set { self[.switchOff] = newValue }
    }
    /// The knob of a switch and of a slider: white in both schemes, so that it stands out on
    /// a green track and on a dark screen alike.
    public var thumb: Color {
        get { self[.thumb] }
        set { self[.thumb] = newValue }
    }
    /// The knob of a disabled switch and the chosen segment of a disabled picker: nearly white
    /// on light (0xF7F7F7), a mid grey on dark (0x8E8E93), duller than `thumb` in both.
    public var disabledThumb: Color {
        get { self[.disabledThumb] }
        set { self[.disabledThumb] = newValue }
    }
    /// The shade over a view while a finger presses it: translucent, black at 12 % on light
    /// and white at 15 % on dark, darkening or lightening whatever the view's own fill is.
    public var pressedShade: Color {
        get { self[.pressedShade] }
        set { self[.pressedShade] = newValue }
    }
    /// A picture not yet loaded (`ImageView`'s default placeholder): a step off the surface
    /// (0xE5E5EA on light, 0x2C2C2E on dark), seen as a frame without drawing the eye.
    public var placeholder: Color {
        get { self[.placeholder] }
        set { self[.placeholder] = newValue }
    }
    /// A segmented picker's track: a translucent grey (0x767680 at 12 % on light, 24 % on
    /// dark) that tints whatever it sits on, a surface or the background.
    public var segmentTrack: Color {
        get { self[.segmentTrack] }
        set { self[.segmentTrack] = newValue }
    }
    /// A sheet's grab handle: a light grey on light (0xC7C7CC), a dark one on dark (0x5A5A5E),
    /// seen on the sheet's surface without looking like a control.
    public var grabber: Color {
        get { self[.grabber] }
        set { self[.grabber] = newValue }
    }
    /// An alert's and a dialog's message, under their title: between `primaryText` and
    /// `secondaryText` (0x3C3C43 on light, 0xD1D1D6 on dark), read but quieter than the title.
    public var messageText: Color {
        get { self[.messageText] }
        set { self[.messageText] = newValue }
    }
    /// Shadows and dimming, each view giving its own opacity: the dimmed screen behind an
    /// alert or a sheet, the screen a navigation push covers, the capsule behind a page
    /// control's dots, the shadow under a switch's knob, `View.shadow`'s default. Black in both
    /// schemes: a shadow darkens.
    public var shadow: Color {
        get { self[.shadow] }
        set { self[.shadow] = newValue }
    }
    /// A scroll view's scroll indicators and their track, each at its own opacity: black on
    /// light, white on dark, so that they show over the content.
    public var indicator: Color {
        get { self[.indicator] }
        set { self[.indicator] = newValue }
    }
    /// The edit menu over a text's selection (cut, copy, paste), between its buttons: dark in
    /// both schemes (0x3A3A3C on light, 0x48484A on dark), as iOS's menu, apart from the page.
    public var menuBackground: Color {
        get { self[.menuBackground] }
        set { self[.menuBackground] = newValue }
    }
    /// The edit menu's buttons: darker than `menuBackground` (0x1C1C1E on light, 0x2C2C2E on
    /// dark), which shows between them as their dividers.
    public var menuButton: Color {
        get { self[.menuButton] }
        set { self[.menuButton] = newValue }
    }
    /// The edit menu's words: white in both schemes, on its dark buttons.
    public var menuText: Color {
        get { self[.menuText] }
        set { self[.menuText] = newValue }
    }
    /// The on-screen keyboard behind its keys: iOS's keyboard grey on light (0xD1D4DA), a
    /// near-black on dark (0x2B2B2D), so that white or grey keys stand out on it.
    public var keyboardBackground: Color {
        get { self[.keyboardBackground] }
        set { self[.keyboardBackground] = newValue }
    }
    /// A letter key, and the preview over a pressed one: white on light, a grey on dark
    /// (0x5B5B5F), lighter than `keyboardBackground` in both.
    public var keyFill: Color {
        get { self[.keyFill] }
        set { self[.keyFill] = newValue }
    }
    /// The keys that do rather than type (shift, delete, return, the layout's switch): darker
    /// than a letter key (0xAAB0BB on light, 0x3A3A3D on dark), so they read as a group.
    public var specialKeyFill: Color {
        get { self[.specialKeyFill] }
        set { self[.specialKeyFill] = newValue }
    }
    /// A letter key under a finger: darker than a key on light (0x8E949F), lighter on dark
    /// (0x7C7C80), so the press shows in both.
    public var pressedKeyFill: Color {
        get { self[.pressedKeyFill] }
        set { self[.pressedKeyFill] = newValue }
    }
    /// The letters and symbols on the keys: near-black on light (0x111111), white on dark.
    public var keyLabel: Color {
        get { self[.keyLabel] }
        set { self[.keyLabel] = newValue }
    }
    /// The one-point edge under each key, its depth: a grey on light (0x898A8D), near-black on
    /// dark (0x0E0E0F).
    public var keyShadow: Color {
        get { self[.keyShadow] }
        set { self[.keyShadow] = newValue }
    }
    /// A page control's dots (`PageControl`'s default tints: the current page's, and the
    /// others' at 45 %): white in both schemes, because a page control sits over pictures and
    /// on the dark capsule in `shadow`, not on the theme's background.
    public var pageIndicator: Color {
        get { self[.pageIndicator] }
        set { self[.pageIndicator] = newValue }
    }

    /// The standard light theme: iOS's greys, a blue accent with 4.5:1 against white and the
    /// background (WCAG AA for text), and 3:1 for the edges that show a control's state.
    public static let light = Theme(
        .light,
        [
            .accent: (0x005BD3, 255), .background: (0xF2F2F7, 255), .surface: (0xFFFFFF, 255),
            .primaryText: (0x1C1C1E, 255), .secondaryText: (0x6C6C70, 255), .separator: (0xC6C6C8, 255),
            .destructive: (0xC4001A, 255), .onAccent: (0xFFFFFF, 255), .bar: (0xF9F9F9, 255),
            .fieldBorder: (0x7C7C80, 255), .switchOn: (0x248A3D, 255), .switchOff: (0xE9E9EB, 255),
            .thumb: (0xFFFFFF, 255), .disabledThumb: (0xF7F7F7, 255), .pressedShade: (0x000000, 31),
            .placeholder: (0xE5E5EA, 255), .segmentTrack: (0x767680, 31), .grabber: (0xC7C7CC, 255),
            .messageText: (0x3C3C43, 255), .shadow: (0x000000, 255), .indicator: (0x000000, 255),
            .menuBackground: (0x3A3A3C, 255), .menuButton: (0x1C1C1E, 255), .menuText: (0xFFFFFF, 255),
            .keyboardBackground: (0xD1D4DA, 255), .keyFill: (0xFFFFFF, 255), .specialKeyFill: (0xAAB0BB, 255),
            .pressedKeyFill: (0x8E949F, 255), .keyLabel: (0x111111, 255), .keyShadow: (0x898A8D, 255),
            .chosenSegment: (0xFFFFFF, 255), .pageIndicator: (0xFFFFFF, 255),
        ])

    /// The standard dark theme: near-black surfaces, light text, and an accent light enough for
    /// 4.5:1 against them, with black titles on it.
    public static let dark = Theme(
        .dark,
        [
            .accent: (0x4DA3FF, 255), .background: (0x000000, 255), .surface: (0x1C1C1E, 255),
            .primaryText: (0xF2F2F7, 255), .secondaryText: (0xA1A1A8, 255), .separator: (0x48484A, 255),
            .destructive: (0xFF6961, 255), .onAccent: (0x000000, 255), .bar: (0x161618, 255),
            .fieldBorder: (0x8E8E93, 255), .switchOn: (0x30D158, 255), .switchOff: (0x39393D, 255),
            .thumb: (0xFFFFFF, 255), .disabledThumb: (0x8E8E93, 255), .pressedShade: (0xFFFFFF, 38),
            .placeholder: (0x2C2C2E, 255), .segmentTrack: (0x767680, 61), .grabber: (0x5A5A5E, 255),
            .messageText: (0xD1D1D6, 255), .shadow: (0x000000, 255), .indicator: (0xFFFFFF, 255),
            .menuBackground: (0x48484A, 255), .menuButton: (0x2C2C2E, 255), .menuText: (0xFFFFFF, 255),
            .keyboardBackground: (0x2B2B2D, 255), .keyFill: (0x5B5B5F, 255), .specialKeyFill: (0x3A3A3D, 255),
            .pressedKeyFill: (0x7C7C80, 255), .keyLabel: (0xFFFFFF, 255), .keyShadow: (0x0E0E0F, 255),
            .chosenSegment: (0x636366, 255), .pageIndicator: (0xFFFFFF, 255),
        ])

    /// This theme for people who need more contrast: text, separators and the edges of controls
    /// black on light (white on dark), the background white (black), placeholders darker. The
    /// views then also draw any colour of the app's own text black or white, flatten grey fills
    /// and widen borders, so the app's own colours follow too.
    public func highContrast() -> Theme {
        guard !isHighContrast else { return self }
        var t = self
        t.isHighContrast = true
        let ink = Color(rgb: colorScheme == .light ? 0x000000 : 0xFFFFFF)
        for role in [ColorRole.primaryText, .separator, .fieldBorder, .messageText, .keyLabel] { t[role] = ink }
        t.secondaryText = Color(rgb: colorScheme == .light ? 0x3A3A3C : 0xD1D1D6)
        t.background = Color(rgb: colorScheme == .light ? 0xFFFFFF : 0x000000)
        t.surface = t.background
        return t
    }
}

extension Color {
    /// A colour named by its role in a theme: drawn as the theme in force gives it.
    /// Its alpha is a fraction of the theme's (255: as the theme gives it, a shade's own alpha
    /// included).
    package init(role: ColorRole) {
        self = Theme.light[role]
        self.alpha = 255
        self.role = role.rawValue
    }

    /// The theme's accent: buttons, the caret, the selection, links.
    public static let accent = Color(role: .accent)
    /// The theme's background: where no view draws.
    public static let background = Color(role: .background)
    /// The theme's surface: cards, fields, alerts and sheets.
    public static let surface = Color(role: .surface)
    /// The theme's text colour (the default of `Label`).
    public static let primaryText = Color(role: .primaryText)
    /// The theme's colour for text that says less: captions, placeholders.
    public static let secondaryText = Color(role: .secondaryText)
    /// The theme's hairlines between rows and under bars.
    public static let separator = Color(role: .separator)
    /// The theme's colour for what deletes or cannot be undone.
    public static let destructive = Color(role: .destructive)
    /// The theme's colour for text and icons on an accent fill.
    public static let onAccent = Color(role: .onAccent)
    /// The theme's chosen segment of a segmented picker.
    public static let chosenSegment = Color(role: .chosenSegment)

    /// This colour with its opacity multiplied by `opacity` (0 to 1); a theme's role stays one.
    package func withOpacity(_ opacity: Double) -> Color {
        var c = self
        c.alpha = UInt8((Double(alpha) * max(0, min(1, opacity.isNaN ? 0 : opacity))).rounded())
        return c
    }
}

extension Color {
    // The built-in views' own parts, each a role of the theme (see `Theme`'s property of the
    // same name for what it colours and its light and dark values).

    /// The theme's navigation bar and tab bar.
    public static let bar = Color(role: .bar)
    /// The theme's border of a text field and edge of a control (a switch when off, a
    /// slider's thumb).
    public static let fieldBorder = Color(role: .fieldBorder)
    /// The theme's track of a switch that is on.
    public static let switchOn = Color(role: .switchOn)
    /// The theme's track of a switch that is off.
    public static let switchOff = Color(role: .switchOff)
    /// The theme's knob of a switch and of a slider.
    public static let thumb = Color(role: .thumb)
    /// The theme's knob of a disabled switch, and chosen segment of a disabled picker.
    public static let disabledThumb = Color(role: .disabledThumb)
    /// The theme's translucent shade over a pressed view.
    public static let pressedShade = Color(role: .pressedShade)
    /// The theme's fill for a picture not yet loaded.
    public static let placeholder = Color(role: .placeholder)
    /// The theme's track of a segmented picker.
    public static let segmentTrack = Color(role: .segmentTrack)
    /// The theme's grab handle of a sheet.
    public static let grabber = Color(role: .grabber)
    /// The theme's colour for an alert's message.
    public static let messageText = Color(role: .messageText)
    /// The theme's shadows and dimming (the screen behind an alert); give it an opacity.
    public static let shadow = Color(role: .shadow)
    /// The theme's scroll indicators.
    public static let indicator = Color(role: .indicator)
    /// The theme's edit menu, between its buttons.
    public static let menuBackground = Color(role: .menuBackground)
    /// The theme's buttons of the edit menu.
    public static let menuButton = Color(role: .menuButton)
    /// The theme's words of the edit menu.
    public static let menuText = Color(role: .menuText)
    /// The theme's on-screen keyboard, behind its keys.
    public static let keyboardBackground = Color(role: .keyboardBackground)
    /// The theme's letter keys.
    public static let keyFill = Color(role: .keyFill)
    /// The theme's keys that do rather than type (shift, delete, return).
    public static let specialKeyFill = Color(role: .specialKeyFill)
    /// The theme's letter key under a finger.
    public static let pressedKeyFill = Color(role: .pressedKeyFill)
    /// The theme's letters and symbols on the keys.
    public static let keyLabel = Color(role: .keyLabel)
    /// The theme's edge under each key.
    public static let keyShadow = Color(role: .keyShadow)
    /// The theme's dots of a page control.
    public static let pageIndicator = Color(role: .pageIndicator)
    /// The selection's highlight: the accent, translucent.
    package static let selection = Color.accent.withOpacity(64 / 255)
}

extension View {
    /// Changes the themes this view and its subtree draw with, light and dark alike (a red
    /// accent for a section that deletes, a brand's surface for a card): every built-in view in
    /// it and every `Color.accent`-like role drawn in it follow.
    ///
    /// ```swift
    /// dangerZone.theme { $0.accent = $0.destructive }
    /// ```
    @discardableResult
    public func theme(_ change: @escaping (inout Theme) -> Void) -> Self {
        transformEnvironment { environment in
            change(&environment.lightTheme)
            change(&environment.darkTheme)
        }
        return self
    }

    /// Draws this view and its subtree in `scheme`, whatever the window's (a dark video
    /// player in a light app).
    @discardableResult
    public func colorScheme(_ scheme: ColorScheme) -> Self {
        transformEnvironment { $0.colorScheme = scheme }
        return self
    }

    /// Draws this view and its subtree in the themes and scheme in force at the view `source`
    /// gives (while it gives one): for a view the window holds apart from the view it belongs
    /// to, as a modal in the modal layer belongs to the view that presented it, so that a
    /// subtree's `theme(_:)` and `colorScheme(_:)` reach it too.
    package func drawsInTheme(of source: @escaping () -> View?) {
        transformEnvironment { environment in
            guard let there = source()?.environment else { return }
            environment.lightTheme = there.lightTheme
            environment.darkTheme = there.darkTheme
            environment.colorScheme = there.colorScheme
        }
    }
}

/// A text's role, as SwiftUI's `Font.TextStyle` names them: `Label.font(.headline)` draws at
/// the size the theme in force gives the role, so a brand's larger type follows everywhere.
public enum TextStyle: Int, CaseIterable, Hashable, Sendable {
    /// A screen's big title (34 points).
    case largeTitle
    /// A title (28 points).
    case title
    /// A second-level title (22 points).
    case title2
    /// A third-level title, and a navigation bar's (18 points).
    case title3
    /// A heading of a group, an alert's title (17 points).
    case headline
    /// Text to read, a control's title (17 points; `Label`'s default).
    case body
    /// A callout (16 points).
    case callout
    /// A line under a heading, a segment's title, an alert's message (15 points).
    case subheadline
    /// A footnote (13 points).
    case footnote
    /// A caption (12 points).
    case caption
    /// The smallest text: a tab's title under its icon (11 points).
    case caption2
}

/// The sizes in points of the text styles, at 100 % text (the window's `textScale` enlarges
/// them as it does every size). Glide's standard is SwiftUI's, but for `title3` (18 points, a
/// bar's title on an 800-pixel panel).
///
/// ```swift
/// window.lightTheme.typeScale = TypeScale.standard.scaled(by: 1.2)  // a brand's larger type
/// window.darkTheme.typeScale = window.lightTheme.typeScale
/// ```
public struct TypeScale: Hashable, Sendable {
    private var sizes: [Double]

    /// The standard scale (see the styles for their sizes).
    public static let standard = TypeScale(sizes: [34, 28, 22, 18, 17, 17, 16, 15, 13, 12, 11])

    /// The size of `style` in points; a size set that is not a number above 0 keeps the old one.
    public subscript(style: TextStyle) -> Double {
        get { sizes[style.rawValue] }
        set { if newValue.isFinite, newValue > 0 { sizes[style.rawValue] = min(newValue, 512) } }
    }

    /// Every size times `factor` (a number above 0).
    public func scaled(by factor: Double) -> TypeScale {
        guard factor.isFinite, factor > 0 else { return self }
        var t = self
        for style in TextStyle.allCases { t[style] = self[style] * factor }
        return t
    }
}

/// The corner radii in points of the built-in views, one per kind of shape. Set them to 0 for a
/// square look, or larger for a softer one.
public struct CornerRadii: Hashable, Sendable {
    /// Buttons (12).
    public var button = 12.0
    /// Text fields, text editors and a stepper's buttons (10).
    public var field = 10.0
    /// A segmented picker's track (9); its thumb and segments are 2 points tighter.
    public var segment = 9.0
    /// Alerts, action sheets and sheets (14).
    public var sheet = 14.0
    /// The edit menu and the keyboard's key preview (8).
    public var menu = 8.0
    /// The on-screen keyboard's keys (5).
    public var key = 5.0

    /// A segment's and the thumb's corners inside the track.
    package var segmentInside: Double { max(0, segment - 2) }

    /// The standard radii (see each for its size).
    public static let standard = CornerRadii()
}
