import ArgumentParser
import BoardConfig
import Runtime
import UI

/// What an app's builder is told when the runtime starts it (`Kiosk.run`).
public struct Launch {
    /// The canvas in pixels, rotation applied (a portrait panel turned 90° gives a tall canvas).
    public let width: Int
    /// The canvas height in pixels, rotation applied.
    public let height: Int
    /// Pixels per point.
    public let scaleFactor: Double
    /// The fonts shipped in Glide's `Fonts/`.
    public let typography: Typography
    /// True on a virtual clock (headless, CI): an app shows fixed content rather than the time
    /// of day, so the same script gives the same pixels.
    public let isHeadless: Bool
    /// The board config with the command line over it (`manifest` and other keys the app may
    /// use); empty headless.
    package let config: BoardConfig

    package init(
        width: Int, height: Int, scaleFactor: Double, typography: Typography, isHeadless: Bool,
        config: BoardConfig = BoardConfig()
    ) {
        self.width = width
        self.height = height
        self.scaleFactor = scaleFactor
        self.typography = typography
        self.isHeadless = isHeadless
        self.config = config
    }

    /// A scale factor the layout can use: 0.25 to 8 pixels per point, the config file's range.
    package static func checkedScale(_ scale: Double) throws -> Double {
        guard scale.isFinite, scale >= 0.25, scale <= 8 else { throw ValidationError("--scale must lie in 0.25...8") }
        return scale
    }

    /// `--text-size` as a text scale (2 for 200 %), or its error.
    package static func checkedTextScale(percent: Int) throws -> Double {
        guard (100...300).contains(percent) else { throw ValidationError("--text-size must be a percentage from 100 to 300") }
        return Double(percent) / 100
    }

    /// `threads` if `BandRenderer` accepts it, else an error naming `option`.
    @discardableResult
    package static func checkedThreads(_ threads: Int, option: String = "--render-threads") throws -> Int {
        let limit = BandRenderer.threadLimit
        guard limit.contains(threads) else {
            throw ValidationError("\(option) must lie in \(limit.lowerBound)...\(limit.upperBound), not \(threads)")
        }
        return threads
    }
}

/// Where the runtime gets the app: the canvas size (pixels) and scale in, the app out. `glide`
/// picks among its apps by name; `Kiosk.run` wraps the app's own builder.
package struct AppSource {
    package var build: (_ width: Int, _ height: Int, _ scale: Double, _ isHeadless: Bool, _ config: BoardConfig) throws -> App
    /// App names this executable can show (the config's `app` key); nil: one app.
    package var names: [String]?

    package init(
        names: [String]? = nil,
        build: @escaping (_ width: Int, _ height: Int, _ scale: Double, _ isHeadless: Bool, _ config: BoardConfig) throws -> App
    ) {
        self.names = names
        self.build = build
    }
}

/// An app builder that threw: the process ends with this message and status 1.
struct AppStartError: Error, CustomStringConvertible {
    var underlying: any Error
    var description: String { "the app could not start: \(underlying)" }
}
