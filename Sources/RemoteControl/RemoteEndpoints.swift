import FoundationEssentials
import FleetMetrics
import Geometry
import HTTPTypes
import Hummingbird
import ImageCodecs
import NIOCore
import Runtime

/// The routes and their handlers. Each handler checks its request, posts it into the inbox and
/// turns the loop's answer into a reply.
extension RemoteServer {
    func makeRouter() -> Router<RemoteRequestContext> {
        let router = Router(context: RemoteRequestContext.self)
        // Outermost: refusals are requests too.
        if let metrics { router.add(middleware: MetricsMiddleware(metrics: metrics)) }
        router.add(middleware: OriginMiddleware(loopbackOnly: configuration.isLoopback, scheme: configuration.scheme, refusals: refusals))
        router.add(
            middleware: AccessMiddleware(
                keyring: keyring, throttle: throttle, refusals: refusals, audit: audit, clock: configuration.clock,
                certificates: tls?.requiresClientCertificate == true))
        router.get("/live") { _, context in self.livePage(for: context.caller, address: context.address) }
        router.post("/live/logout") { request, _ in self.logout(request) }
        // Reached by a socket refused before its upgrade (401 from the token's middleware) or
        // by a plain request.
        router.get("/live/socket") { _, _ in Self.json(.badRequest, error: "/live/socket is a WebSocket: send Upgrade: websocket") }
        router.get("/screenshot.png") { request, _ in try await self.screenshot(request) }
        router.get("/state") { _, _ in try await self.state() }
        router.get("/audit") { request, _ in try await self.audit(request) }
        router.get("/metrics") { _, _ in self.metricsExposition() }
        router.post("/events") { request, context in try await self.events(request, channel: context.channel) }
        router.post("/wait") { request, _ in try await self.wait(request) }
        router.post("/display") { request, _ in try await self.display(request) }
        router.post("/clock") { request, _ in try await self.clock(request) }
        // Another method on a known path is 405 with the method it takes, not 404.
        let others: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .head, .options]
        for route in RemoteRoutes.all where route.path != "/live/socket" {
            let (path, allowed) = (route.path, route.method)
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

    /// Prometheus' text format, read on the server's thread: the loop records into the registry
    /// as it goes, so a scrape never waits for a frame.
    func metricsExposition() -> Response {
        guard let metrics else { return Self.json(.notImplemented, error: "this app keeps no metrics") }
        if metrics.shouldPingLoop() { _ = inbox.post(.metricsPing) }
        return Response(
            status: .ok, headers: [.contentType: GlideMetrics.contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
    }

    func screenshot(_ request: Request) async throws -> Response {
        let name = request.uri.queryParameters.get("source") ?? ScreenshotSource.canvas.rawValue
        guard let source = ScreenshotSource(rawValue: name) else {
            return Self.json(
                .badRequest,
                error: "source=\(name): use source=canvas (what the app drew, the default) or source=scanout (read back from the display)")
        }
        let mask = (request.uri.queryParameters.get("mask") ?? "").split(separator: ",").map(String.init)
        guard mask.count <= 64, mask.allSatisfy({ $0.utf8.count <= 256 }) else {
            return Self.json(.badRequest, error: "mask: at most 64 view ids, each at most 256 bytes")
        }
        guard mask.isEmpty || source == .canvas else {
            return Self.json(.badRequest, error: "mask works on source=canvas (the views' frames are the canvas's)")
        }
        // A screenshot holds a copy of the screen and its PNG until the client has read it:
        // only a few are admitted at once, however many clients ask and however slowly they read.
        guard let slot = screenshots.admit() else {
            return Self.json(.tooManyRequests, error: "more than \(screenshots.limit) screenshots in progress; retry later")
        }
        let (shot, refusal) = await ask { c in .screenshot(source, mask, c) }
        guard let shot else { return refusal }
        guard shot.missing.isEmpty else {
            return Self.json(
                .notFound, error: "mask: no view on screen has the id \(shot.missing.map { "'\($0)'" }.joined(separator: ", "))")
        }
        guard let image = shot.image else {
            return Self.json(.conflict, error: shot.failure ?? "the display could not be read back")
        }
        let png: [UInt8]
        do { png = try PNG.encode(image, alpha: .opaque, fast: true) } catch {
            return Self.json(.internalServerError, error: "PNG encoding failed: \(error)")
        }
        let buffer = ByteBuffer(bytes: png)
        return Response(
            status: .ok, headers: [.contentType: "image/png", HTTPField.Name("X-Glide-Frame")!: "\(shot.frameNumber)"],
            body: ResponseBody(contentLength: buffer.readableBytes) { writer in
                // The slot is held until the bytes are written out (or the client is gone).
                defer { withExtendedLifetime(slot) {} }
                try await writer.write(buffer)
                try await writer.finish(nil)
            })
    }

    /// The live view's page; with a token, it opens a session and sets its cookie, which the
    /// page's socket is opened with.
    func livePage(for caller: Caller?, address: String) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            // Nothing from elsewhere: the page is whole as served.
            .contentSecurityPolicy:
                "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'",
        ]
        if let caller, let cookie = keyring?.openSession(for: caller, address: address, secure: tls != nil) {
            headers[.setCookie] = cookie
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: LivePage.html)))
    }

    /// `POST /live/logout`: ends the session the request's cookie names and clears the cookie.
    func logout(_ request: Request) -> Response {
        let ended = keyring?.closeSessions(request.headers) ?? 0
        var response = Self.json(.ok, body: "{\"sessions_ended\":\(ended)}")
        response.headers[.setCookie] = Keyring.cookieHeader(value: "", maxAge: 0, secure: tls != nil)
        return response
    }

    /// `{"findings": [...]}`: the rules (`rules=contrast,label`; all by default) checked on the
    /// screen as presented.
    func audit(_ request: Request) async throws -> Response {
        guard let known = auditor?.rules else { return Self.json(.notImplemented, error: "this runtime has no accessibility audit") }
        let rules = request.uri.queryParameters.get("rules").map { $0.split(separator: ",").map(String.init) }
        if let unknown = rules?.first(where: { !known.contains($0) }) {
            return Self.json(.badRequest, error: "rules=\(excerpt(unknown, limit: 40)): unknown rule (\(known.joined(separator: ", ")))")
        }
        guard let slot = audits.admit() else {
            return Self.json(.tooManyRequests, error: "an audit is in progress; retry when it is done")
        }
        let (reply, refusal) = await ask { c in .audit(rules: rules, c) }
        withExtendedLifetime(slot) {}
        guard let reply else { return refusal }
        return Self.json(.ok, body: reply.json)
    }

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
        return Self.json(.ok, reply)
    }

    /// A batch whose client goes away before its events ran is dropped (its fingers lifted):
    /// nobody waits for it, and it must not hold a place nor the kiosk. The connection is
    /// watched, not its request stream: Hummingbird's inbound close handler ends that stream
    /// when the reply is done, which closed a kept-alive connection under its client.
    func events(_ request: Request, channel: any Channel) async throws -> Response {
        let batch = inbox.newBatch()
        let (inbox, connections) = (inbox, connections)
        return try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    if !channel.isActive || connections.isInputClosed(channel) {
                        inbox.drop(batch: batch)
                        return nil
                    }
                }
                return nil
            }
            let response = try await self.events(request.body, batch: batch)
            group.cancelAll()
            return response
        }
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
            let surrogate = JSONEscapes.loneSurrogate(inLine: error.line, of: text)
            return Self.json(.badRequest, error: surrogate.map { "line \(error.line): \($0)" } ?? "\(error)", line: error.line)
        }
        if let fault = Self.fault(in: script, maxSeconds: configuration.maxScriptSeconds) {
            return Self.json(.badRequest, error: "line \(fault.line): \(fault.message)", line: fault.line)
        }
        let (reply, refusal) = await ask { c in .events(script, batch: batch, c) }
        guard let reply else { return refusal }
        return Self.json(.ok, reply)
    }

    /// Why a well-formed script is not injected, and the line to blame; nil if it may be.
    private static func fault(in script: InputScript, maxSeconds: Double) -> (line: Int, message: String)? {
        // Each request lifts what it puts down, fingers and pointer buttons alike: a press left
        // held would hold the content (and keep the loop drawing) for good.
        var fingers: Set<Int> = [], buttons: Set<Int> = []
        for e in script.entries {
            switch e.action {
            case .screenshot, .state:
                return (e.line, "screenshot and state lines are not injected; use GET /screenshot.png and GET /state")
            case let .input(.touch(phase, id, _)):
                if phase == .down { fingers.insert(id) } else if phase == .up || phase == .cancel { fingers.remove(id) }
            case let .input(.pointerButton(code, pressed, _)):
                if pressed { buttons.insert(code) } else { buttons.remove(code) }
            default: break
            }
            if e.t / 1000 > maxSeconds {
                return (e.line, "t beyond \(Int(maxSeconds * 1000)) ms")
            }
        }
        let last = script.entries.last?.line ?? 0
        if let id = fingers.min() {
            return (last, "finger \(id) is still down at the end; each request must lift its fingers (up or cancel)")
        }
        if let code = buttons.min() {
            return (last, "pointer button \(code) is still pressed at the end; each request must release its buttons")
        }
        return nil
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
        let (reply, refusal) = await ask { c in .wait(timeout: timeout, untilRest: true, c) }
        guard let reply else { return refusal }
        return Self.waitReply(reply)
    }

    /// `POST /clock?advance_ms=N`: moves a virtual clock N ms on, drawing the frames on the way,
    /// and answers with the state then (as `/wait` does).
    func clock(_ request: Request) async throws -> Response {
        guard configuration.clock == .virtual else {
            return Self.json(.conflict, error: "the app runs on the wall clock: start it with --remote-clock virtual to move time")
        }
        let text = request.uri.queryParameters.get("advance_ms") ?? ""
        guard let ms = Int(text), ms >= 0, Double(ms) / 1000 <= configuration.maxWaitSeconds else {
            return Self.json(
                .badRequest, error: "advance_ms=\(excerpt(text, limit: 20)): an integer in 0...\(Int(configuration.maxWaitSeconds * 1000))")
        }
        let (reply, refusal) = await ask { c in .wait(timeout: Double(ms) / 1000, untilRest: false, c) }
        guard let reply else { return refusal }
        return Self.json(.ok, body: Self.waitBody(reply))
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
            return json(
                .tooManyRequests,
                error:
                    "more than \(RemoteInbox.maxScheduledBatches) event batches or \(RemoteInbox.maxScheduledEvents) events scheduled; retry when they have run"
            )
        case .accepted, .stopped: return stopped
        }
    }
}
