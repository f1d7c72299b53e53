import AppContract
import Geometry
import Localization
import Raster
import Scrolling
import Text

/// Which way a layout runs: set on the window (`Window.layoutDirection`) and for a subtree
/// (`layoutDirection(_:)`). In a right-to-left layout rows run from the right, leading padding
/// and alignment are on the right, horizontal scroll views and carousels start at the right
/// edge, page controls count from the right and vertical scroll indicators sit on the left.
public enum LayoutDirection: Sendable {
    /// English, Japanese: rows start at the left.
    case leftToRight
    /// Arabic, Hebrew: rows start at the right.
    case rightToLeft

    /// `ltr` or `rtl`, as the board config and the command line say it; nil for anything else.
    package init?(configValue: String) {
        switch configValue {
        case "ltr": self = .leftToRight
        case "rtl": self = .rightToLeft
        default: return nil
        }
    }

    /// The direction people who read `language` (a language tag: "ar", "he-IL", "fa") expect:
    /// right to left for the languages written in Arabic or Hebrew script, else left to right.
    public init(language: String) {
        let code = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        self = LayoutDirection.rightToLeftLanguages.contains(code) ? .rightToLeft : .leftToRight
    }

    /// Arabic, Hebrew (and its old code), Persian, Urdu, Pashto, Sindhi, Uyghur, Dhivehi,
    /// Yiddish, Kurdish (Sorani), Aramaic.
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "dv", "yi", "ckb", "arc",
    ]
}

/// The numbers every gesture recogniser shares, so a tap is the same tap in a scroll view, a
/// page control, a navigation stack's edge swipe and under the screen reader.
package struct GestureSettings: Hashable, Sendable {
    /// Points a finger may move before a touch is a drag rather than a tap (the scroll
    /// engine's default, so the two never drift apart).
    package var touchSlop = ScrollConfiguration().touchSlop
    /// Seconds within which a second tap makes a double tap.
    package var doubleTapInterval = ScrollConfiguration().doubleTapInterval
    /// Points within which a second tap must land to make a double tap.
    package var doubleTapDistance = ScrollConfiguration().doubleTapDistance
    /// Seconds a touch rests before it is a long press.
    package var longPressDuration = 0.5
    /// Seconds a touch inside a scroll view waits before it presses what it is on, so a drag
    /// that starts on a row does not flash it (UIScrollView's delaysContentTouches).
    package var pressDelay = 0.1

    package init() {}
}

/// What is handed down the view tree: set on the window, and changed for a subtree with
/// `View.transformEnvironment(_:)`. Views read it as `environment`, never from a global.
package struct ViewEnvironment {
    package var gestures = GestureSettings()
    /// The window's two themes, and which of them is in force: a subtree's `colorScheme(_:)`
    /// picks the other, its `theme(_:)` changes both.
    package var lightTheme = Theme.light
    package var darkTheme = Theme.dark
    package var colorScheme = ColorScheme.light
    package var isHighContrast = false
    package var strings = ViewEnvironment.english
    /// The app's translations, and how numbers are written in the language (`Window.language`).
    package var catalog = StringCatalog()
    package var formats = LocaleFormats(language: "en")
    package var layoutDirection = LayoutDirection.leftToRight

    package init() {}

    /// The theme views draw with here: the scheme's, made high-contrast when that is on.
    package var theme: Theme {
        let t = colorScheme == .dark ? darkTheme : lightTheme
        return isHighContrast ? t.highContrast() : t
    }

    /// The window's language, its translations and its digits, handed down.
    package mutating func setLanguage(_ language: String, catalog: StringCatalog, digits: LocaleFormats.Digits) {
        strings = BuiltInStrings(language: language)
        self.catalog = catalog
        formats = LocaleFormats(language: language, digits: digits)
    }

    /// `key` in the language here: the catalog's string, else the key itself with its values
    /// filled in (a missing key is logged once).
    package func localized(_ key: LocalizedStringKey) -> String {
        if key.isVerbatim { return key.key }
        if let text = catalog.string(for: key, language: formats.language, formats: formats) { return text }
        if catalog.noteMissing(key.key, language: formats.language) {
            processLog.notice("The string catalog has no \(formats.language) string for \"\(key.key)\"; it is shown as it is")
        }
        return key.arguments.isEmpty ? key.key : FormatString.fill(key.key, with: key.arguments, formats: formats)
    }

    /// The words every view has before a window says its language.
    private static let english = BuiltInStrings(language: "en")
}

/// What a view needs of the window whose tree holds it, so that views never name the window's
/// type: its clock and timers, invalidation, scale and text size, fonts, pictures, focus and
/// the environment at the root.
package protocol ViewHost: AnyObject {
    /// The loop's time (seconds): inside a timer, the time it was due.
    var time: Double { get }
    /// The time of the latest frame or input (seconds).
    var currentTime: Double { get }
    /// The window's timers, channels and posted work.
    var timers: LoopScheduler { get }
    /// Marks the layout out of date.
    var needsLayout: Bool { get set }
    /// Marks the layout out of date at `view`'s asking (`View.setNeedsLayout()`): the audit's
    /// `rest` rule names the views that keep asking while nothing on the screen changes.
    func layoutRequested(by view: View)
    /// Redraws `view` where it is now and where it ends up.
    func invalidate(_ view: View)
    /// Views joined or left the tree between layouts.
    func treeChanged()
    /// Asks for a frame even though nothing animates.
    func scheduleFrame()
    /// Pixels per point.
    var scaleFactor: Double { get }
    /// The window's size in points.
    var sizeInPoints: Size { get }
    /// The text size for the whole app (1 to 3).
    var textScale: Double { get }
    /// The fonts every view draws text with.
    var typography: Typography { get }
    /// Counts the changes that may change what a view's environment says (a theme, the
    /// language, a subtree's own environment, a view moved): a view may keep what it looked up
    /// while this stays the same.
    var environmentGeneration: Int { get }
    /// Something the environment says may have changed: views look it up again.
    func environmentChanged()
    /// The pictures of `ImageView(source:)`.
    var images: ImageStore { get }
    /// Halvings of pictures drawn small, kept between frames.
    var rasterCache: RasterCache { get }
    /// The view keys act on.
    var focusedView: View? { get }
    /// Gives `view` the keyboard focus.
    func focus(_ view: View?)
    /// `view`'s visible part in window points.
    func visibleRect(of view: View) -> Rect
    /// The environment at the root of the tree.
    var environment: ViewEnvironment { get }
    /// The window's layout direction (the environment's, without building the rest of it).
    var layoutDirection: LayoutDirection { get }
    /// Tells the app's developer, in the window's log, about a mistake the app made (a slider
    /// given an empty range): the app goes on running.
    func warn(_ message: String)
    /// Tells the app's developer about a layout a person would see wrong (children cut off by
    /// their stack, a label cut short): logged as `warn` does, and kept for `audit`.
    func warn(_ message: String, about view: View)
    /// `view` started animating a property: it is redrawn every frame until that ends.
    func startedAnimating(_ view: View)
    /// The next layout's moves animate with `animation`; `view`, added or shown, comes in by its
    /// transition once placed.
    func animateLayout(_ animation: Animation, entering view: View?)
    /// Shows `modal` over everything, modal until `dismiss(_:)`.
    func present(_ modal: ModalContent)
    /// Takes `modal` off the screen; what was behind it takes input again.
    func dismiss(_ modal: ModalContent)
}
