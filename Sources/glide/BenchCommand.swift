import ArgumentParser
import BoardConfig
import FeedScene
import Geometry
import ImageCodecs
import KioskRuntime
import Raster
import Runtime
import Text
import Catalog
import UI
import Widgets
import ZoomScene
#if canImport(Glibc)
import Glibc
#endif

/// `glide bench ...`: renderer benchmarks. Timing lives here, in the CLI, never in tests.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the renderer on fixed reference scenes, and the UI on long lists.",
        subcommands: [
            Feed.self, Zoom.self, List.self, Grid.self, Keyboard.self, Paragraph.self, Motion.self, Vector.self, Language.self, Video.self,
        ])

    /// The reference "feed" scene (benchmark R1): prints median, min and max milliseconds per
    /// frame in the same format as the cairo peer (Tests/Peers/cairo), for compare.sh.
    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feed",
            abstract: "Render the reference feed scene and print median/min/max ms per frame.",
            discussion: """
                Frames 0..<warmup are not timed, the next `frames` are; each frame is timed with \
                clock_gettime(CLOCK_MONOTONIC) into an XRGB8888 buffer in ordinary memory; with --threads \
                N > 1 what a frame draws is split into N horizontal bands drawn at once on Dispatch's \
                worker threads, one scene (and its caches) each. \
                --incremental reuses the previous frame (scroll blit + exposed strip + overlays). \
                --png-frame F --png PATH first renders frame F (in the chosen mode) and writes it as PNG.
                """)

        @Option(help: "Canvas size WxH in pixels.") var size = "1280x800"
        @Option(help: "Number of timed frames (0: no timing).") var frames = 300
        @Option(help: "Number of untimed warm-up frames before them.") var warmup = 30
        @Flag(help: "Reuse the previous frame (scroll blit) instead of redrawing everything.") var incremental = false
        @Option(help: "Threads drawing bands of each frame (default: the cores, at most 4).") var threads = BandRenderer.defaultThreads
        @Option(help: "Frame number to write as PNG (with --png).") var pngFrame: Int?
        @Option(help: "Path of the PNG to write (with --png-frame).") var png: String?
        @Flag(
            help:
                "Paint cards with plain Canvas calls (each card pixel written 3 times) instead of the single-write path, to measure what it saves."
        )
        var referencePainting = false
        @Option(help: "Fonts directory (default: $GLIDE_FONTS or the Fonts/ folder near the executable).")
        var fonts: String?

        func validate() throws {
            let (w, h) = try BenchCommand.parseSize(size)
            guard FeedLayout(width: w, height: h) != nil else {
                throw ValidationError("--size must be at least 200x100, at most 16384 wide and less than \(FeedLayout.contentHeight) high")
            }
            guard (0...1_000_000).contains(frames), (0...1_000_000).contains(warmup) else {
                throw ValidationError("--frames and --warmup must lie in 0...1000000")
            }
            guard (png == nil) == (pngFrame == nil) else { throw ValidationError("--png and --png-frame go together") }
            if let pngFrame, !(0...1_000_000).contains(pngFrame) { throw ValidationError("--png-frame must lie in 0...1000000") }
            try Launch.checkedThreads(threads, option: "--threads")
        }

        func run() throws {
            let (width, height) = try BenchCommand.parseSize(size)
            let layout = FeedLayout(width: width, height: height)!
            let bands = BandRenderer(threads: threads)
            // A scene holds caches written while drawing: one per band.
            let scenes = try (0..<bands.bands(of: 0..<height).count).map { _ in
                try FeedScene(
                    layout: layout, fontsDirectory: fonts ?? Kiosk.fontsDirectory(),
                    painting: referencePainting ? .reference : .singleWrite)
            }
            let buffer = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
            let mode = incremental ? "incremental" : "full"
            func draw(scrollY: Int, _ rects: [IntRect]) {
                bands.draw(rows: 0..<height, pixels: rects.reduce(0) { $0 + $1.area }) { band, rows, _ in
                    let rowsRect = IntRect(x: 0, y: rows.lowerBound, width: width, height: rows.count)
                    for rect in rects {
                        let clip = rect.intersection(rowsRect)
                        if !clip.isEmpty { scenes[band].draw(scrollY: scrollY, into: buffer.span, clip: clip) }
                    }
                }
            }

            if let png, let pngFrame {
                var renderer = FeedRenderer(scene: scenes[0])
                for f in (incremental ? 0 : pngFrame)...pngFrame { renderer.render(frame: f, into: buffer.span, drawing: draw) }
                try PNG.write(buffer, to: png, alpha: .opaque)
            }
            guard frames > 0 else { return }

            var renderer = FeedRenderer(scene: scenes[0])
            var times = [Double](repeating: 0, count: frames)
            for f in 0..<(warmup + frames) {
                let start = monotonicSeconds() * 1000
                if incremental {
                    renderer.render(frame: f, into: buffer.span, drawing: draw)
                } else {
                    draw(scrollY: layout.scrollY(frame: f), [layout.bounds])
                }
                let end = monotonicSeconds() * 1000
                if f >= warmup { times[f - warmup] = end - start }
            }
            times.sort()
            let median = frames % 2 == 1 ? times[frames / 2] : (times[frames / 2 - 1] + times[frames / 2]) / 2
            print(
                "feed \(mode) \(width)x\(height) \(BenchCommand.threads(threads)): median \(fixed(median, 3)) ms, min \(fixed(times[0], 3)) ms, "
                    + "max \(fixed(times[frames - 1], 3)) ms (\(frames) frames after \(warmup) warm-up)")
        }
    }

    /// The reference "zoom" scene (benchmark R2): a photo pinched from fit to 4x, every pixel
    /// resampled; the frame drawn in horizontal bands on `--threads` threads.
    struct Zoom: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "zoom",
            abstract: "Render the reference zoom scene and print median/p90 ms per frame.",
            discussion: """
                Frame f of N zooms 1 + 3f/(N-1) times the fit, centred; every canvas pixel is a \
                bilinear sample, edges clamped (../shared/bench/zoom-scene.md). Warm-up frames draw \
                frame 0. Each frame is timed with clock_gettime(CLOCK_MONOTONIC) into an XRGB8888 \
                buffer in ordinary memory; with --threads N > 1 its rows are split into N bands \
                drawn at once on Dispatch's worker threads, one raster cache each.
                """)

        @Option(help: "Canvas size WxH in pixels.") var size = "1920x1080"
        @Option(help: "Number of timed frames (at least 2: the zoom runs from frame 0 to frame N-1).") var frames = 120
        @Option(help: "Number of untimed warm-up frames before them.") var warmup = 10
        @Option(help: "Threads drawing bands of each frame (default: the cores, at most 4).") var threads = BandRenderer.defaultThreads
        @Option(help: "Frame number to write as PNG (with --png).") var pngFrame: Int?
        @Option(help: "Path of the PNG to write (with --png-frame).") var png: String?
        @Option(help: "The picture (default: the shipped Board/content/images/zoom.png).") var image: String?

        func validate() throws {
            let (w, h) = try BenchCommand.parseSize(size)
            guard (16...16384).contains(w), (16...16384).contains(h) else {
                throw ValidationError("--size must lie in 16x16...16384x16384")
            }
            guard (2...1_000_000).contains(frames) else {
                throw ValidationError("--frames must lie in 2...1000000 (the zoom runs from frame 0 to frame N-1)")
            }
            guard (0...1_000_000).contains(warmup) else { throw ValidationError("--warmup must lie in 0...1000000") }
            try Launch.checkedThreads(threads, option: "--threads")
            guard (png == nil) == (pngFrame == nil) else { throw ValidationError("--png and --png-frame go together") }
            if let pngFrame, !(0..<frames).contains(pngFrame) { throw ValidationError("--png-frame must lie in 0..<\(frames)") }
        }

        struct ImageError: Error, CustomStringConvertible {
            var path: String, underlying: ImageCodecError
            var description: String { "\(path): \(underlying)" }
        }

        /// Board/content/images/zoom.png beside the shipped manifest.
        static func shippedPicture() throws -> String {
            let manifest = try AppFactory.defaultManifestPath()
            return String(manifest[..<manifest.lastIndex(of: "/")!]) + "/images/zoom.png"
        }

        func run() throws {
            let (width, height) = try BenchCommand.parseSize(size)
            let picture: PixelBuffer
            do {
                let path = try image ?? Self.shippedPicture()
                do { picture = try Image.read(path: path) } catch { throw ImageError(path: path, underlying: error) }
            } catch {
                processLog.error("glide bench zoom: \(error)")
                throw ExitCode(2)
            }
            let scene = ZoomScene(image: picture, width: width, height: height, frames: frames)!
            let buffer = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
            let bands = BandRenderer(threads: threads)
            if let png, let pngFrame {
                bands.draw(rows: 0..<height) { _, rows, cache in scene.draw(frame: pngFrame, rows: rows, into: buffer.span, cache: cache) }
                try PNG.write(buffer, to: png, alpha: .opaque)
            }
            var times: [Double] = []
            for f in -warmup..<frames {
                let start = monotonicSeconds()
                bands.draw(rows: 0..<height) { _, rows, cache in scene.draw(frame: max(f, 0), rows: rows, into: buffer.span, cache: cache) }
                if f >= 0 { times.append((monotonicSeconds() - start) * 1000) }
            }
            print(
                "zoom \(width)x\(height) \(BenchCommand.threads(threads)): median \(fixed(percentile(times, 50)!, 3)) ms, "
                    + "p90 \(fixed(percentile(times, 90)!, 3)) ms (\(frames) frames after \(warmup) warm-up, image \(picture.width)x\(picture.height))"
            )
        }
    }

    static func threads(_ n: Int) -> String { "\(n) thread\(n == 1 ? "" : "s")" }

    /// A size as the board config's `mode` reads one, without a refresh rate.
    static func parseSize(_ size: String) throws -> (width: Int, height: Int) {
        guard let mode = BoardConfig.parseMode(size), mode.refreshHz == nil else {
            throw ValidationError("--size must be WxH with sides in 1...16384, e.g. 1920x1080, not '\(size)'")
        }
        return (mode.width, mode.height)
    }

    /// The list app at 1280x800 headless with N rows (issue 11): how long building the window
    /// and the first frame take, frame times while flicks run, and the resident memory. Compare
    /// runs with different --rows on the same machine.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Build the list app with N rows, flick it, and print first-frame time, flick frame times and resident memory.",
            discussion: """
                Times are wall-clock (CLOCK_MONOTONIC) around the window's own work: building the window and \
                drawing the first frame; then each frame (render into an XRGB8888 buffer) while \
                --flicks flicks run, at 60 Hz on the virtual clock until the list rests (frames of the slow tail where the content moves less than a pixel are not counted). Resident memory is VmRSS \
                after the run. --eager builds every row up front in a plain vertical stack instead, \
                for comparison.
                """)

        @Option(help: "Rows in the list.") var rows = 1_000_000
        @Option(help: "Flicks to time (frames until the list rests, each).") var flicks = 3
        @Flag(help: "Build all rows up front in a plain Stack (what a VStack of N rows costs).") var eager = false

        func validate() throws {
            guard (0...100_000_000).contains(rows) else { throw ValidationError("--rows must be 0 to 100,000,000") }
            guard (1...100).contains(flicks) else { throw ValidationError("--flicks must be 1 to 100") }
        }

        func run() throws {
            let typography = try AppFactory.typography()
            let (width, height) = (1280, 800)
            let buffer = PixelBuffer(width: width, height: height)
            let start = monotonicSeconds()
            let window =
                eager
                ? Self.eagerList(rows: rows, width: width, height: height, typography: typography)
                : AppFactory.list(width: width, height: height, scaleFactor: 1, typography: typography, rows: rows)
            _ = window.render(into: buffer, at: 0)
            let firstFrame = (monotonicSeconds() - start) * 1000
            let (times, t) = Self.timeFlicks(window, count: flicks, width: width)
            let offset = window.state(at: t, frameNumber: 0).scrollViews.first?.offset.last ?? 0
            // The accessibility tree is built when asked (the screen reader, the state JSON),
            // never per frame: its cost is one build of what is on screen.
            let treeStart = monotonicSeconds()
            let tree = window.accessibilityElements()
            let treeTime = (monotonicSeconds() - treeStart) * 1000
            print(
                "list \(rows) rows\(eager ? " (eager)" : "") \(width)x\(height): first frame \(fixed(firstFrame, 1)) ms, "
                    + "flick frames median \(fixed(percentile(times, 50) ?? .nan, 3)) ms p90 \(fixed(percentile(times, 90) ?? .nan, 3)) ms "
                    + "(\(times.count) frames, scrolled to \(Int(offset)) pt), resident \(fixed(Self.residentMegabytes(), 1)) MB; "
                    + "accessibility tree on demand: \(tree.count) elements in \(fixed(treeTime, 3)) ms ('\(tree.first { $0.role == .scrollArea }?.value ?? "")'), none per frame"
            )
        }

        /// Flicks the window's root scroll view `count` times and times each frame until it
        /// rests; returns the frame times (those that moved the content by a pixel or more) and
        /// the time after the last flick.
        static func timeFlicks(_ window: Window, count: Int, width: Int) -> (times: [Double], end: Double) {
            var times: [Double] = []
            var t = 0.5
            // The root scroll view by its role: its offset, rounded, tells the frames that moved it.
            let list = window.root as? DamageSource
            let buffer = PixelBuffer(width: window.pixelWidth, height: window.pixelHeight)
            for _ in 0..<count {
                flick(window, x: Double(width) / 2, at: t)
                // Frames until the list rests (a fling's slow tail lasts seconds).
                var n = 1
                while n <= 600, !window.isAtRest(at: t + 0.052 + Double(n) / 60) || n == 1 {
                    let frameStart = monotonicSeconds()
                    let before = list?.contentOffset(pixelsAt: 1).y ?? 0
                    _ = window.render(into: buffer, at: t + 0.052 + Double(n) / 60)
                    let elapsed = (monotonicSeconds() - frameStart) * 1000
                    // Frames of the slow tail where the content moves less than a pixel are not counted.
                    if (list?.contentOffset(pixelsAt: 1).y ?? 0) != before { times.append(elapsed) }
                    n += 1
                }
                t += 0.052 + Double(n) / 60 + 0.5
            }
            return (times, t)
        }

        /// A finger from y = 700 up 360 points in 52 ms at `x`, lifted at `t` + 0.052: a flick.
        static func flick(_ window: Window, x: Double, at t: Double) {
            func touch(_ phase: InputEvent.TouchPhase, _ y: Double, _ at: Double) {
                window.handle(InputEvent(.touch(phase, slot: 0, position: Point(x: x, y: y)), time: at))
            }
            touch(.down, 700, t)
            for i in 1...6 { touch(.move, 700 - Double(i) * 60, t + Double(i) * 0.008) }
            touch(.up, 340, t + 0.052)
        }

        /// The same rows, all built up front in a plain vertical stack.
        static func eagerList(rows: Int, width: Int, height: Int, typography: Typography) -> Window {
            let stack = Stack(.vertical, id: "rows", spacing: 1, children: (0..<rows).map { AppFactory.listRow($0, of: rows) })
            return Window(width: width, height: height, typography: typography, root: ScrollView(id: "list", content: stack))
        }

        /// VmRSS from /proc/self/status, in megabytes.
        static func residentMegabytes() -> Double {
            guard let text = try? FileIO.readAll(path: "/proc/self/status") else { return .nan }
            for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
                let kb = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? .nan
                return kb / 1024
            }
            return .nan
        }
    }

    /// A product grid at 1280x800 headless with N items in adaptive columns (issue 44): first
    /// frame, flick frame times and resident memory, as `bench list` prints them.
    struct Grid: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grid",
            abstract: "Build a lazy grid of N product cards, flick it, and print first-frame time, flick frame times and resident memory.",
            discussion: """
                At 1280x800: a LazyVGrid of cards (a picture's colour, a name, a price) in adaptive columns of at \
                least 180 points. Times and memory as `glide bench list` measures them; compare --items 100 \
                with --items 1000000 on the same machine.
                """)

        @Option(help: "Items in the grid.") var items = 1_000_000
        @Option(help: "Flicks to time (frames until the grid rests, each).") var flicks = 3

        func validate() throws {
            guard (0...100_000_000).contains(items) else { throw ValidationError("--items must be 0 to 100,000,000") }
            guard (1...100).contains(flicks) else { throw ValidationError("--flicks must be 1 to 100") }
        }

        func run() throws {
            let typography = try AppFactory.typography()
            let (width, height) = (1280, 800)
            let buffer = PixelBuffer(width: width, height: height)
            let start = monotonicSeconds()
            let grid = LazyVGrid(
                id: "grid", columns: [GridItem(.adaptive(minimum: 180))], count: items, spacing: 12, padding: EdgeInsets(12)
            ) {
                Self.card($0)
            }
            let window = Window(width: width, height: height, typography: typography, root: ScrollView(id: "grid", content: grid))
            _ = window.render(into: buffer, at: 0)
            let firstFrame = (monotonicSeconds() - start) * 1000
            let (times, t) = List.timeFlicks(window, count: flicks, width: width)
            let offset = window.state(at: t, frameNumber: 0).scrollViews.first?.offset.last ?? 0
            print(
                "grid \(items) items in \(grid.columnCount) columns \(width)x\(height): first frame \(fixed(firstFrame, 1)) ms, "
                    + "flick frames median \(fixed(percentile(times, 50) ?? .nan, 3)) ms p90 \(fixed(percentile(times, 90) ?? .nan, 3)) ms "
                    + "(\(times.count) frames, scrolled to \(Int(offset)) pt), built \(grid.children.count) rows now, "
                    + "resident \(fixed(List.residentMegabytes(), 1)) MB")
        }

        static func card(_ i: Int) -> View {
            let hues: [UInt32] = [0xE76F51, 0x2A9D8F, 0xE9C46A, 0x457B9D, 0xF4A261, 0x6D597A]
            return VStack(id: "item-\(i)", spacing: 6, padding: EdgeInsets(10)) {
                Box(fill: Color(rgb: hues[i % hues.count]), cornerRadius: 8, height: 110)
                Label("Product \(i + 1)", size: 17, maxLines: 1)
                Label("€\(3 + i % 17).50", size: 15, color: Color(rgb: 0x8E8E93), maxLines: 1)
            }.background(.white, cornerRadius: 12)
        }
    }

    struct Language: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "language",
            abstract: "Time a language switch of the ordering demo in place against building its screen again.",
            discussion: """
                At 1280x800, the ordering demo at rest: Window.language set to Arabic, German, English in \
                turn, and the frame after it timed (every label, button, price and title looked up again, \
                the layout mirrored for Arabic), with the frames it takes to come to rest; against that, \
                the demo's window built anew in that language and its first frame drawn, which is what an \
                app without a switch in place does.
                """)

        @Option(help: "Switches to time.") var switches = 30

        func run() throws {
            let typography = try AppFactory.typography()
            let buffer = PixelBuffer(width: 1280, height: 800)
            let window = OrderApp.window(width: buffer.width, height: buffer.height, scaleFactor: 1, typography: typography)
            var t = 0.0
            func step() {
                t += 1 / 60
                _ = window.timers.runDue(upTo: t)
                _ = window.render(into: buffer, at: t)
            }
            for _ in 0..<30 { step() }
            var switched: [Double] = [], rebuilt: [Double] = [], settle: [Double] = []
            for i in 0..<max(1, switches) {
                let language = ["ar", "de", "en"][i % 3]
                t += 0.5
                _ = window.timers.runDue(upTo: t)
                let start = monotonicSeconds()
                window.language = language
                _ = window.render(into: buffer, at: t)
                switched.append((monotonicSeconds() - start) * 1000)
                var frames = 0
                while !window.isAtRest(at: t), frames < 120 {
                    step()
                    frames += 1
                }
                settle.append(Double(frames))
                let again = monotonicSeconds()
                let fresh = OrderApp.window(width: buffer.width, height: buffer.height, scaleFactor: 1, typography: typography)
                fresh.language = language
                _ = fresh.render(into: buffer, at: 0)
                rebuilt.append((monotonicSeconds() - again) * 1000)
            }
            let switchFrame = percentile(switched, 50) ?? .nan, rebuild = percentile(rebuilt, 50) ?? .nan
            print(
                "language 1280x800 (ordering demo): switch frame median \(fixed(switchFrame, 3)) ms "
                    + "(p90 \(fixed(percentile(switched, 90) ?? .nan, 3)) ms), then \(fixed(percentile(settle, 50) ?? .nan, 0)) frames to rest; "
                    + "a new window and its first frame \(fixed(rebuild, 3)) ms; switch/rebuild \(fixed(switchFrame / rebuild, 2))")
        }
    }

    struct Keyboard: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keyboard",
            abstract: "Time the on-screen keyboard's slide against a plain scroll frame, and typing 10,000 characters into a text area.",
            discussion: """
                At 1280x800: a search field over a list of 300 rows. Scroll frames: the list flicked with the \
                keyboard away; slide frames: the keyboard sliding in and out (focus given and taken), 60 Hz \
                on the virtual clock. Typing: --characters characters typed one by one into a TextArea \
                filling the screen, each followed by its frame; the median per keystroke is printed for \
                each tenth of the text, so a cost that grows with the text shows. --paragraph sets the \
                characters between new lines (prose: 400; 0: one paragraph).
                """)

        @Option(help: "Characters to type.") var characters = 10_000
        @Option(help: "Characters between new lines (0: one paragraph).") var paragraph = 400
        @Option(help: "Slides in and out to time.") var slides = 10

        func run() throws {
            let typography = try AppFactory.typography()
            let buffer = PixelBuffer(width: 1280, height: 800)
            timeSlides(typography: typography, buffer: buffer)
            timeTyping(typography: typography, buffer: buffer)
        }

        /// Scroll frames against keyboard slide frames, printed as medians.
        func timeSlides(typography: Typography, buffer: PixelBuffer) {
            let (width, height) = (buffer.width, buffer.height)
            let field = TextField(id: "search", placeholder: "Search")
            let rows = Stack(.vertical, id: "rows", spacing: 1, children: (0..<300).map { AppFactory.listRow($0, of: 300) })
            let list = ScrollView(id: "list", content: rows)
            let window = Window(
                width: width, height: height, typography: typography,
                root: Stack(.vertical, spacing: 8, padding: EdgeInsets(12), children: [field, list.flexible()]))
            var t = 0.0
            func frame(_ at: Double) -> Double {
                let start = monotonicSeconds()
                _ = window.render(into: buffer, at: at)
                return (monotonicSeconds() - start) * 1000
            }
            _ = frame(t)
            var scrolls: [Double] = [], slideFrames: [Double] = []
            for _ in 0..<slides {
                t += 0.5
                window.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: 640, y: 600)), time: t))
                for i in 1...6 {
                    window.handle(
                        InputEvent(.touch(.move, slot: 0, position: Point(x: 640, y: 600 - Double(i) * 50)), time: t + Double(i) * 0.008))
                }
                window.handle(InputEvent(.touch(.up, slot: 0, position: Point(x: 640, y: 300)), time: t + 0.052))
                for n in 1...30 { scrolls.append(frame(t + 0.052 + Double(n) / 60)) }
                t += 1
                window.focus(field)
                for n in 1...15 { slideFrames.append(frame(t + Double(n) / 60)) }
                t += 0.5
                window.focus(nil)
                for n in 1...15 { slideFrames.append(frame(t + Double(n) / 60)) }
                t += 0.5
            }
            let scroll = percentile(scrolls, 50) ?? .nan, slide = percentile(slideFrames, 50) ?? .nan
            print(
                "keyboard 1280x800: scroll frame median \(fixed(scroll, 3)) ms, keyboard slide frame median \(fixed(slide, 3)) ms "
                    + "(p90 \(fixed(percentile(slideFrames, 90) ?? .nan, 3)) ms), slide/scroll \(fixed(slide / scroll, 2))")
        }

        /// `characters` typed one by one into a screen-filling text area, each with its frame: the
        /// median per keystroke for each tenth of the text, printed.
        func timeTyping(typography: Typography, buffer: PixelBuffer) {
            let (width, height) = (buffer.width, buffer.height)
            let area = TextArea(id: "notes")
            let typing = Window(width: width, height: height, typography: typography, root: area)
            typing.focus(area)
            _ = typing.render(into: buffer, at: 0)
            let prose = Array(
                "The quick brown fox jumps over the lazy dog; Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. ")
            var perKeystroke: [Double] = []
            var time = 1.0
            for i in 0..<characters {
                let c: String = paragraph > 0 && i % paragraph == paragraph - 1 ? "\n" : String(prose[i % prose.count])
                time += 0.05
                let start = monotonicSeconds()
                typing.handle(InputEvent(.text(c), time: time))
                _ = typing.render(into: buffer, at: time)
                perKeystroke.append((monotonicSeconds() - start) * 1000)
            }
            let tenth = max(1, characters / 10)
            let medians = stride(from: 0, to: characters, by: tenth).map {
                fixed(percentile(Array(perKeystroke[$0..<min(characters, $0 + tenth)]), 50) ?? .nan, 3)
            }
            print(
                "typing \(characters) characters into a TextArea (\(paragraph > 0 ? "new line every \(paragraph)" : "one paragraph")): "
                    + "median ms per keystroke and frame, by tenths: \(medians.joined(separator: " ")); text kept \(area.text.count)")
        }
    }
}

