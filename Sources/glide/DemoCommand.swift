import AppContract
import ArgumentParser
import Catalog
import ImageCodecs
import KioskRuntime
import UI
#if canImport(Glibc)
import Glibc
#endif

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The catalog demo: on the display if there is one, else a headless screenshot tour.")

    @OptionGroup var app: AppOptions
    @Option(help: "Canvas size of the headless tour in pixels, WxH (on a display: the display's).")
    var size = "1280x800"
    @Option(help: "Scale factor: pixels per point.")
    var scale = 1.0
    @Option(help: "Folder for the headless tour's screenshots.")
    var out = "glide-demo-tour"
    @OptionGroup var language: LanguageOptions
    @Flag(help: "Run the headless tour even if a display is present.")
    var headless = false
    @Option(help: "Write the sample content's pictures into this folder's images/ and exit.")
    var generateContent: String?

    func run() throws {
        if let dir = generateContent {
            try FileIO.makeDirectory(dir + "/images")
            try SampleArt.writeImages(to: dir)
            print("wrote sample images to \(dir)/images")
            return
        }
        if !headless, getenv("CI") == nil, Kiosk.hasDisplay() {
            // The display decides the size; the app, its content and the scale come from here.
            var arguments = ["--app", app.app, "--scale", String(scale)]
            if let manifest = app.manifest { arguments += ["--manifest", manifest] }
            try BoardCommand.Run.parse(arguments + language.arguments).run()
            return
        }
        var options = try HeadlessOptions.parse(["--size", size, "--scale", String(scale)])
        options.out = out
        let (w, h, s) = try options.geometry()
        let (window, catalog) = try app.makeWindow(width: w, height: h, scale: s)
        var settings = AppSettings()
        language.apply(to: &settings)
        window.apply(settings)
        guard let catalog else { throw ValidationError("the tour needs the catalog app") }
        let summary = try HeadlessRuntime.runVirtual(
            window, width: w, height: h, script: CatalogTour.script(for: catalog),
            hz: 60, out: out, timing: false)
        print("No display here: ran the headless tour.\n\(summary)")
        // Then the ordering demo and the gallery, each into a folder of its own: their scripts
        // are rehearsed on a copy.
        let orderSummary = try rehearsedTour("order", width: w, height: h, scale: s, settings: settings) {
            OrderTour.script(rehearsingOn: $0)
        }
        print("The ordering demo's tour:\n\(orderSummary)")
        let gallerySummary = try rehearsedTour("gallery", width: w, height: h, scale: s, settings: settings) {
            GalleryTour.script(rehearsingOn: $0)
        }
        print("The gallery's tour:\n\(gallerySummary)")
        // Last the clips: the attract loop and cards that play, from the manifest beside the catalog's.
        let manifest = try app.manifest ?? AppFactory.defaultManifestPath()
        let clips = (manifest.lastIndex(of: "/").map { String(manifest[...$0]) } ?? "") + VideoTour.manifestName
        let video = try AppOptions.parse(["--app", "catalog", "--manifest", clips]).makeWindow(width: w, height: h, scale: s).0
        video.apply(settings)
        let videoSummary = try HeadlessRuntime.runVirtual(
            video, width: w, height: h, script: VideoTour.script(for: video), hz: 60, out: out + "/video", timing: false,
            settleSeconds: 0.5)
        print("The clips' tour (\(clips)):\n\(videoSummary)")
    }

    /// Plays the tour `script` writes on the app `name`, into `out/name`: the script is written
    /// on one window of the app and played on another, as the run will be.
    private func rehearsedTour(
        _ name: String, width w: Int, height h: Int, scale s: Double, settings: AppSettings, script: (Window) -> InputScript
    ) throws -> String {
        func make() throws -> Window {
            let window = try AppOptions.parse(["--app", name]).makeWindow(width: w, height: h, scale: s).0
            window.apply(settings)
            return window
        }
        let tour = script(try make())
        return try HeadlessRuntime.runVirtual(try make(), width: w, height: h, script: tour, hz: 60, out: out + "/" + name, timing: false)
    }
}
