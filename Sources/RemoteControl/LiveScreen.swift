import CZlib
import Geometry
import ImageCodecs
import Raster
import Runtime
import NIOConcurrencyHelpers
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The screen as live viewers (`GET /live`) see it: a copy in the panel's orientation, kept
/// only while someone watches, and for each viewer the region that changed since it was last
/// sent. The frame loop writes a frame's damage into the copy and moves on; each viewer's task
/// takes its region when its socket can take more, so a slow viewer gets fewer, merged
/// updates and the loop never waits for one.
final class LiveScreen: Sendable {
    struct Viewer {
        var pending = Region()
        var frameNumber = 0
        /// Wall-clock milliseconds (CLOCK_REALTIME) of the newest frame in `pending`.
        var presentedAt = 0.0
        let wake: AsyncStream<Void>.Continuation
        /// The client's address: one client may hold `maxViewersPerClient` of the slots.
        var client = ""
    }
    /// Touched only under `state`'s lock (its band renderer is a class of no thread's own).
    struct State: @unchecked Sendable {
        var mirror: PixelBuffer?
        var viewers: [Int: Viewer] = [:]
        var nextID = 0
        /// Changes with every write into `mirror`: an encoded rectangle of one version is the
        /// same for every viewer.
        var version = 0
        /// Turns damage into the mirror as a display turns it onto its panel.
        let copier = BandRenderer(threads: 1)
    }

    /// A viewer's update: the rectangles of the panel it has not been sent, as of `version`.
    struct Update {
        var rects: [IntRect]
        var version: Int
        var frameNumber: Int
        var presentedAt: Double
        var screenWidth: Int
        var screenHeight: Int
    }

    static let maxViewers = 64
    /// Viewers from one address at most, so that one client cannot keep every other out.
    static let maxViewersPerClient = 8
    /// A viewer's region merges into one rectangle past this many (each costs a message).
    static let maxPieces = 8

    let state = NIOLockedValueBox(State())
    private let viewerCount = Atomic<Int>(0)
    private let encoded = NIOLockedValueBox<[EncodedKey: Task<[UInt8]?, any Error>]>([:])

    var hasViewers: Bool { viewerCount.load(ordering: .relaxed) > 0 }

    // MARK: The loop's side

    /// A frame changed `damage` (canvas pixels) of `screen`; the panel shows it turned by
    /// `rotation`. Copies the damage into the mirror and wakes every viewer. Without viewers it
    /// costs nothing.
    func framePresented(_ screen: PixelBuffer, damage: Region, rotation: Rotation, frameNumber: Int) {
        guard hasViewers else { return }
        let now = Self.wallClockMilliseconds()
        state.withLockedValue { s in
            let changed = Self.write(screen, damage: damage, rotation: rotation, into: &s)
            guard !changed.isEmpty else { return }
            for (id, var v) in s.viewers {
                v.pending.formUnion(changed)
                if v.pending.rects.count > Self.maxPieces { v.pending = Region(v.pending.bounds) }
                v.frameNumber = frameNumber
                v.presentedAt = now
                s.viewers[id] = v
                v.wake.yield()
            }
        }
    }

    /// Viewer `id` has just joined: it is sent the whole screen (copied in first if nobody was
    /// watching, when the mirror is not kept).
    func welcome(_ id: Int, screen: PixelBuffer, rotation: Rotation, frameNumber: Int) {
        let now = Self.wallClockMilliseconds()
        state.withLockedValue { s in
            if s.mirror == nil { _ = Self.write(screen, damage: Region(screen.bounds), rotation: rotation, into: &s) }
            guard let mirror = s.mirror, var v = s.viewers[id] else { return }
            v.pending = Region(mirror.bounds)
            v.frameNumber = frameNumber
            v.presentedAt = now
            s.viewers[id] = v
            v.wake.yield()
        }
    }

    /// Copies `damage` of `screen` into the mirror (all of it when the panel's size changed);
    /// returns the panel region that changed.
    private static func write(_ screen: PixelBuffer, damage: Region, rotation: Rotation, into s: inout State) -> Region {
        let panel = rotation.canvasSize(panelWidth: screen.width, panelHeight: screen.height)  // its own inverse
        var damage = damage.clipped(to: screen.bounds)
        if s.mirror?.width != panel.width || s.mirror?.height != panel.height {
            s.mirror = PixelBuffer(width: panel.width, height: panel.height)
            damage = Region(screen.bounds)
        }
        guard let mirror = s.mirror, !damage.isEmpty else { return Region() }
        copyDamage(from: screen.span, to: mirror.span, region: damage, rotation: rotation, bands: s.copier)
        s.version += 1
        var changed = Region()
        for r in damage.rects {
            changed.add(rotation.panelRect(canvasRect: r, canvasWidth: screen.width, canvasHeight: screen.height))
        }
        return changed
    }

    // MARK: The viewers' side