extension BenchCommand {
    /// `glide bench paragraph`: laying out one long paragraph, Latin against Arabic and mixed.
    struct Paragraph: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "paragraph",
            abstract: "Time laying out one paragraph of Latin, Arabic and mixed text, 10,000 characters each.",
            discussion: """
                Each paragraph is wrapped at --width pixels with the shipped fonts at 17 px, --runs times, \
                and the median, min and max milliseconds are printed. Latin text never calls the \
                bidirectional algorithm (FriBidi) and is laid out as before it came; Arabic and mixed \
                Arabic-Latin-digits text is resolved by it, shaped per run and reordered per line: the \
                difference is what right-to-left support costs.
                """)

        @Option(help: "Characters in each paragraph.") var characters = 10_000
        @Option(help: "Layouts to time, per paragraph.") var runs = 20
        @Option(help: "Line width in pixels.") var width = 800.0

        func run() throws {
            let font = try AppFactory.typography().font(pixelSize: 17)
            let samples = [
                ("latin", "The kiosk shows departures from gate 12 at 14:30 (flight 123). "),
                ("arabic", "تغادر الرحلة من البوابة في الموعد المحدد تمامًا. "),
                ("mixed", "Gate 12 البوابة ١٢ (flight 123) الرحلة تغادر 14:30. "),
            ]
            for (name, unit) in samples {
                var text = ""
                while text.count < characters { text += unit }
                text = String(text.prefix(characters))
                var times: [Double] = []
                var lines = 0
                for _ in 0..<max(1, runs) {
                    let start = monotonicSeconds()
                    lines = TextLayout(text: text, font: font, maxWidth: width).lines.count
                    times.append((monotonicSeconds() - start) * 1000)
                }
                times.sort()
                let median = times[times.count / 2]
                func ms(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
                print(
                    "\(name): \(characters) characters, \(lines) lines: median \(ms(median)) ms "
                        + "(min \(ms(times[0])), max \(ms(times[times.count - 1])))")
            }
        }
    }
}

