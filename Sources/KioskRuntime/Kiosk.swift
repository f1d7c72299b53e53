import AppContract
import ArgumentParser
import BoardConfig
import Headless
import ImageCodecs
import Raster
import Runtime
import Text
import UI
#if canImport(Glibc)
import Glibc
#endif

/// Entry points for a kiosk app: whatever `glide` does with its own apps, an app that
/// imports GlideKit does with its window: run on a board, headless, or under remote control.
public enum Kiosk {
    /// Runs the app that `build` makes, with the same command line and config file as `glide`:
    ///
    ///     APP board [--config FILE] ...    the display and touchscreen (the default when there is a display)
    ///     APP run --backend headless [--size WxH] [--scale S] [--hz H] [--script FILE] [--out DIR]
    ///             [--timing] [--remote HOST:PORT ...]
    ///     APP audit --out DIR [--script FILE] [--size WxH]  the accessibility rules, screen by screen
    ///     APP calibrate --config FILE ...  five crosses to touch; the matrix goes into FILE
    ///
    /// `build` gets the canvas size (rotation applied), the scale factor and the fonts, and
    /// returns the window; it runs on the loop's thread, which owns the window from then on.
    /// Errors (bad options, no display, an app that fails to build) are printed and end the
    /// process with a non-zero status; `run` returns when the app stops (SIGINT, SIGTERM).
    ///
    /// - Parameters:
    ///   - arguments: The command line after the executable's name; nil: the process's own.
    ///   - build: Makes the app's window from the `Launch` facts (canvas size, scale factor,
    ///     fonts, whether it runs headless, the board's config); an error it throws ends the
    ///     process with that error's message.
    public static func run(arguments: [String]? = nil, _ build: @escaping (Launch) throws -> Window) {
        let source = AppSource { width, height, scale, isHeadless, config in
            let window = try build(
                Launch(
                    width: width, height: height, scaleFactor: scale, typography: try typography(),
                    isHeadless: isHeadless, config: config))
            readsPictureFiles(window, assets: config.assets)
            return window
        }
        let args = arguments ?? Array(CommandLine.arguments.dropFirst())
        do {
            if args.isEmpty {
                guard hasDisplay() else {
                    standardError(
                        """
                        \(commandName): no display here (no /dev/dri/card* that this user may open).
                        To run headless: \(commandName) run --backend headless [--size WxH] [--script FILE] [--out DIR]
                        On a board: \(commandName) board [--config FILE]  (see \(commandName) --help)
                        """)
                    exit(2)
                }
                try BoardRuntime.run(try BoardCommand.parse([]).options, app: source)
                return
            }
            switch try KioskCommand.parseAsRoot(args) {
            case let board as BoardCommand: try BoardRuntime.run(board.options, app: source)
            case let headless as HeadlessCommand: try HeadlessRuntime.run(headless.options, app: source)
            case let audit as KioskAuditCommand: try AuditRuntime.run(audit.options, app: source)
            case let calibrate as CalibrateCommand: try CalibrationRuntime.run(calibrate)
            case var other: try other.run()  // --help and the like
            }
        } catch {
            KioskCommand.exitReporting(error)
        }
    }

    /// The name the process was started as ("glide", or the app's executable): messages start
    /// with it.
    package static var commandName: String { processName }

    /// True when there is a DRM card this user may open.
    public static func hasDisplay() -> Bool {
        (0..<8).contains { access("/dev/dri/card\($0)", R_OK | W_OK) == 0 }
    }

    /// The fonts shipped in Glide's `Fonts/`: `$GLIDE_FONTS`, else a `Fonts/` next to or above the
    /// executable (install the app with a copy of Glide's `Fonts/`), else the Glide checkout it
    /// was built from.
    ///
    /// - Returns: Typography with Glide's standard fonts, ready to give a window.
    /// - Throws: A font error when no folder holds the fonts or they cannot be loaded.
    public static func typography() throws -> Typography {
        try Typography(fontsDirectory: fontsDirectory(warn: { report($0, level: .warning) }))
    }

    /// The folder of Glide's shipped fonts for this process: the places
    /// `FontSearchPlaces.forExecutable()` names (`$GLIDE_FONTS`, walking up from the
    /// executable, then from Glide's checkout), searched by the text engine.
    ///
    /// - Parameter warn: Hears why a `$GLIDE_FONTS` that does not hold the fonts was passed over.
    /// - Returns: The fonts folder's path.
    /// - Throws: `FontError.fontsDirectoryNotFound` with every folder tried.
    package static func fontsDirectory(warn: (String) -> Void = { _ in }) throws -> String {
        let places = FontSearchPlaces.forExecutable()
        return try FontLibrary.locateFontsDirectory(glideFonts: places.glideFonts, searchingUpFrom: places.startingPoints, warn: warn)
    }

