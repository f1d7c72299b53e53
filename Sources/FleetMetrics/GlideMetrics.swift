import AppContract
import CoreMetrics
import Prometheus
import Runtime
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a running glide counts for a fleet (issue 62), recorded through swift-metrics' types
/// into a Prometheus registry of its own and read by `GET /metrics` in Prometheus' text format.
/// Names follow Prometheus' conventions: a unit suffix (`_seconds`, `_bytes`), `_total` on
/// counters, `glide_` before all. The loop records on its thread and the server reads on its
/// own: the registry is safe from any thread.
package final class GlideMetrics: LoopMetrics, Sendable {
    /// The content type of `exposition()`: Prometheus' text format 0.0.4.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry = PrometheusCollectorRegistry()
    private let frameTime: CoreMetrics.Timer
    private let inputToFlip: CoreMetrics.Timer
    private let frames: CoreMetrics.Counter
    private let framesPresented: CoreMetrics.Counter
    private let missedBlanks: CoreMetrics.Counter
    private let touches: CoreMetrics.Counter
    private let idleResets: CoreMetrics.Counter
    private let screenOn: CoreMetrics.Gauge
    private let screenIdle: CoreMetrics.Gauge
    private let openHours: CoreMetrics.Gauge
    private let pictureStore: CoreMetrics.Gauge
    private let residentMemory: CoreMetrics.Gauge
    private let loopStalled: CoreMetrics.Gauge
    /// When the ping a scrape posted to the loop went out (nil: answered) — the loop's liveness,
    /// read at the next scrape, so a scrape never waits for a stuck loop.
    private let pingPosted = Mutex<Double?>(nil)
    /// The idle resets counted so far: the app's count only grows, the counter takes the steps.
    private let seenIdleResets = Mutex(0)

    /// Metrics for `app` (its command name), built from Glide `version` at `commit`.
    package init(app: String, version: String = GlideVersion.version, commit: String = GlideVersion.commit) {
        var factory = PrometheusMetricsFactory(registry: registry)
        // A frame is a few milliseconds; latency to the panel tens; a stall seconds.
        let seconds: [Double] = [0.001, 0.002, 0.004, 0.008, 0.0125, 0.0167, 0.025, 0.033, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
        factory.defaultDurationHistogramBuckets = seconds.map { .nanoseconds(Int64($0 * 1e9)) }
        frameTime = CoreMetrics.Timer(label: "glide_frame_seconds", factory: factory)
        inputToFlip = CoreMetrics.Timer(label: "glide_input_to_flip_seconds", factory: factory)
        frames = CoreMetrics.Counter(label: "glide_frames_total", factory: factory)
        framesPresented = CoreMetrics.Counter(label: "glide_frames_presented_total", factory: factory)
        missedBlanks = CoreMetrics.Counter(label: "glide_missed_flips_total", factory: factory)
        touches = CoreMetrics.Counter(label: "glide_touches_total", factory: factory)
        idleResets = CoreMetrics.Counter(label: "glide_idle_resets_total", factory: factory)
        screenOn = CoreMetrics.Gauge(label: "glide_screen_on", factory: factory)
        screenIdle = CoreMetrics.Gauge(label: "glide_screen_idle", factory: factory)
        openHours = CoreMetrics.Gauge(label: "glide_display_opening_hours", factory: factory)
        pictureStore = CoreMetrics.Gauge(label: "glide_picture_store_bytes", factory: factory)
        residentMemory = CoreMetrics.Gauge(label: "glide_resident_memory_bytes", factory: factory)
        loopStalled = CoreMetrics.Gauge(label: "glide_loop_stalled_seconds", factory: factory)
        CoreMetrics.Gauge(
            label: "glide_build_info", dimensions: [("version", version), ("commit", commit), ("app", app)], factory: factory
        )
        .record(1)
        screenOn.record(1)
        screenIdle.record(0)
        openHours.record(1)
        requestFactory = factory
    }

    private let requestFactory: PrometheusMetricsFactory

    // MARK: What the loop reports

    package func frameDrawn(seconds: Double, presented: Bool) {
        frameTime.recordSeconds(Self.finite(seconds))
        frames.increment()
        if presented { framesPresented.increment() }
    }

    package func inputShown(after seconds: Double) { inputToFlip.recordSeconds(Self.finite(seconds)) }
    package func blanksMissed(_ count: Int) { if count > 0 { missedBlanks.increment(by: count) } }
    package func touchBegan() { touches.increment() }
    package func screenPowered(on: Bool, idle: Bool) {
        screenOn.record(on ? 1 : 0)
        screenIdle.record(!on && idle ? 1 : 0)
    }

    package func openingHours(_ open: Bool) { openHours.record(open ? 1 : 0) }

    package func sample(_ app: App) {
        pictureStore.record(app.pictureStoreBytes)
        let total = app.idleResets
        let step = seenIdleResets.withLock { seen in
            defer { seen = max(seen, total) }
            return total - seen
        }
        if step > 0 { idleResets.increment(by: step) }
    }

    // MARK: What the server reports

    /// A request the remote API answered: `endpoint` is the route it took ("other" for none),
    /// `status` its HTTP status.
    package func requestServed(endpoint: String, status: Int) {
        CoreMetrics.Counter(
            label: "glide_remote_requests_total", dimensions: [("endpoint", endpoint), ("status", "\(status)")], factory: requestFactory
        )
        .increment()
    }

    /// The loop took the last scrape's ping.
    package func loopAnswered() { pingPosted.withLock { $0 = nil } }

    /// Whether a scrape should post a ping to the loop: when none is waiting. A ping that is
    /// waiting sets `glide_loop_stalled_seconds` to how long it has (0 when none waits).
    package func shouldPingLoop(now: Double = monotonicSeconds()) -> Bool {
        let waiting = pingPosted.withLock { posted in
            defer { if posted == nil { posted = now } }
            return posted.map { now - $0 }
        }
        loopStalled.record(waiting ?? 0)
        return waiting == nil
    }

    /// The series now, in Prometheus' text format. Resident memory is read here, at the scrape.
    package func exposition() -> [UInt8] {
        if let bytes = Self.residentBytes() { residentMemory.record(bytes) }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// The process's resident set (`/proc/self/statm`'s second field, in pages).
    static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else { return nil }
        let fields = String(decoding: bytes[..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func finite(_ seconds: Double) -> Double { seconds.isFinite ? max(0, seconds) : 0 }
}
