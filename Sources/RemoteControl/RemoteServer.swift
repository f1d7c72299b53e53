import Dispatch
import FoundationEssentials
import Geometry
import HTTPTypes
import Hummingbird
import ImageCodecs
import Logging
import Raster
import Runtime
import ServiceLifecycle
import Synchronization

/// Where and how the remote-control server listens (REM-1).
package struct RemoteConfiguration: Sendable {
    package var host: String
    /// 0 picks a free port (see `RemoteServer.port`).
    package var port: Int
    /// Required on any non-loopback address; when set it is checked on every request.
    package var token: String?
    /// Largest accepted request body.
    package var maxBodyBytes: Int
    /// Longest span of one injected script and longest `/wait`, in seconds.
    package var maxScriptSeconds: Double
    package var maxWaitSeconds: Double
    /// A connection that sends nothing for this long is closed (slow or stuck clients).
    package var idleTimeoutSeconds: Int64
    /// The live view (`GET /live`) shows the screen and takes no input from anyone.
    package var liveReadOnly = false

    package init(host: String = "127.0.0.1", port: Int, token: String? = nil, maxBodyBytes: Int = 1 << 20,
                maxScriptSeconds: Double = 120, maxWaitSeconds: Double = 300, idleTimeoutSeconds: Int64 = 30) {
        self.host = host; self.port = port; self.token = token; self.maxBodyBytes = maxBodyBytes
        self.maxScriptSeconds = maxScriptSeconds; self.maxWaitSeconds = maxWaitSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:0`).
    package static func parse(address: String, token: String?) throws(RemoteError) -> RemoteConfiguration {
        let host: Substring, portText: Substring
        if address.hasPrefix("[") {
            guard let close = address.firstIndex(of: "]"), address[address.index(after: close)...].hasPrefix(":") else {
                throw .badAddress(address)
            }
            host = address[address.index(after: address.startIndex)..<close]
            portText = address[address.index(close, offsetBy: 2)...]
        } else {
            guard let colon = address.lastIndex(of: ":"), !address[..<colon].contains(":") else { throw .badAddress(address) }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { throw .badAddress(address) }
        let c = RemoteConfiguration(host: String(host), port: port, token: token.flatMap { $0.isEmpty ? nil : $0 })
        if let t = c.token, !isAcceptableToken(t) { throw .badToken }
        guard c.token != nil || c.isLoopback else { throw .tokenRequired(host: c.host) }
        return c
    }

    /// True for 127.0.0.0/8, ::1 and localhost.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// The per-request context: Hummingbird's core storage, the peer's address (for the log) and
/// the body limit.
struct RemoteRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress.map { "\($0)" } ?? "?"
    }
}

/// What proves a request comes from someone who knows the token: `Authorization: Bearer TOKEN`,
/// HTTP Basic with the token as the password (what a browser asks a person for on `/live`),
/// or, for the live view only, the session cookie its page set (a browser sends it with the
/// page's socket, so the token is never put in a URL, where logs would keep it).
struct Credentials: Sendable {
    let token: [UInt8]
    /// Random for each server: the cookie proves the page was opened with the token.
    let session: [UInt8]
    static let cookie = "glide_live"

    init(token: String) {
        self.token = Array(token.utf8)
        var g = SystemRandomNumberGenerator()
        session = Array((0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined().utf8)
    }

    var setCookie: String { "\(Self.cookie)=\(String(decoding: session, as: UTF8.self)); Path=/live; HttpOnly; SameSite=Strict" }

    func accept(_ headers: HTTPFields, session allowSession: Bool) -> Bool {
        let authorization = headers[.authorization] ?? ""
        if authorization.hasPrefix("Bearer "), Self.same(Array(authorization.utf8.dropFirst(7)), token) { return true }
        if authorization.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
           let colon = decoded.firstIndex(of: UInt8(ascii: ":")), Self.same(Array(decoded[(colon + 1)...]), token) {
            return true
        }
        if allowSession {
            for header in headers[values: .cookie] {
                for pair in header.split(separator: ";") {
                    let p = pair.drop { $0 == " " }
                    if p.hasPrefix(Self.cookie + "="), Self.same(Array(p.utf8.dropFirst(Self.cookie.utf8.count + 1)), session) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// Same time whatever the first differing byte is.
    static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var diff = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { diff |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return diff == 0
    }
}

/// Rejects requests without the token (401, logged); see `Credentials`.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    let credentials: Credentials
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isLive = request.uri.path == "/live"
        guard credentials.accept(request.headers, session: isLive) else {
            let header = request.headers[.authorization] ?? ""
            logger.warning("remote: 401 \(request.method) \(request.uri.path) from \(context.peer): \(header.isEmpty ? "no token" : "wrong token")")
            return RemoteServer.json(.unauthorized, error: "missing or wrong token (send Authorization: Bearer TOKEN)",
                                     extraHeaders: [.wwwAuthenticate: isLive ? "Basic realm=\"glide\", charset=\"UTF-8\"" : "Bearer"])
        }
        return try await next(request, context)
    }
}

/// Keeps web pages away from the API (a kiosk's browser, a developer's laptop on the same
/// network): a request that a page on another site made is refused with 403 (its `Origin` is
/// not this server), so is one whose `Host` is not a loopback name while the server listens
/// on loopback (DNS rebinding: a page of evil.example whose name now points at 127.0.0.1), and
/// a body must say it is JSON (415 otherwise): a browser sends `text/plain`, forms or an
/// untyped body to another site without asking first, but never `application/json`.
struct OriginMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    let loopbackOnly: Bool
    let logger: Logger

    static let jsonTypes: Set<String> = ["application/json", "application/x-ndjson", "application/jsonl", "application/json-lines"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(request.head, loopbackOnly: loopbackOnly) {
            return refuse(request, context, .forbidden, refusal)
        }
        let hasBody = request.headers[.contentLength].map { $0 != "0" } ?? (request.headers[.transferEncoding] != nil)
        if hasBody {
            let type = (request.headers[.contentType] ?? "").split(separator: ";").first.map {
                String($0).lowercased().filter { $0 != " " && $0 != "\t" }
            } ?? ""
            guard Self.jsonTypes.contains(type) else {
                return refuse(request, context, .unsupportedMediaType,
                              "a body must be sent as Content-Type: application/json (or application/x-ndjson), not '\(excerpt(type, limit: 40))'")
            }
        }
        return try await next(request, context)
    }

    private func refuse(_ request: Request, _ context: Context, _ status: HTTPResponse.Status, _ message: String) -> Response {
        logger.warning("remote: \(status.code) \(request.method) \(request.uri.path) from \(context.peer): \(message)")
        return RemoteServer.json(status, error: message)
    }

    /// Why `request` comes from a page of another site, or nil: a foreign `Host` on a loopback
    /// server, a foreign `Origin`. WebSocket upgrades, which do not pass the router, ask too.
    static func refusal(_ request: HTTPRequest, loopbackOnly: Bool) -> String? {
        let host = request.authority ?? ""
        if loopbackOnly, !isLoopbackName(host) {
            return "Host \(excerpt(host, limit: 40)) is not this loopback server (a DNS rebinding page?)"
        }
        if let origin = request.headerFields[.origin], origin != "http://" + host {
            return "requests from other sites (Origin \(excerpt(origin, limit: 60))) are refused"
        }
        return nil
    }

    /// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
    static func isLoopbackName(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        return RemoteConfiguration(host: String(name), port: 0).isLoopback
    }
}

/// Requests of one kind admitted at once, up to `limit`.
final class AdmissionCounter: Sendable {
    let limit: Int
    private let count = Mutex(0)
    init(limit: Int) { self.limit = limit }
    var current: Int { count.withLock { $0 } }
    /// Takes a place, or nil when all are taken.
    func admit() -> Admission? {
        let admitted = count.withLock { n -> Bool in
            guard n < limit else { return false }
            n += 1
            return true
        }
        return admitted ? Admission(self) : nil
    }
    fileprivate func leave() { count.withLock { $0 -= 1 } }
}

/// A place taken in an `AdmissionCounter`, given back when it goes away.
final class Admission: Sendable {
    private let counter: AdmissionCounter
    fileprivate init(_ counter: AdmissionCounter) { self.counter = counter }
    deinit { counter.leave() }
}

/// The remote-control HTTP server (REM-1), built on Hummingbird. Handlers never touch the app:
/// they post requests into an inbox and await the frame loop's answers, which the loop gives in
/// `pollRequests(app:screen:rotation:time:frameNumber:control:deliver:)` on its own thread.
///
///     GET  /screenshot.png                          the presented screen as PNG
///     GET  /screenshot.png?source=scanout           the same, read back from the display
///     GET  /state                                   the app's state JSON
///     POST /events                                  JSON Lines script, t relative to arrival
///     POST /wait?until=rest&timeout_ms=N            200 at rest, 408 on timeout (with state)
///     POST /display {"on": BOOL}                    wake or blank the screen
///     GET  /live                                    a page that shows the screen live and drives it
///     GET  /live/socket (WebSocket)                 the page's socket (see `LiveSocket.swift`)
package final class RemoteServer: Sendable {
    package let configuration: RemoteConfiguration
    let logger: Logger
    let inbox: RemoteInbox
    /// The screen as live viewers see it.
    let live = LiveScreen()
    let credentials: Credentials?
    private let running = Mutex<(task: Task<Void, Never>?, group: ServiceGroup?, port: Int?)>((nil, nil, nil))

    package init(configuration: RemoteConfiguration, logger: Logger = Logger(label: "glide.remote")) throws(RemoteError) {
        guard configuration.token != nil || configuration.isLoopback else { throw .tokenRequired(host: configuration.host) }
        self.configuration = configuration
        self.logger = logger
        inbox = try RemoteInbox()
        credentials = configuration.token.map(Credentials.init)
    }

    /// The bound port once the server is listening.
    package var port: Int? { running.withLock { $0.port } }

    /// Starts listening; returns the bound port (useful with port 0). Throws if binding fails.
    package func start() async throws -> Int {
        let (stream, signal) = AsyncStream<Result<Int, RemoteError>>.makeStream()
        let app = Application(
            router: makeRouter(),
            server: RemoteHTTPChannel.builder(idleTimeout: .seconds(configuration.idleTimeoutSeconds)) { request, channel, _ in
                let peer = channel.remoteAddress.map { "\($0)" } ?? "?"
                switch self.admitLive(request, peer: peer) {
                case .dontUpgrade: return .dontUpgrade
                case let .upgrade(headers, admission):
                    return .upgrade(headers) { inbound, outbound, _ in
                        await self.serveLive(inbound, outbound, admission: admission, channel: channel)
                    }
                }
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "glide"),
            onServerRunning: { channel in
                signal.yield(.success(channel.localAddress?.port ?? -1))
            },
            logger: logger)
        // A service group of its own, so that `stop` shuts the server down gracefully (open
        // requests finish, nothing is logged as an error) instead of cancelling it.
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                signal.yield(.failure(.bindFailed("\(error)")))
            }
            signal.finish()
        }
        running.withLock { $0.task = task; $0.group = group }
        for await result in stream {
            switch result {
            case let .success(port):
                running.withLock { $0.port = port }
                logger.info("remote: listening on \(configuration.host):\(port)\(configuration.token == nil ? "" : " (token required)")")
                return port
            case let .failure(error):
                throw error
            }
        }
        throw RemoteError.bindFailed("the server stopped before it was listening")
    }

    /// `start()` for synchronous callers (the CLI): blocks until listening or failed.
    package func startBlocking() throws -> Int {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Int, any Error>?>(nil)
        Task {
            do { let p = try await self.start(); result.withLock { $0 = .success(p) } }
            catch { result.withLock { $0 = .failure(error) } }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Stops accepting connections and ends the server task (graceful: open requests finish).
    package func stop() async {
        let (task, group) = running.withLock { ($0.task, $0.group) }
        await group?.triggerGracefulShutdown()
        await task?.value
    }

    // MARK: Routes

    func makeRouter() -> Router<RemoteRequestContext> {
        let router = Router(context: RemoteRequestContext.self)
        router.add(middleware: OriginMiddleware(loopbackOnly: configuration.isLoopback, logger: logger))
        if let credentials {
            router.add(middleware: TokenMiddleware(credentials: credentials, logger: logger))
        }
        router.get("/live") { _, _ in self.livePage() }
        router.get("/screenshot.png") { request, _ in try await self.screenshot(request) }
        router.get("/state") { _, _ in try await self.state() }
        router.post("/events") { request, _ in try await self.events(request) }
        router.post("/wait") { request, _ in try await self.wait(request) }
        router.post("/display") { request, _ in try await self.display(request) }
        // Another method on a known path is 405 with the method it takes, not 404.
        let others: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .head, .options]
        for (path, allowed) in [("/screenshot.png", HTTPRequest.Method.get), ("/state", .get), ("/live", .get),
                                ("/events", .post), ("/wait", .post), ("/display", .post)] {
            for method in others where method != allowed {
                router.on(RouterPath(path), method: method) { _, _ in
                    var response = Self.json(.methodNotAllowed, error: "\(method) \(path): use \(allowed)")
                    response.headers[.allow] = allowed.rawValue
                    return response
                }
            }
        }
        return router
    }

    func screenshot(_ request: Request) async throws -> Response {
        let name = request.uri.queryParameters.get("source") ?? ScreenshotSource.canvas.rawValue
        guard let source = ScreenshotSource(rawValue: name) else {
            return Self.json(.badRequest, error: "source=\(name): use source=canvas (what the app drew, the default) or source=scanout (read back from the display)")
        }
        // A screenshot holds a copy of the screen and its PNG until the client has read it:
        // only a few are admitted at once, however many clients ask and however slowly they read.
        guard let slot = screenshots.admit() else {
            return Self.json(.tooManyRequests, error: "more than \(screenshots.limit) screenshots in progress; retry later")
        }
        let (shot, refusal) = await ask { c in .screenshot(source, c) }
        guard let shot else { return refusal }
        guard let image = shot.image else {
            return Self.json(.conflict, error: shot.failure ?? "the display could not be read back")
        }
        let png: [UInt8]
        do { png = try PNG.encode(image, alpha: .opaque, fast: true) } catch {
            return Self.json(.internalServerError, error: "PNG encoding failed: \(error)")
        }
        let buffer = ByteBuffer(bytes: png)
        return Response(status: .ok, headers: [.contentType: "image/png", HTTPField.Name("X-Glide-Frame")!: "\(shot.frameNumber)"],
                        body: ResponseBody(contentLength: buffer.readableBytes) { writer in
                            // The slot is held until the bytes are written out (or the client is gone).
                            defer { withExtendedLifetime(slot) {} }
                            try await writer.write(buffer)
                            try await writer.finish(nil)
                        })
    }

    /// The live view's page; with a token, it sets the session cookie its socket is opened with.
    func livePage() -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                   // Nothing from elsewhere: the page is whole as served.
                                   .contentSecurityPolicy: "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'"]
        if let credentials { headers[.setCookie] = credentials.setCookie }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: LivePage.html)))
    }

    /// Screenshots being taken, encoded or written, at most 4.
    let screenshots = AdmissionCounter(limit: 4)

    func state() async throws -> Response {
        let (reply, refusal) = await ask { c in .state(c) }
        guard let reply else { return refusal }
        return Self.json(.ok, body: reply.json)
    }

    /// `{"on": true}` wakes the screen, `{"on": false}` blanks it as idle blanking does.
    func display(_ request: Request) async throws -> Response {
        struct Body: Decodable { var on: Bool }
        var request = request
        let bytes: ByteBuffer
        do { bytes = try await request.collectBody(upTo: 4096) } catch {
            return Self.json(.contentTooLarge, error: "body larger than 4096 bytes")
        }
        let body: Body
        do { body = try JSONDecoder().decode(Body.self, from: Data(bytes.readableBytesView)) } catch {
            return Self.json(.badRequest, error: "expected {\"on\": true} or {\"on\": false}")
        }
        if let duplicate = JSONDuplicateKeys.first(in: bytes.readableBytesView) {
            return Self.json(.badRequest, error: "\"\(excerpt(duplicate.name, limit: 40))\" is given twice")
        }
        let (reply, refusal) = await ask { c in .display(on: body.on, c) }
        guard let reply else { return refusal }
        return Self.json(.ok, body: reply.json)
    }

    /// A batch whose client goes away before its events ran is dropped (its fingers lifted):
    /// nobody waits for it, and it must not hold a place nor the kiosk.
    func events(_ request: Request) async throws -> Response {
        let batch = inbox.newBatch()
        let inbox = inbox
        return try await request.body.consumeWithInboundCloseHandler({ body in
            try await self.events(body, batch: batch)
        }, onInboundClosed: { inbox.drop(batch: batch) })
    }

    private func events(_ requestBody: RequestBody, batch: Int) async throws -> Response {
        let body: ByteBuffer
        do { body = try await requestBody.collect(upTo: configuration.maxBodyBytes) } catch {
            if let e = error as? any HTTPResponseError, e.status == .contentTooLarge {
                return Self.json(.contentTooLarge, error: "body larger than \(configuration.maxBodyBytes) bytes")
            }
            throw error
        }
        // Typed text must arrive as sent: bytes that are not UTF-8 are refused, not replaced.
        guard let text = String(validating: body.readableBytesView, as: UTF8.self) else {
            return Self.json(.badRequest, error: "the body is not UTF-8 text")
        }
        let script: InputScript
        do { script = try InputScript.parse(text) } catch {
            return Self.json(.badRequest, error: "\(error)", extra: "\"line\":\(error.line)")
        }
        // Each request lifts what it puts down, fingers and pointer buttons alike: a press left
        // held would hold the content (and keep the loop drawing) for good.
        var fingers: Set<Int> = [], buttons: Set<Int> = []
        for e in script.entries {
            switch e.action {
            case .screenshot, .state:
                return Self.json(.badRequest, error: "line \(e.line): screenshot and state lines are not injected; use GET /screenshot.png and GET /state",
                                 extra: "\"line\":\(e.line)")
            case let .input(.touch(phase, id, _)):
                if phase == .down { fingers.insert(id) } else if phase == .up || phase == .cancel { fingers.remove(id) }
            case let .input(.pointerButton(code, pressed, _)):
                if pressed { buttons.insert(code) } else { buttons.remove(code) }
            default: break
            }
            if e.t / 1000 > configuration.maxScriptSeconds {
                return Self.json(.badRequest, error: "line \(e.line): t beyond \(Int(configuration.maxScriptSeconds * 1000)) ms",
                                 extra: "\"line\":\(e.line)")
            }
        }
        let last = script.entries.last?.line ?? 0
        if let id = fingers.min() {
            return Self.json(.badRequest, error: "line \(last): finger \(id) is still down at the end; each request must lift its fingers (up or cancel)",
                             extra: "\"line\":\(last)")
        }
        if let code = buttons.min() {
            return Self.json(.badRequest, error: "line \(last): pointer button \(code) is still pressed at the end; each request must release its buttons",
                             extra: "\"line\":\(last)")
        }
        let (reply, refusal) = await ask { c in .events(script, batch: batch, c) }
        guard let reply else { return refusal }
        return Self.json(.ok, body: "{\"events\":\(reply.count),\"arrival\":\(Self.number(reply.arrival)),\"firstApplied\":\(Self.number(reply.firstApplied)),\"lastApplied\":\(Self.number(reply.lastApplied)),\"frameNumber\":\(reply.frameNumber)}")
    }

    func wait(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let until = query["until"].map(String.init) ?? "rest"
        guard until == "rest" else { return Self.json(.badRequest, error: "until=\(until): only until=rest is supported") }
        var timeout = 10.0
        if let text = query["timeout_ms"] {
            guard let ms = Int(text), ms >= 0, Double(ms) / 1000 <= configuration.maxWaitSeconds else {
                return Self.json(.badRequest, error: "timeout_ms must be an integer in 0...\(Int(configuration.maxWaitSeconds * 1000))")
            }
            timeout = Double(ms) / 1000
        }
        let (reply, refusal) = await ask { c in .wait(timeout: timeout, c) }
        guard let reply else { return refusal }
        return Self.json(reply.atRest ? .ok : .requestTimeout,
                         body: "{\"atRest\":\(reply.atRest),\"waitedMs\":\(Self.number(reply.waited * 1000)),\"state\":\(reply.stateJSON)}")
    }

    /// Posts a request to the frame loop and awaits its answer; on refusal, the reply to send.
    func ask<T: Sendable>(_ make: (CheckedContinuation<T?, Never>) -> RemoteRequest) async -> (T?, Response) {
        var refused = RemoteInbox.PostResult.accepted
        var isWait = false
        let answer: T? = await withCheckedContinuation { c in
            let request = make(c)
            isWait = request.isWait
            refused = inbox.post(request)
            if refused != .accepted { c.resume(returning: nil) }
        }
        return (answer, Self.refusal(refused, isWait: isWait))
    }

    /// The reply to a request the inbox did not take. (Out of `ask`: swiftc 6.3.1 crashed
    /// splitting that coroutine in release builds with the switch inside it.)
    static func refusal(_ result: RemoteInbox.PostResult, isWait: Bool) -> Response {
        switch result {
        case .busy:
            let limit = isWait ? "\(RemoteInbox.maxWaits) waits" : "\(RemoteInbox.maxOpenRequests) requests"
            return json(.tooManyRequests, error: "more than \(limit) open; retry later")
        case .busyEvents:
            return json(.tooManyRequests, error: "more than \(RemoteInbox.maxScheduledBatches) event batches or \(RemoteInbox.maxScheduledEvents) events scheduled; retry when they have run")
        case .accepted, .stopped: return stopped
        }
    }

    // MARK: Replies

    static var stopped: Response { json(.serviceUnavailable, error: "the frame loop has stopped") }

    static func json(_ status: HTTPResponse.Status, body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }

    static func json(_ status: HTTPResponse.Status, error: String, extra: String? = nil,
                     extraHeaders: HTTPFields = [:]) -> Response {
        var r = json(status, body: "{\"error\":\(quoted(error))\(extra.map { "," + $0 } ?? "")}")
        r.headers.append(contentsOf: extraHeaders)
        return r
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += "\\u00" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        let r = (v * 1_000_000).rounded() / 1_000_000
        return "\(r)"
    }
}
