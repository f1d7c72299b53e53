import ArgumentParser
import Catalog
import Geometry
import Raster
import Runtime
import UI
import Video
#if canImport(Glibc)
import Glibc
#endif

extension BenchCommand {
    struct Video: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "video",
            abstract:
                "The CPU a 720p30 clip costs Glide a second against GStreamer's decoding alone, a frame's scaling by Glide and by GStreamer, and the feed's frames with clips playing.",
            discussion: """
                The decode floor: `gst-launch-1.0 filesrc ! decodebin ! fakesink` on the clip, as fast as it \
                goes, its CPU time (user and system, all threads) per second of clip. Glide: a 1280x800 window \
                filled by the clip, looping, drawn at 60 Hz on the virtual clock for the same seconds of clip \
                (decoding, conversion to Glide's pixels, the copy, the scale to the window, the frames drawn), \
                its process's CPU time per second of clip. The scaling of one frame to fill 1280x800: Glide's \
                bilinear drawing against GStreamer's videoscale (gst-launch's CPU with it against without it, \
                per frame). Then the catalog of Board/content/video.json at \
                1280x800 as on a board (clips decoded in the background): the feed flicked with its two clips \
                playing, each frame's time, against the same flick with the clips paused, and what a frame's \
                asks of whether the clips are in sight (at most three) cost.
                """)

        @Option(help: "The clip (default: the catalog's attract loop, Board/content/attract.mp4).") var clip: String?
        @Option(help: "Times the clip is played through for each figure.") var loops = 5

        func run() throws {
            let manifest = try AppFactory.defaultManifestPath()
            let content = String(manifest[..<manifest.lastIndex(of: "/")!])
            let path = clip ?? content + "/attract.mp4"
            let seconds = try clipSeconds(path) * Double(max(1, loops))
            let floor = try gstLaunch(path, [], times: max(1, loops)) / seconds
            let shown = glideCPU(path, seconds: seconds) / seconds
            print(
                "video \(path): \(fixed(seconds, 1)) s of clip; CPU per second of clip: decode floor (gst-launch) \(fixed(floor * 1000, 1)) ms, "
                    + "Glide showing it at 1280x800 \(fixed(shown * 1000, 1)) ms; Glide/floor \(fixed(shown / floor, 2))")
            let (glideScale, videoscale) = try scaleFigures(path, times: max(1, loops))
            print(
                "video \(path): one frame scaled to fill 1280x800: Glide's bilinear \(fixed(glideScale, 3)) ms, "
                    + "GStreamer's videoscale (bilinear, gst-launch with it against without) \(fixed(videoscale, 3)) ms; "
                    + "Glide/videoscale \(fixed(glideScale / videoscale, 2))")
            let (playing, paused, sightChecks) = try feedFrames(content + "/" + VideoTour.manifestName)
            print(
                "video feed 1280x800 (two clips playing): frame median \(fixed(percentile(playing, 50) ?? .nan, 3)) ms "
                    + "(p90 \(fixed(percentile(playing, 90) ?? .nan, 3)) ms); clips paused \(fixed(percentile(paused, 50) ?? .nan, 3)) ms "
                    + "(p90 \(fixed(percentile(paused, 90) ?? .nan, 3)) ms); playing/paused \(fixed((percentile(playing, 50) ?? .nan) / (percentile(paused, 50) ?? .nan), 2))"
            )
            print(
                "video feed 1280x800: whether each clip is in sight (shown, on screen, not covered), asked up to three times a frame: "
                    + "\(fixed(sightChecks * 1000, 2)) µs a frame, \(fixed(sightChecks / (percentile(playing, 50) ?? .nan) * 100, 3)) % of the median frame"
            )
        }

        private func clipSeconds(_ path: String) throws -> Double {
            let decoder = try VideoDecoder(path: path)
            _ = decoder.frame(at: 0, waiting: true)
            guard let d = decoder.duration, d > 0 else { throw ValidationError("\(path): no duration (\(decoder.failure ?? "unknown"))") }
            return d
        }

        /// Milliseconds of CPU a frame of the clip takes to be scaled to fill 1280x800: by Glide's
        /// bilinear drawing, as VideoView scales each new frame, and by GStreamer's videoscale
        /// (bilinear) to the same size, from gst-launch's CPU with it against the same pipeline
        /// without it, both converting to Glide's pixels.
        private func scaleFigures(_ path: String, times: Int) throws -> (glide: Double, videoscale: Double) {
            let (first, frames) = try firstFrameAndCount(path)
            let picture = Size(width: Double(first.pixels.width), height: Double(first.pixels.height))
            let placed = ImageView.imageRect(forPictureOf: picture, in: Size(width: 1280, height: 800), mode: .fill)
            let canvas = Canvas(PixelBuffer(width: 1280, height: 800), cache: RasterCache())
            let drawn = 30 * times
            let before = cpu(RUSAGE_SELF)
            for _ in 0..<drawn { canvas.draw(image: first.pixels, in: placed) }
            let glide = (cpu(RUSAGE_SELF) - before) / Double(drawn) * 1000
            let converted = ["videoconvert", "!", "video/x-raw,format=BGRA"]
            let scaled = [
                "videoconvert", "!", "videoscale", "method=bilinear", "!",
                "video/x-raw,format=BGRA,width=\(Int(placed.width.rounded())),height=\(Int(placed.height.rounded()))",
            ]
            let without = try gstLaunch(path, converted, times: times), with = try gstLaunch(path, scaled, times: times)
            return (glide, (with - without) / Double(frames * times) * 1000)
        }

        /// The clip's first frame and how many it has (videoscale's cost is per frame), counted
        /// by decoding it once; its decoder is gone before anything is timed.
        private func firstFrameAndCount(_ path: String) throws -> (VideoFrame, Int) {
            let decoder = try VideoDecoder(path: path)
            guard let first = decoder.frame(at: 0, waiting: true), let duration = decoder.duration else {
                throw ValidationError("\(path): no frame (\(decoder.failure ?? "unknown"))")
            }
            var frames = 1, serial = first.serial, t = 0.0
            while t < duration {
                t += 1.0 / 240
                if let f = decoder.frame(at: t, waiting: true), f.serial != serial { (frames, serial) = (frames + 1, f.serial) }
            }
            return (first, frames)
        }

        /// CPU seconds (user and system) of gst-launch-1.0 decoding the clip `times` times
        /// through `elements` (gst-launch's words, without the `!` before them) to a fakesink.
        private func gstLaunch(_ path: String, _ elements: [String], times: Int) throws -> Double {
            let before = cpu(RUSAGE_CHILDREN)
            for _ in 0..<times {
                let head = ["gst-launch-1.0", "-q", "filesrc", "location=\(path)", "!", "decodebin", "!"]
                let words: [String] = head + elements + (elements.isEmpty ? [] : ["!"]) + ["fakesink"]
                let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
                defer { for p in argv { free(p) } }
                var pid: pid_t = 0
                guard posix_spawnp(&pid, "gst-launch-1.0", nil, nil, argv, environ) == 0 else {
                    throw ValidationError("gst-launch-1.0 did not start (Debian: apt-get install gstreamer1.0-tools)")
                }
                var status: Int32 = 0
                guard waitpid(pid, &status, 0) == pid, status == 0 else { throw ValidationError("gst-launch-1.0 failed on \(path)") }
            }
            return cpu(RUSAGE_CHILDREN) - before
        }

        /// CPU seconds this process spends showing `seconds` of the clip at 60 Hz.
        private func glideCPU(_ path: String, seconds: Double) -> Double {
            let video = VideoView(path, contentMode: .fill, loops: true)
            let window = Window(width: 1280, height: 800, scaleFactor: 1, typography: try! AppFactory.typography(), root: video)
            let buffer = PixelBuffer(width: 1280, height: 800)
            _ = window.render(into: buffer, at: 0)
            let before = cpu(RUSAGE_SELF)
            var n = 1
            while Double(n) / 60 <= seconds {
                _ = window.render(into: buffer, at: Double(n) / 60)
                n += 1
            }
            return cpu(RUSAGE_SELF) - before
        }

        /// Each frame's time (ms) of flicks over the feed, its clips playing, then paused; and the
        /// milliseconds a frame's asks of whether the playing clips are in sight take, at most three
        /// (the clip's sample, the damage plan, and the frame loop's check that the window is still
        /// each walk the views drawn over them).
        private func feedFrames(_ manifest: String) throws -> (playing: [Double], paused: [Double], sightChecks: Double) {
            let window = try AppOptions.parse(["--app", "catalog", "--manifest", manifest]).makeWindow(width: 1280, height: 800, scale: 1).0
            var settings = AppSettings()
            settings.decodesImagesInBackground = true
            window.apply(settings)
            let buffer = PixelBuffer(width: 1280, height: 800)
            var t = 0.0
            func frame() -> Double {
                t += 1 / 60
                _ = window.timers.runDue(upTo: t)
                let start = monotonicSeconds()
                _ = window.render(into: buffer, at: t)
                return (monotonicSeconds() - start) * 1000
            }
            func touch(_ phase: InputEvent.TouchPhase, _ y: Double) {
                window.handle(InputEvent(.touch(phase, slot: 0, position: Point(x: 760, y: y)), time: t))
            }
            for _ in 0..<30 { _ = frame() }
            touch(.down, 400); touch(.up, 400)  // lets the visitor in past the attract loop
            for _ in 0..<60 { _ = frame() }
            func flicks() -> [Double] {
                var times: [Double] = []
                for i in 0..<6 {
                    let (from, to) = i % 2 == 0 ? (700.0, 300.0) : (300.0, 700.0)
                    touch(.down, from)
                    for s in 1...8 { times.append(frame()); touch(.move, from + (to - from) * Double(s) / 8) }
                    touch(.up, to)
                    for _ in 0..<90 { times.append(frame()) }
                }
                return times
            }
            let playing = flicks()
            // The catalog's two clips, found by their ids: the benchmark pauses them as an app would.
            let clips = ["clip-0-video", "clip-1-video"].compactMap { window.root.view(withID: $0) as? VideoView }
            let asks = 10_000
            let start = monotonicSeconds()
            for _ in 0..<asks { for clip in clips { _ = clip.isAnimating(at: t) } }
            let sightChecks = (monotonicSeconds() - start) * 1000 / Double(asks) * 3
            for clip in clips { clip.pause() }
            return (playing, flicks(), sightChecks)
        }

        private func cpu(_ who: __rusage_who) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who.rawValue), &usage)
            func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
            return s(usage.ru_utime) + s(usage.ru_stime)
        }
    }
}
