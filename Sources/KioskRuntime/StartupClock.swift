import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// What a process spends before its first frame, in parts (issue 48: a fast first frame), read
/// where the work is done: the runtimes' edges, never the engine.
package enum StartupClock {
    /// Seconds since the kernel started this process (`/proc/self/stat`'s start time, in clock
    /// ticks: 10 ms steps): the loader, the Swift runtime and the command line before `run`.
    /// Nil where `/proc` cannot be read.
    package static func secondsSinceExec() -> Double? {
        guard let stat = try? FileIO.readAll(path: "/proc/self/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // Fields after the command's name start at the third (the state); the start time is the 22nd.
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hz > 0 else { return nil }
        return max(0, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / hz)
    }

    /// Seconds as whole milliseconds, for the report.
    package static func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded()))" }
}

/// The parts of a run before its first frame that `run --timing` reports.
package struct Startup {
    /// Exec to the runtime's `run` (nil without `/proc`).
    var sinceExec: Double?
    /// Building the app: its views, and its fonts' primary face (the rest is read when text needs it).
    var building: Double

    /// "first frame 142 ms after exec: start-up 38, app 56, layout 24, first raster 24".
    func report(layout: Double, firstRaster: Double) -> String {
        let parts = [
            sinceExec.map { "start-up \(StartupClock.ms($0)) (loader, Swift runtime, options; in 10 ms steps)" },
            "app \(StartupClock.ms(building)) (its views and fonts)", "layout \(StartupClock.ms(layout))",
            "first raster \(StartupClock.ms(firstRaster))",
        ].compactMap { $0 }
        let total = (sinceExec ?? 0) + building + layout + firstRaster
        return "first frame \(StartupClock.ms(total)) ms after \(sinceExec == nil ? "run" : "exec"): " + parts.joined(separator: ", ")
    }
}
