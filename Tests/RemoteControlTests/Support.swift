import AppContract
import Dispatch
import Geometry
import Headless
import Logging
import Raster
import Runtime
import Scrolling
import NIOConcurrencyHelpers
import Testing
import Text
import UI
@testable import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

// A real app (UI.Window: a 5-page pager with a page control) in a real-time headless loop on its
// own thread, serving a RemoteServer on 127.0.0.1 with an OS-chosen port; and a small blocking
// HTTP/1.1 client over a TCP socket, run off the Swift concurrency pool.

/// A pager with `count` full-width coloured pages and a page control at the bottom.
func makePagerWindow(width: Int = 640, height: Int = 400) throws -> Window {
    let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
    let strip = Stack(.horizontal, id: "strip")
    let colors: [UInt32] = [0xE63946, 0x2A9D8F, 0xE9C46A, 0x457B9D, 0xF4A261]
    for i in 0..<5 { strip.add(Box(id: "page-\(i)", fill: Color(rgb: colors[i]))) }
    var config = ScrollConfiguration()
    config.isPagingEnabled = true
    let pager = ScrollView(id: "pager", axes: .horizontal, configuration: config, content: strip)
    pager.sizesPagesToViewport = true
    let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: .prominent)
    let root = Overlay(
        id: "root", alignment: .bottom, inset: EdgeInsets(top: 0, leading: 0, bottom: 16, trailing: 0),
        children: [pager, control])
    return Window(width: width, height: height, scaleFactor: 1, typography: typography, root: root)
}

/// Log lines kept in memory, to check that refusals are logged.
final class LogCollector: Sendable {
    let lines = NIOLockedValueBox<[String]>([])
    struct Handler: LogHandler {
        let collector: LogCollector
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            collector.lines.withLockedValue { $0.append("\(event.level) \(event.message)") }
        }
    }
    var logger: Logger { Logger(label: "test.remote") { _ in Handler(collector: self) } }
}

/// Monotonic seconds that move only when a test moves them.
final class HeldClock: Sendable {
    private let seconds = NIOLockedValueBox(1000.0)
    var now: Double { seconds.withLockedValue { $0 } }
    func advance(by dt: Double) { seconds.withLockedValue { $0 += dt } }
}

/// A running app with a remote server; `shutdown()` must be called at the end of each test.
final class Harness: Sendable {
    let server: RemoteServer
    let stopper: LoopStopper
    let port: Int
    let finished = DispatchSemaphore(value: 0)
    let log = LogCollector()

    /// `readsBack`: false runs the app on an output that cannot read back what it shows (a board
    /// without a writeback connector).
    /// `tokensFile`: named tokens with scopes; `clock`: virtual runs the loop on a clock only
    /// requests move; `tls`: HTTPS (plain HTTP otherwise); `auditor`: what `/audit` runs;
    /// `attempts`: the clock wrong tokens' waits run on (a `HeldClock` keeps them from running out).
    init(
        token: String? = nil, tokensFile: String? = nil, clock: RemoteClock = .wall, maxBodyBytes: Int = 1 << 20,
        idleTimeoutSeconds: Int64 = 30, readsBack: Bool = true, tls: RemoteTLSSource? = nil, auditor: ScreenAuditor? = nil,
        attempts: HeldClock? = nil
    ) async throws {
        var config = RemoteConfiguration(
            host: "127.0.0.1", port: 0, token: token, maxBodyBytes: maxBodyBytes,
            idleTimeoutSeconds: idleTimeoutSeconds)
        config.tokensFile = tokensFile
        config.clock = clock
        config.tls = tls
        var attemptClock: @Sendable () -> Double = monotonicSeconds
        if let attempts { attemptClock = { attempts.now } }
        server = try RemoteServer(configuration: config, logger: log.logger, auditor: auditor, attemptClock: attemptClock)
        port = try await server.start()
        stopper = try LoopStopper()
        let (server, stopper, finished) = (server, stopper, finished)
        let built = DispatchSemaphore(value: 0)
        let failure = NIOLockedValueBox<String?>(nil)
        // The loop thread owns the app: it is built, run and dropped there.
        Thread.detach {
            do {
                let window = try makePagerWindow()
                built.signal()
                let headless = HeadlessDisplay(width: 640, height: 400)
                let display: FrameOutput = readsBack ? headless : WithoutReadBack(headless)
                let loop = try FrameLoop(app: window, output: display, stopper: stopper)
                loop.isClockVirtual = clock == .virtual
                loop.remote = server
                try loop.run()
            } catch {
                failure.withLockedValue { $0 = "\(error)" }
                built.signal()
                server.loopStopped()
            }
            finished.signal()
        }
        await Blocking.run { built.wait() }
        if let f = failure.withLockedValue({ $0 }) { throw HarnessError(message: f) }
    }