extension BenchCommand {
    /// `glide bench motion`: the catalog's feed flicked with and without five views animating.
    struct Motion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "motion",
            abstract: "Time the catalog's feed flicked at 1280x800 with and without five views animating beside it.",
            discussion: """
                The shipped catalog at 1280x800, its feed flicked --flicks times, 90 frames at 60 Hz after each                 lift. Then the same on a fresh catalog in which five sidebar tabs pulse forever (opacity and                 scale, eased, each with its own period), and the frames at rest with only the pulses moving.                 Medians and p90 in ms per frame.
                """)

        @Option(help: "Flicks to time.") var flicks = 5

        func run() throws {
            let typography = try AppFactory.typography()
            let path = try AppFactory.defaultManifestPath()
            var results: [(flick: [Double], rest: [Double])] = []
            for animating in [false, true] {
                let window = AppFactory.catalog(manifestPath: path, width: 1280, height: 800, scaleFactor: 1, typography: typography).window
                let buffer = PixelBuffer(width: 1280, height: 800)
                _ = window.render(into: buffer, at: 0)
                if animating {
                    for (i, id) in ["tab-feed", "tab-photo", "tab-article-en", "tab-article-ja", "tab-pages"].enumerated() {
                        guard let view = window.root.view(withID: id) else { continue }
                        withAnimation(.easeInOut(duration: 0.6 + 0.1 * Double(i)).repeatForever()) {
                            view.opacity = 0.55
                            view.scaleEffect = 0.94
                        }
                    }
                }
                results.append(Self.time(window, into: buffer, flicks: flicks))
            }
            func line(_ name: String, _ times: [Double]) -> String {
                "\(name) median \(fixed(percentile(times, 50) ?? .nan, 3)) ms p90 \(fixed(percentile(times, 90) ?? .nan, 3)) ms"
            }
            print(
                "motion 1280x800, catalog feed: " + line("flick frames", results[0].flick) + " without animations, "
                    + line("", results[1].flick) + " with five pulsing; at rest with the five pulses: " + line("frames", results[1].rest)
                    + " (\(results[1].flick.count) flick frames each)")
        }

        /// Frames of `flicks` flicks of the feed, 90 each, then 60 frames left alone.
        static func time(_ window: Window, into buffer: PixelBuffer, flicks: Int) -> (flick: [Double], rest: [Double]) {
            var t = 0.5
            var flick: [Double] = [], rest: [Double] = []
            func frame(_ at: Double) -> Double {
                let start = monotonicSeconds()
                _ = window.render(into: buffer, at: at)
                return (monotonicSeconds() - start) * 1000
            }
            for _ in 0..<flicks {
                List.flick(window, x: 800, at: t)
                for n in 1...90 { flick.append(frame(t + 0.052 + Double(n) / 60)) }
                t += 0.052 + 91 / 60 + 4
                _ = frame(t)
            }
            for n in 1...60 { rest.append(frame(t + Double(n) / 60)) }
            return (flick, rest)
        }
    }

    /// `glide bench vector`: an SVG's first render and its redraw from the picture store.
    struct Vector: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vector",
            abstract: "Time an SVG picture's first render (librsvg loaded and not) and its cached redraw.",
            discussion: """
                Renders FILE (default: a generated floor plan of 400 rooms with labels) through librsvg at                 --size, --runs times: the first call includes loading librsvg; then the median of the others,                 and the median of a frame that draws the cached picture in an ImageView (what a redraw costs                 once the picture store holds it). Also prints the resident memory before and after librsvg loads.
                """)

        @Argument(help: "An SVG file (default: a generated floor plan).") var file: String?
        @Option(help: "Size drawn at, WxH pixels.") var size = "1280x800"
        @Option(help: "Renders to time.") var runs = 20

        func run() throws {
            let (w, h) = try BenchCommand.parseSize(size)
            let bytes = try file.map { try FileIO.readAll(path: $0) } ?? Array(Self.floorPlan().utf8)
            let residentBefore = List.residentMegabytes()
            var times: [Double] = []
            for _ in 0..<runs {
                let start = monotonicSeconds()
                let picture = try Image.decode(bytes) { width, height in
                    // As the picture store asks: the detail for drawing it at w x h.
                    RasterCache.detailLevel(drawnAt: Size(width: Double(w), height: Double(h)), width: width, height: height)
                }
                times.append((monotonicSeconds() - start) * 1000)
                precondition(picture.pixels.width > 0)
            }
            let residentAfter = List.residentMegabytes()
            let path = "/tmp/glide-bench-\(getpid()).svg"
            try FileIO.writeAll(bytes, path: path)
            defer { unlink(path) }
            let view = ImageView(source: path, contentMode: .fit)
            let window = Window(width: w, height: h, typography: try AppFactory.typography(), root: view)
            window.images.reducingDecoder = { try Image.read(path: $0, halvings: $1) }
            let buffer = PixelBuffer(width: w, height: h)
            _ = window.render(into: buffer, at: 0)
            var redraws: [Double] = []
            for n in 1...runs {
                view.setNeedsDisplay()
                let start = monotonicSeconds()
                _ = window.render(into: buffer, at: Double(n) / 60)
                redraws.append((monotonicSeconds() - start) * 1000)
            }
            print(
                "vector \(size): first render \(fixed(times[0], 2)) ms (librsvg loaded with it), then median "
                    + "\(fixed(percentile(Array(times.dropFirst()), 50) ?? .nan, 2)) ms; cached redraw median "
                    + "\(fixed(percentile(redraws, 50) ?? .nan, 3)) ms; resident \(fixed(residentBefore, 1)) MB before librsvg, "
                    + "\(fixed(residentAfter, 1)) MB after (\(window.images.decodeCount) renders in the store)")
        }

        /// A floor plan of 20 x 20 rooms, each a stroked rectangle with a label.
        static func floorPlan() -> String {
            var rooms = ""
            for i in 0..<400 {
                let (x, y) = (20 + (i % 20) * 60, 20 + (i / 20) * 38)
                rooms +=
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"56\" height=\"34\" rx=\"3\" fill=\"#eef3f8\" stroke=\"#345\" stroke-width=\"1.5\"/>"
                rooms += "<text x=\"\(x + 28)\" y=\"\(y + 21)\" font-size=\"11\" text-anchor=\"middle\" fill=\"#123\">\(100 + i)</text>"
            }
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1240\" height=\"800\" viewBox=\"0 0 1240 800\">\(rooms)</svg>"
        }
    }
}
