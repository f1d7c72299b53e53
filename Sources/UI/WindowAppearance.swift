import Accessibility
import AppContract
import Observation
import Raster
import Widgets
@_spi(Hooks) import ViewCore

/// How the window looks: its scheme and themes, and what the tree inherits from it.
extension Window {
    /// Which theme the views draw with, light or dark. Changed at run time, the window draws
    /// once more in the other theme: nothing is rebuilt, and every scroll view keeps its place.
    /// The board config's `color_scheme` and `--color-scheme` set it; a `ColorSchedule` turns
    /// it dark between two times of day.
    public var colorScheme: ColorScheme {
        get { scheme.value }
        set {
            guard newValue != scheme.value else { return }
            scheme.value = newValue
            themeChanged()
        }
    }
    /// The theme the views draw with now: the scheme's, made high-contrast under `isHighContrast`.
    public var theme: Theme { environment.theme }
    /// What shows where no view draws: the light theme's background (iOS's grouped background
    /// grey by default). Set `darkTheme.background` for the dark scheme.
    public var background: Color {
        get { lightTheme.background }
        set { lightTheme.background = newValue }
    }
    /// Colour of the focus ring, buttons, the back button, the caret and the selection: the
    /// light theme's accent; setting it gives both themes this accent.
    public var accent: Color {
        get { lightTheme.accent }
        set { lightTheme.accent = newValue; darkTheme.accent = newValue }
    }

    /// What the tree hands down from the root: the one slop, the window's themes and scheme,
    /// the words in its language.
    package var environment: ViewEnvironment {
        var environment = ViewEnvironment()
        environment.layoutDirection = layoutDirection
        environment.gestures = router.gestures
        environment.lightTheme = lightTheme
        environment.darkTheme = darkTheme
        environment.colorScheme = colorScheme
        environment.isHighContrast = isHighContrast
        environment.setLanguage(language, catalog: stringCatalog, digits: digits)
        return environment
    }

    /// Every pixel may change: drawn again (and laid out, for views that read the theme there).
    func themeChanged() { environmentChanged(); needsLayout = true; fullDamage = true; frameScheduled = true }
    package func environmentChanged() { environmentGeneration &+= 1 }
}

/// A window's colour scheme, observed (see `Window.colorScheme`).
@Observable final class ObservedScheme {
    var value = ColorScheme.light
}
