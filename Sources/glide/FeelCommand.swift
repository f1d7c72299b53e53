import ArgumentParser
import FeelLab
import Geometry
import KioskRuntime
import Runtime
import Scrolling
#if canImport(Glibc)
import Glibc
#endif

struct FeelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feel",
        abstract: "Tabulate the scroll physics as CSV, to tune it or check it against a reference.",
        subcommands: [Release.self, Trace.self, Velocity.self])

    /// Options shared by the simulations.
    struct Physics: ParsableArguments {
        @Option(help: "Deceleration rate: normal (0.998), fast (0.99) or a number in (0, 1).")
        var rate = "normal"
        @Flag(help: "Settle on page boundaries.")
        var paging = false
        @Option(help: "Page length in points (default: the viewport length).")
        var pageSize: Double?
        @Option(help: "Frames per second of the virtual clock.")
        var hz = 60.0

        func configuration() throws -> ScrollConfiguration {
            var c = ScrollConfiguration()
            guard let r = FeelLab.decelerationRate(rate) else {
                throw ValidationError("--rate must be normal, fast or a number between 0 and 1, not '\(rate)'")
            }
            guard hz.isFinite, hz >= 1, hz <= 10_000 else { throw ValidationError("--hz must lie in 1...10000") }
            if let pageSize, !(pageSize.isFinite && pageSize > 0) { throw ValidationError("--page-size must be positive") }
            c.decelerationRate = r
            c.isPagingEnabled = paging
            c.pageSize = pageSize
            return c
        }
    }

    struct Release: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "release",
            abstract: "A 1-D vertical release at t = 0; prints t_ms,offset,velocity per frame until at rest.")
        @Option(help: "Viewport length, points.") var viewport: Double
        @Option(help: "Content length, points.") var content: Double
        // `.unconditional`: `--velocity -300` takes -300 as the value, not as an option.
        @Option(parsing: .unconditional, help: "Offset at release, points.") var offset = 0.0
        @Option(parsing: .unconditional, help: "Scroll velocity at release, points per second (positive = offset growing).")
        var velocity: Double
        @OptionGroup var physics: Physics

        func validate() throws {
            for (name, v) in [("viewport", viewport), ("content", content), ("offset", offset), ("velocity", velocity)] {
                guard v.isFinite, abs(v) <= 1e7 else { throw ValidationError("--\(name) must be a finite number") }
            }
            guard viewport > 0, content >= 0 else { throw ValidationError("--viewport must be positive and --content not negative") }
        }

        func run() throws {
            print(
                FeelLab.release(
                    viewport: viewport, content: content, offset: offset, velocity: velocity,
                    configuration: try physics.configuration(), hz: physics.hz), terminator: "")
        }
    }

    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trace",
            abstract:
                "Replay touch samples (t_ms,phase,id,x,y); prints the engine state after each sample and at every frame until at rest.")
        @Argument(help: "CSV file of touch samples, or - for standard input.") var file: String
        @Option(help: "Viewport size WxH, points.") var viewport: String
        @Option(help: "Content size WxH, points.") var content: String
        @Option(parsing: .unconditional, help: "Initial offset X,Y.") var offset = "0,0"
        @Option(help: "vertical, horizontal or both.") var axis = "vertical"
        @Option(help: "Minimum zoom scale.") var minScale = 1.0
        @Option(help: "Maximum zoom scale.") var maxScale = 1.0
        @Option(help: "on: frames draw a dragging finger resampled between its samples; off: at its newest sample.")
        var resample = "on"
        @Option(help: "Milliseconds the resampled finger trails the frame time (0 to 50).")
        var resampleLatency = TouchResampling.defaultLatency * 1000
        @OptionGroup var physics: Physics

        func run() throws {
            guard let viewportSize = FeelLab.size(viewport) else { throw ValidationError("--viewport must be WxH, e.g. 1280x800") }
            guard let contentSize = FeelLab.size(content) else { throw ValidationError("--content must be WxH, e.g. 1280x5000") }
            guard let start = FeelLab.point(offset) else { throw ValidationError("--offset must be X,Y") }
            guard minScale.isFinite, maxScale.isFinite, minScale > 0, maxScale >= minScale else {
                throw ValidationError("--min-scale and --max-scale must be positive with min ≤ max")
            }
            var c = try physics.configuration()
            switch axis {
            case "vertical": c.axes = .vertical
            case "horizontal": c.axes = .horizontal
            case "both": c.axes = .both
            default: throw ValidationError("--axis must be vertical, horizontal or both")
            }
            c.minimumScale = minScale
            c.maximumScale = maxScale
            guard resampleLatency.isFinite, resampleLatency >= 0, resampleLatency <= 50 else {
                throw ValidationError("--resample-latency must lie in 0...50 (milliseconds)")
            }
            switch resample {
            case "on": c.touchResampling = TouchResampling(latency: resampleLatency / 1000)
            case "off": c.touchResampling = nil
            default: throw ValidationError("--resample must be on or off")
            }
            let samples = try parseSamples(file)
            print(
                FeelLab.trace(
                    samples, viewport: viewportSize, content: contentSize, offset: start,
                    configuration: c, hz: physics.hz), terminator: "")
        }
    }

    struct Velocity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "velocity",
            abstract: "For each finger lift, the estimated release velocity: t_ms,id,vx,vy (screen points per second).")
        @Argument(help: "CSV file of touch samples, or - for standard input.") var file: String
        func run() throws {
            print(FeelLab.velocities(try parseSamples(file)), terminator: "")
        }
    }
}

/// Reads and parses a trace; a bad file ends the command with a message naming the line and
/// exit status 2.
func parseSamples(_ path: String) throws -> [TraceSample] {
    let text: String
    do {
        text = try readText(path)
    } catch {
        processLog.error("\(error)")
        throw ExitCode(2)
    }
    do {
        return try TouchTrace.parse(text)
    } catch {
        processLog.error("\(path): \(error)")
        throw ExitCode(2)
    }
}
