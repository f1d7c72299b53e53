import ArgumentParser
import Catalog
import UI
#if canImport(Glibc)
import Glibc
#endif

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The catalog demo: on the display if there is one, else a headless screenshot tour.")

    @OptionGroup var options: AppOptions
    @Option(help: "Folder for the headless tour's screenshots.")
    var out = "glide-demo-tour"
    @Flag(help: "Run the headless tour even if a display is present.")
    var headless = false
    @Option(help: "Write the sample content's pictures into this folder's images/ and exit.")
    var generateContent: String?

    func run() throws {
        if let dir = generateContent {
            try makeDirectory(dir)
            try makeDirectory(dir + "/images")
            try SampleArt.writeImages(to: dir)
            print("wrote sample images to \(dir)/images")
            return
        }
        if !headless, hasDisplay() {
            // The display decides the size; the app, its content and the scale come from here.
            var arguments = ["--app", options.app, "--scale", String(options.scale)]
            if let manifest = options.manifest { arguments += ["--manifest", manifest] }
            let board = try BoardCommand.Run.parse(arguments)
            try board.run()
            return
        }
        let (window, app) = try options.makeWindow()
        guard let app else { throw ValidationError("the tour needs the catalog app") }
        let summary = try runHeadless(window: window, script: CatalogTour.script(for: app), hz: 60, out: out, timing: false)
        print("No display here: ran the headless tour.\n\(summary)")
    }

    /// A DRM card we may open, and not inside CI.
    func hasDisplay() -> Bool {
        if getenv("CI") != nil { return false }
        for i in 0..<8 where access("/dev/dri/card\(i)", R_OK | W_OK) == 0 { return true }
        return false
    }
}