    func shutdown() async {
        stopper.stop()
        let finished = finished
        let ended = await Blocking.run { finished.wait(timeout: .now() + 10) == .success }
        #expect(ended, "the loop did not stop")
        await server.stop()
    }

    func request(
        _ method: String, _ path: String, body: [UInt8] = [], headers: [String] = [],
        token: String? = nil
    ) async throws -> HTTPReply {
        let port = port
        return try await Blocking.run {
            try HTTPClient.send(port: port, method: method, path: path, body: body, headers: headers, token: token)
        }
    }

    /// Sends the request every 50 ms until it answers `status` (for 10 s at most): for a state the
    /// server reaches when something sent before has arrived, on a machine that may delay it.
    func awaitStatus(_ status: Int, of method: String, _ path: String, body: [UInt8] = [], token: String? = nil) async throws {
        var last = 0
        let answered = try await eventually {
            last = try await request(method, path, body: body, token: token).status
            return last == status
        }
        if !answered { Issue.record("\(method) \(path) answered \(last), not \(status), for 10 s") }
    }

    func state() async throws -> String {
        let r = try await request("GET", "/state")
        #expect(r.status == 200)
        return r.text
    }
}

struct HarnessError: Error { var message: String }

/// Whether `condition` came to hold, checked every 50 ms for `seconds` at most: for what the
/// server does once something sent before has arrived, which a busy machine may delay.
func eventually(within seconds: Int = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    repeat {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    } while ContinuousClock.now < deadline
    return false
}

/// A plain thread (the frame loop must not run on the Swift concurrency pool, which has only as
/// many threads as cores).
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let r = pthread_create(
            &thread, nil,
            { arg in
                let box = Unmanaged<AnyObject>.fromOpaque(arg!).takeRetainedValue() as! Box
                box.body()
                return nil
            }, box)
        precondition(r == 0, "pthread_create failed")
        pthread_detach(thread)
    }
}

/// Runs blocking work (sockets, semaphores) on a Dispatch thread and awaits it.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            DispatchQueue.global().async { c.resume(with: Result { try work() }) }
        }
    }
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in
            DispatchQueue.global().async { c.resume(returning: work()) }
        }
    }
}

struct HTTPReply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}

struct ClientError: Error, CustomStringConvertible { var description: String }

