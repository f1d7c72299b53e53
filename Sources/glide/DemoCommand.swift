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
        // Then the ordering demo, into a folder of its own: its script is rehearsed on a copy.
        func order() throws -> Window {
            let window = try AppOptions.parse(["--app", "order"]).makeWindow(width: w, height: h, scale: s).0
            window.apply(settings)
            return window
        }
        let orderTour = OrderTour.script(rehearsingOn: try order())
        let orderSummary = try HeadlessRuntime.runVirtual(
            try order(), width: w, height: h, script: orderTour, hz: 60, out: out + "/order", timing: false)
        print("The ordering demo's tour:\n\(orderSummary)")
    }
}