    /// Runs `window` headless on a virtual clock through `script` and returns the last frame
    /// and the final state JSON: what a person would see after that input.
    ///
    /// - Parameters:
    ///   - window: The app's window, at the size and scale it is to be drawn.
    ///   - script: Timed input (touches, keys, screenshots and states asked for); nil: none.
    ///     The run goes on after its last entry until the app is at rest.
    ///   - hz: Frames a second on the virtual clock.
    /// - Returns: The last frame drawn and the window's final state as JSON.
    /// - Throws: What the run throws, for instance a screenshot or state file the script asks
    ///   for that cannot be written.
    public static func runHeadless(_ window: Window, script: InputScript? = nil, hz: Double = 60)
        throws -> (frame: PixelBuffer?, state: String)
    {
        readsPictureFiles(window)
        let runner = HeadlessRunner(app: window, width: window.pixelWidth, height: window.pixelHeight, hz: hz)
        let out = try runner.run(script ?? InputScript(entries: []))
        return (out.finalScreenshot, out.finalState)
    }
}

/// An `ImageView(source:)` names a PNG or JPEG file unless the app gave its window a decoder
/// of its own: it is decoded at the size it is drawn at. A relative path is found in the
/// config's `assets` folder (or `$GLIDE_ASSETS`), else next to the app's executable, else in
/// the working directory it started in (a board's service starts in /, so that comes last); a
/// picture in none of them is an error that names every path tried.
func readsPictureFiles(_ window: Window, assets: String? = nil) {
    guard window.images.reducingDecoder == nil else { return }
    let folders = pictureFolders(assets: assets)
    window.images.reducingDecoder = { source, halvings in
        guard !source.hasPrefix("/") else { return try Image.read(path: source, halvings: halvings) }
        let tried = folders.map { $0 + "/" + source }
        guard let path = tried.first(where: { access($0, R_OK) == 0 }) else { throw PictureNotFound(source: source, tried: tried) }
        return try Image.read(path: path, halvings: halvings)
    }
}

/// Where relative picture paths are looked for, in order.
func pictureFolders(assets: String?) -> [String] {
    let env = getenv("GLIDE_ASSETS").map { String(cString: $0) }
    let executable = executablePath().flatMap { p in p.lastIndex(of: "/").map { String(p[..<$0]) } }
    var folders: [String] = []
    for f in [assets ?? env, executable, workingDirectory()].compactMap({ $0 }) where !folders.contains(f) { folders.append(f) }
    return folders
}

struct PictureNotFound: Error, CustomStringConvertible {
    var source: String
    var tried: [String]
    var description: String { "\(source): no such picture (tried \(tried.joined(separator: ", ")))" }
}

private func workingDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The app executable's command line.
struct KioskCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Kiosk.commandName, abstract: "A Glide kiosk app.",
            version: GlideVersion.line(program: Kiosk.commandName),
            subcommands: [BoardCommand.self, HeadlessCommand.self, KioskAuditCommand.self, CalibrateCommand.self])
    }
}

struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board", abstract: "Run full-screen on a DRM/KMS display with libinput touch, keys and pointer.")
    @OptionGroup var options: BoardOptions
}

struct HeadlessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run headless: on a virtual clock from a script (PNG and JSON out), or in real time under remote control.")
    @OptionGroup var options: HeadlessOptions
}

struct KioskAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract:
            "Check the app's screens against accessibility rules; exit status 0 with no findings, 1 with findings, 2 when it could not run."
    )
    @OptionGroup var options: AuditOptions
}

extension ParsableCommand {
    /// Exits for `error` as `exit(withError:)` does, except that under systemd, when standard
    /// error is the journal, the message is logged at priority error rather than as plain text.
    ///
    /// - Parameter error: What ends the process; the exit status is the one ArgumentParser gives
    ///   it (0 for a help request).
    public static func exitReporting(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        if standardErrorIsJournal && code != .success {
            let message = fullMessage(for: error)
            if !message.isEmpty { processLog.error("\(message)") }
            Glibc.exit(code.rawValue)
        }
        exit(withError: error)
    }
}