/// A blocking HTTP/1.1 client for the tests: one request per connection (`Connection: close`),
/// read until the server closes; a 60 s receive timeout, so nothing hangs (a busy suite can
/// keep the server waiting several seconds for a thread).
enum HTTPClient {
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket failed") }
        var tv = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else { close(fd); throw ClientError(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)") }
        return fd
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    static func readAll(_ fd: Int32) throws -> [UInt8] {
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { break }
                throw ClientError(description: "recv failed: errno \(errno)")
            }
            data.append(contentsOf: buf[0..<n])
        }
        return data
    }

    static func requestHead(method: String, path: String, bodyCount: Int, headers: [String], token: String?) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(bodyCount)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        // A client of the API says its body is JSON (the server refuses other types).
        if bodyCount > 0, !headers.contains(where: { $0.lowercased().hasPrefix("content-type:") }) {
            head += "Content-Type: application/x-ndjson\r\n"
        }
        for h in headers { head += h + "\r\n" }
        return Array((head + "\r\n").utf8)
    }

    /// Sends `bytes` as they are (a request head written by hand) and reads the reply.
    static func sendRaw(port: Int, _ bytes: [UInt8]) throws -> HTTPReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        try sendAll(fd, bytes)
        return try parse(readAll(fd))
    }

    static func send(port: Int, method: String, path: String, body: [UInt8], headers: [String], token: String?) throws -> HTTPReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        try sendAll(fd, requestHead(method: method, path: path, bodyCount: body.count, headers: headers, token: token) + body)
        return try parse(readAll(fd))
    }

    static func parse(_ data: [UInt8]) throws -> HTTPReply {
        let crlf2: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == crlf2 }) else {
            throw ClientError(description: "no complete response head in \(data.count) bytes")
        }
        let lines = String(decoding: data[0..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ClientError(description: "bad status line") }
        let headers = lines.dropFirst().compactMap { l -> (String, String)? in
            guard let c = l.firstIndex(of: ":") else { return nil }
            return (String(l[..<c]), String(l[l.index(after: c)...]).trimmingCharacters())
        }
        var body = Array(data[(end + 4)...])
        let reply = HTTPReply(status: status, headers: headers, body: [])
        if reply.header("transfer-encoding")?.lowercased() == "chunked" {
            var out: [UInt8] = []
            var i = 0
            while i < body.count {
                guard let lineEnd = (i..<body.count - 1).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
                    let size = Int(String(decoding: body[i..<lineEnd], as: UTF8.self), radix: 16)
                else { break }
                if size == 0 { break }
                out.append(contentsOf: body[(lineEnd + 2)..<(lineEnd + 2 + size)])
                i = lineEnd + 2 + size + 2
            }
            body = out
        } else if let length = reply.header("content-length").flatMap(Int.init) {
            guard body.count >= length else { throw ClientError(description: "body ends early: \(body.count) of \(length)") }
            body = Array(body[0..<length])
        }
        return HTTPReply(status: status, headers: headers, body: body)
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// Time on CLOCK_MONOTONIC in seconds.
func now() -> Double { monotonicSeconds() }

/// Small JSON reading for the tests (the state is JSON; FoundationEssentials decodes it).
import FoundationEssentials

struct TestState: Decodable {
    struct SV: Decodable { var id: String?; var offset: [Double]; var page: Int?; var phase: String; var frame: [Double] }
    struct PC: Decodable { var id: String?; var currentPage: Int; var frame: [Double]; var interaction: String }
    var t: Double
    var frameNumber: Int
    var scrollViews: [SV]
    var pageControls: [PC]
}

func decodeState(_ text: String) throws -> TestState {
    try JSONDecoder().decode(TestState.self, from: Data(text.utf8))
}

struct WaitReply: Decodable { var atRest: Bool; var waitedMs: Double; var state: TestState }
struct EventsReply: Decodable {
    var events: Int; var arrival: Double; var firstApplied: Double; var lastApplied: Double; var frameNumber: Int
}
struct ErrorReply: Decodable { var error: String; var line: Int? }

func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

/// A horizontal swipe as a script: down, moves every 8 ms over `duration`, up.
func swipeScript(fromX x0: Double, toX x1: Double, y: Double, duration: Double = 0.12) -> String {
    var lines = ["{\"t\":0,\"touch\":\"down\",\"id\":0,\"x\":\(x0),\"y\":\(y)}"]
    let steps = Int(duration / 0.008)
    for i in 1...steps {
        let x = x0 + (x1 - x0) * Double(i) / Double(steps)
        lines.append("{\"t\":\(Double(i) * 8),\"touch\":\"move\",\"id\":0,\"x\":\(x),\"y\":\(y)}")
    }
    lines.append("{\"t\":\(Double(steps) * 8 + 4),\"touch\":\"up\",\"id\":0}")
    return lines.joined(separator: "\n") + "\n"
}

/// A headless display that, like a board without a writeback connector, cannot read back.
final class WithoutReadBack: FrameOutput {
    let display: HeadlessDisplay
    init(_ display: HeadlessDisplay) { self.display = display }
    var canvasWidth: Int { display.canvasWidth }
    var canvasHeight: Int { display.canvasHeight }
    var canPresent: Bool { true }
    var isShowing: Bool { true }
    var rotation: Rotation { .none }
    var refreshHz: Double { display.refreshHz }
    func screen(shadow: PixelBuffer) -> PixelBuffer { display.screen }
    func present(_ frame: PixelBuffer, damage: Region) throws { try display.present(frame, damage: damage) }
}
