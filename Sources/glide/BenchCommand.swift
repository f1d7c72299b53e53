import ArgumentParser
import FeedScene
import Geometry
import ImageCodecs
import Raster
import Runtime
import Text
#if canImport(Glibc)
import Glibc
#endif

/// `glide bench ...`: renderer benchmarks. Timing lives here, in the CLI, never in tests.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the renderer on fixed reference scenes.",
        subcommands: [Feed.self])

    /// The reference "feed" scene (benchmark R1): prints median, min and max milliseconds per
    /// frame in the same format as the cairo peer (Tests/Peers/cairo), for compare.sh.
    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the reference feed scene and print median/min/max ms per frame.",
            discussion: """
                Frames 0..<warmup are not timed, the next `frames` are; each frame is timed with \
                clock_gettime(CLOCK_MONOTONIC) on one thread into an XRGB8888 buffer in ordinary memory. \
                --incremental reuses the previous frame (scroll blit + exposed strip + overlays). \
                --png-frame F --png PATH first renders frame F (in the chosen mode) and writes it as PNG.
                """)

        @Option(help: "Canvas size WxH in pixels.") var size = "1280x800"
        @Option(help: "Number of timed frames (0: no timing).") var frames = 300
        @Option(help: "Number of untimed warm-up frames before them.") var warmup = 30
        @Flag(help: "Reuse the previous frame (scroll blit) instead of redrawing everything.") var incremental = false
        @Option(help: "Frame number to write as PNG (with --png).") var pngFrame: Int?
        @Option(help: "Path of the PNG to write (with --png-frame).") var png: String?
        @Flag(help: "Paint cards with plain Canvas calls (each card pixel written 3 times) instead of the single-write path, to measure what it saves.")
        var referencePainting = false
        @Option(help: "Fonts directory (default: $GLIDE_FONTS or the Fonts/ folder near the executable).")
        var fonts: String?

        func parsedSize() throws -> (width: Int, height: Int) {
            let parts = size.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw ValidationError("--size must be WxH, e.g. 1280x800")
            }
            return (w, h)
        }

        func validate() throws {
            let (w, h) = try parsedSize()
            guard FeedLayout(width: w, height: h) != nil else {
                throw ValidationError("--size must be at least 200x100, at most 16384 wide and less than \(FeedLayout.contentHeight) high")
            }
            guard (0...1_000_000).contains(frames), (0...1_000_000).contains(warmup) else {
                throw ValidationError("--frames and --warmup must lie in 0...1000000")
            }
            guard (png == nil) == (pngFrame == nil) else { throw ValidationError("--png and --png-frame go together") }
            if let pngFrame, !(0...1_000_000).contains(pngFrame) { throw ValidationError("--png-frame must lie in 0...1000000") }
        }

        func run() throws {
            let (width, height) = try parsedSize()
            let layout = FeedLayout(width: width, height: height)!
            let scene = try FeedScene(layout: layout,
                                      fontsDirectory: fonts ?? FontLibrary.locateFontsDirectoryForExecutable(),
                                      painting: referencePainting ? .reference : .singleWrite)
            let buffer = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
            let mode = incremental ? "incremental" : "full"

            if let png, let pngFrame {
                var renderer = FeedRenderer(scene: scene)
                for f in (incremental ? 0 : pngFrame)...pngFrame { renderer.render(frame: f, into: buffer.span) }
                try PNG.write(buffer, to: png, alpha: .opaque)
            }
            guard frames > 0 else { return }

            var renderer = FeedRenderer(scene: scene)
            var times = [Double](repeating: 0, count: frames)
            for f in 0..<(warmup + frames) {
                let start = monotonicSeconds() * 1000
                if incremental {
                    renderer.render(frame: f, into: buffer.span)
                } else {
                    scene.draw(frame: f, into: buffer.span)
                }
                let end = monotonicSeconds() * 1000
                if f >= warmup { times[f - warmup] = end - start }
            }
            times.sort()
            let median = frames % 2 == 1 ? times[frames / 2] : (times[frames / 2 - 1] + times[frames / 2]) / 2
            print("feed \(mode) \(width)x\(height): median \(fixed(median, 3)) ms, min \(fixed(times[0], 3)) ms, "
                  + "max \(fixed(times[frames - 1], 3)) ms (\(frames) frames after \(warmup) warm-up)")
        }
    }
}
