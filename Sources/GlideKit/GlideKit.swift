// Glide as one import for app developers: views, scroll view, page control, the engine's
// configuration, and the runners. `import GlideKit` is all an app needs.
@_exported import Geometry
@_exported import Raster
@_exported import Runtime
@_exported import Scrolling
@_exported import UI
@_exported import Headless
import Text

/// Entry points for a kiosk app.
public enum Kiosk {
    /// The fonts shipped in Glide's `Fonts/`: `$GLIDE_FONTS`, else a `Fonts/` next to or above the
    /// executable (install the app with a copy of Glide's `Fonts/`), else the Glide checkout it
    /// was built from.
    public static func typography() throws -> Typography {
        try Typography(fontsDirectory: FontLibrary.locateFontsDirectoryForExecutable())
    }

    /// Runs `window` headless on a virtual clock through `script` and returns the last frame
    /// and the final state JSON: what a person would see after that input.
    public static func runHeadless(_ window: Window, script: InputScript = InputScript(entries: []), hz: Double = 60)
        throws -> (frame: PixelBuffer?, state: String) {
        let runner = HeadlessRunner(app: window, width: window.pixelWidth, height: window.pixelHeight, hz: hz)
        let out = try runner.run(script)
        return (out.finalScreenshot, out.finalState)
    }
}