    /// A new viewer: its number and the stream that wakes it when it has something to send;
    /// nil when `maxViewers` watch already, or `maxViewersPerClient` from `client`. The loop
    /// then `welcome`s it with the whole screen.
    func join(from client: String = "") -> (id: Int, wakes: AsyncStream<Void>)? {
        let (stream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLockedValue { s -> Int? in
            guard s.viewers.count < Self.maxViewers, s.viewers.values.count(where: { $0.client == client }) < Self.maxViewersPerClient
            else { return nil }
            defer { s.nextID += 1 }
            s.viewers[s.nextID] = Viewer(wake: wake, client: client)
            return s.nextID
        }
        guard let id else { return nil }
        viewerCount.add(1, ordering: .relaxed)
        return (id, stream)
    }

    func leave(_ id: Int) {
        let wake = state.withLockedValue { s -> AsyncStream<Void>.Continuation? in
            let v = s.viewers.removeValue(forKey: id)
            if s.viewers.isEmpty { s.mirror = nil }
            return v?.wake
        }
        guard let wake else { return }
        wake.finish()
        viewerCount.subtract(1, ordering: .relaxed)
    }

    /// What viewer `id` has not been sent yet, or nil when nothing changed for it. Its pixels
    /// are copied out when a message is made, once for all the viewers that ask for them.
    func take(_ id: Int) -> Update? {
        state.withLockedValue { s -> Update? in
            guard let mirror = s.mirror, var v = s.viewers[id], !v.pending.isEmpty else { return nil }
            let rects = v.pending.rects
            v.pending = Region()
            s.viewers[id] = v
            return Update(
                rects: rects, version: s.version, frameNumber: v.frameNumber, presentedAt: v.presentedAt,
                screenWidth: mirror.width, screenHeight: mirror.height)
        }
    }

    /// A copy of the mirror's rectangle `r` (nil when the mirror is gone or no longer holds it:
    /// its size changed, and every viewer has been given the whole panel again).
    func pixels(of r: IntRect) -> PixelBuffer? {
        state.withLockedValue { s -> PixelBuffer? in
            guard let mirror = s.mirror, r.intersection(mirror.bounds) == r else { return nil }
            let piece = PixelBuffer(width: r.width, height: r.height)
            for row in 0..<r.height {
                (piece.pixels + row * piece.stride).update(from: mirror.pixels + (r.y + row) * mirror.stride + r.x, count: r.width)
            }
            return piece
        }
    }

    // MARK: Encoding

    /// How a rectangle's pixels travel: PNG (libpng, fast filters), or the rows as RGBA bytes
    /// compressed with zlib (the browser inflates them with `DecompressionStream`).
    enum Encoding: String, Sendable, CaseIterable {
        case png, deflate
        var code: UInt8 { self == .png ? 1 : 2 }
    }

    struct EncodedKey: Hashable {
        var version: Int
        var rect: IntRect
        var encoding: Encoding
    }

    /// The message for rectangle `rect` of `update`: a 40-byte header (little-endian: kind,
    /// flags, x, y, width, height, screen width and height, frame number, the frame's
    /// wall-clock time in ms) and the encoded pixels; nil when the mirror no longer holds the
    /// rectangle. Viewers that keep up ask for the same rectangles of the same version at
    /// about the same time: each is copied and encoded once, by the first, and the others
    /// wait for its bytes. (A frame drawn between a viewer's `take` and the copy may show in
    /// it: its damage is pending for every viewer, so they are sent it again.)
    func message(_ rect: IntRect, of update: Update, last: Bool, encoding: Encoding) async throws -> [UInt8]? {
        let key = EncodedKey(version: update.version, rect: rect, encoding: encoding)
        let task = encoded.withLockedValue { cache in
            if let shared = cache[key] { return shared }
            // Only the newest versions are asked for again; older ones go.
            cache = cache.filter { $0.key.version >= key.version - 1 }
            let task = Task { () throws -> [UInt8]? in try self.pixels(of: rect).map { try Self.encode($0, as: encoding) } }
            if cache.count < 64 { cache[key] = task }
            return task
        }
        guard let payload = try await task.value else { return nil }
        var m = [UInt8]()
        m.reserveCapacity(40 + payload.count)
        m.append(encoding.code)
        m.append(last ? 1 : 0)
        m.append(contentsOf: [0, 0])
        for v in [rect.x, rect.y, rect.width, rect.height, update.screenWidth, update.screenHeight, update.frameNumber & 0xFFFF_FFFF] {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { m.append(contentsOf: $0) }
        }
        withUnsafeBytes(of: update.presentedAt.bitPattern.littleEndian) { m.append(contentsOf: $0) }
        m.append(contentsOf: payload)
        return m
    }

    static func encode(_ pixels: PixelBuffer, as encoding: Encoding) throws(ImageCodecError) -> [UInt8] {
        switch encoding {
        case .png:
            return try PNG.encode(pixels, alpha: .opaque, fast: true)
        case .deflate:
            let count = pixels.width * pixels.height
            var rgba = [UInt32](repeating: 0, count: count)
            rgba.withUnsafeMutableBufferPointer { out in
                var o = 0
                for y in 0..<pixels.height {
                    let row = pixels.pixels + y * pixels.stride
                    for x in 0..<pixels.width {
                        // 0xAARRGGBB → bytes R, G, B, 255 (what ImageData holds).
                        let p = row[x]
                        out[o] = 0xFF00_0000 | ((p & 0xFF) << 16) | (p & 0xFF00) | ((p >> 16) & 0xFF)
                        o += 1
                    }
                }
            }
            var size = compressBound(uLong(count * 4))
            var out = [UInt8](repeating: 0, count: Int(size))
            let status = out.withUnsafeMutableBufferPointer { o in
                rgba.withUnsafeBytes { i in
                    compress2(o.baseAddress, &size, i.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(count * 4), 1)
                }
            }
            guard status == Z_OK else { throw .encodeFailed(message: "zlib compress2 failed (\(status))") }
            out.removeSubrange(Int(size)...)
            return out
        }
    }

    static func wallClockMilliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }
}
