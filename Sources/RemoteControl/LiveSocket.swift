import FoundationEssentials
import Geometry
import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Runtime
import NIOConcurrencyHelpers

/// What a live viewer's socket may do, decided from its upgrade request before any byte of the
/// screen is sent.
struct LiveAdmission: Sendable {
    /// Why the socket is closed at once (wrong token, another site), or nil.
    var refusal: String?
    var readOnly: Bool
    var encoding: LiveScreen.Encoding
    /// Updates a second at most (`?fps=`, 1 to 60, default 30): each costs an encoding.
    var updatesPerSecond: Int
    var peer: String
    /// The client's address without its port (what per-client limits count by).
    var address: String
    /// Whom the token, cookie or client certificate proved (`Caller.local` without tokens).
    var caller: Caller?
}

/// Live viewers' sockets (`GET /live/socket`, the live view's): the screen's changes go out
/// as binary messages (see `LiveScreen.message`), input comes back as text messages, each one
/// line of the script format (`{"t":0,"touch":"down","id":0,"x":10,"y":20}`), and enters the
/// frame loop through the inbox like every other injected input.
extension RemoteServer {
    /// Input messages are at most this long; a larger one drops the viewer.
    static let maxLiveMessageBytes = 4096
    /// A viewer may send this many input events a second (with a burst of `liveInputBurst`): a
    /// touch browser sends about 120 moves a second for each finger. The burst is below the
    /// inbox's limit of open requests, so one viewer cannot fill it for the others.
    static let liveInputRate = 2000.0
    static let liveInputBurst = 100.0
    /// A viewer whose socket takes no bytes for this long (it never reads) is dropped.
    static let liveStallSeconds = 10.0

    /// Whether an upgrade request may become a live socket. The upgrade does not pass the
    /// router's middleware, so the same rules are applied here: a loopback `Host` on a loopback
    /// server, no other site's `Origin`, and the token (or the page's session cookie).
    /// `certified`: the caller its client certificate proves (mutual TLS), who needs no token.
    func admitLive(_ request: HTTPRequest, peer: String, address: String, certified: Caller? = nil) -> ShouldUpgradeResult<LiveAdmission> {
        guard let path = request.path, path == "/live/socket" || path.hasPrefix("/live/socket?") else { return .dontUpgrade }
        let query = URI(path).queryParameters
        var refusal = OriginMiddleware.refusal(request, loopbackOnly: configuration.isLoopback, scheme: configuration.scheme)
        // Kept should a request get here: `CloseUnlessKeptAlive` takes the upgrade away from one
        // without the token, so that the router answers it with 401 before any upgrade.
        var caller: Caller?
        if refusal == nil {
            switch AccessMiddleware.authenticate(
                request.headerFields, session: true, address: address, keyring: keyring, throttle: throttle, certified: certified)
            {
            case let .proved(proved): caller = proved
            case .slowed: refusal = "too many wrong tokens from this address"
            case .refused: refusal = "missing or wrong token"
            }
        }
        let encodingName = query["encoding"].map(String.init) ?? LiveScreen.Encoding.png.rawValue
        let encoding = LiveScreen.Encoding(rawValue: encodingName)
        if refusal == nil, encoding == nil { refusal = "encoding=\(excerpt(encodingName, limit: 20)): use png or deflate" }
        let fpsText = query["fps"].map(String.init) ?? "30"
        let fps = Int(fpsText).flatMap { (1...60).contains($0) ? $0 : nil }
        if refusal == nil, fps == nil { refusal = "fps=\(excerpt(fpsText, limit: 20)): use 1 to 60" }
        let readOnlyText = query["readonly"].map(String.init)
        let readOnly = Self.flag(readOnlyText)
        if refusal == nil, readOnly == nil {
            refusal = "readonly=\(excerpt(readOnlyText ?? "", limit: 20)): use 1, true or yes (0, false or no for control)"
        }
        return .upgrade(
            [:],
            LiveAdmission(
                refusal: refusal, readOnly: configuration.liveReadOnly || readOnly != false || (caller?.scope ?? .admin) < .control,
                encoding: encoding ?? .png, updatesPerSecond: fps ?? 30, peer: peer, address: address, caller: caller))
    }

    /// A query's yes or no: absent, `0`, `false` or `no` is false; `1`, `true` or `yes` true;
    /// anything else nil (refused: a misspelt `readonly` must not give control).
    static func flag(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case nil, "0", "false", "no": return false
        case "1", "true", "yes": return true
        default: return nil
        }
    }

    /// Serves one viewer until it goes, offends or the server stops.
    func serveLive(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, admission: LiveAdmission,
        channel: any Channel
    ) async {
        if let refusal = admission.refusal {
            refusals.warning("remote: live viewer \(admission.peer) refused: \(refusal)")
            try? await outbound.close(.policyViolation, reason: Self.closeReason(refusal))
            return
        }
        guard let (id, wakes) = live.join(from: admission.address) else {
            refusals.warning(
                "remote: live viewer \(admission.peer) refused: \(LiveScreen.maxViewers) viewers, or \(LiveScreen.maxViewersPerClient) from its address, already"
            )
            try? await outbound.close(
                .unknown(1013),
                reason: "\(LiveScreen.maxViewers) viewers, or \(LiveScreen.maxViewersPerClient) from this address, already; try again later"
            )
            return
        }
        logger.info("remote: live viewer \(id) from \(admission.peer)\(admission.readOnly ? " (view only)" : "")")
        if !admission.readOnly { audit.record("live control session \(id) opened", by: admission.caller, from: admission.peer) }
        defer {
            live.leave(id)
            _ = inbox.post(.liveLeft(viewer: id))
            if !admission.readOnly { audit.record("live control session \(id) closed", by: admission.caller, from: admission.peer) }
        }
        _ = inbox.post(.liveJoined(viewer: id))
        let session = LiveSession()
        // Whichever ends first (sending, reading, the stall watch) ends the others.
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await self.sendLive(viewer: id, wakes: wakes, admission: admission, to: outbound, session: session)
                } catch {
                    session.ending.withLockedValue { $0 = $0 ?? "sending failed: \(error)" }
                }
            }
            group.addTask {
                let reason = await self.receiveLive(inbound, viewer: id, readOnly: admission.readOnly)
                session.ending.withLockedValue { $0 = $0 ?? reason.map { "dropped: \($0)" } ?? "closed by the viewer" }
                if let reason { try? await outbound.close(.policyViolation, reason: Self.closeReason(reason)) }
            }
            group.addTask { await Self.watchStall(of: session, closing: channel) }
            if let keyring, let caller = admission.caller {
                group.addTask {
                    // A replaced or removed token ends the sessions it opened.
                    while keyring.isCurrent(caller), (try? await Task.sleep(for: .milliseconds(250))) != nil {}
                    guard !Task.isCancelled else { return }
                    session.ending.withLockedValue { $0 = $0 ?? "dropped: its token '\(caller.name)' was replaced" }
                    try? await outbound.close(.policyViolation, reason: "the token was replaced")
                }
            }
            await group.next()
            group.cancelAll()
        }
        logger.info("remote: live viewer \(id) \(session.ending.withLockedValue { $0 } ?? "left")")
    }

    /// Says hello, then sends the screen's changes as they come, at most `updatesPerSecond`
    /// times a second: what changes meanwhile merges into the next update.
    private func sendLive(
        viewer id: Int, wakes: AsyncStream<Void>, admission: LiveAdmission,
        to outbound: WebSocketOutboundWriter, session: LiveSession
    ) async throws {
        let hello = LiveHello(readOnly: admission.readOnly, encoding: admission.encoding.rawValue)
        try await outbound.write(.text(Self.encoded(hello)))
        let interval = Duration.seconds(1) / admission.updatesPerSecond
        var last = ContinuousClock.now - interval
        for await _ in wakes {
            try await Task.sleep(until: last + interval)
            last = .now
            guard let update = live.take(id) else { continue }
            for (i, rect) in update.rects.enumerated() {
                guard
                    let message = try await live.message(
                        rect, of: update, last: i == update.rects.count - 1,
                        encoding: admission.encoding)
                else { continue }
                session.stall.withLockedValue { $0 = .now }
                try await outbound.writeBinaryMessage(ByteBuffer(bytes: message))
                session.stall.withLockedValue { $0 = nil }
            }
        }
    }

    /// A viewer that never reads holds one message; past `liveStallSeconds` it is dropped.
    private static func watchStall(of session: LiveSession, closing channel: any Channel) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            if let since = session.stall.withLockedValue({ $0 }), ContinuousClock.now - since > .seconds(liveStallSeconds) {
                session.ending.withLockedValue { $0 = $0 ?? "dropped: it read nothing for \(Int(liveStallSeconds)) s" }
                channel.close(promise: nil)
                return
            }
        }
    }

    /// A close frame holds at most 123 bytes of reason: `text` cut there, on a character.
    static func closeReason(_ text: String) -> String {
        var out = ""
        for c in text {
            guard out.utf8.count + c.utf8.count <= 123 else { break }
            out.append(c)
        }
        return out
    }

    /// Reads a viewer's input until it closes (nil) or offends (the reason it is dropped for).
    private func receiveLive(_ inbound: WebSocketInboundStream, viewer: Int, readOnly: Bool) async -> String? {
        var reader = InputScript.LineReader()
        var budget = TokenBucket(rate: Self.liveInputRate, burst: Self.liveInputBurst)
        var assembly = LiveMessageAssembly()
        var number = 0
        do {
            for try await frame in inbound {
                let text: String
                switch assembly.add(frame) {
                case .incomplete: continue
                case let .offence(reason): return reason
                case let .text(whole): text = whole
                }
                number += 1
                if readOnly { continue }
                guard budget.take(at: ContinuousClock.now) else {
                    return "more than \(Int(Self.liveInputRate)) input events a second"
                }
                let entry: InputScript.Entry?
                do { entry = try reader.read(Substring(text), number: number) } catch {
                    return JSONEscapes.loneSurrogate(in: Substring(text)).map { "input message \(number): \($0)" }
                        ?? "input message \(error)"
                }
                guard let entry else { continue }
                switch entry.action {
                case .screenshot, .state: return "input message \(number): screenshot and state lines are not input"
                case .input, .key: break
                }
                switch inbox.post(.liveInput(viewer: viewer, entry.action)) {
                case .accepted: break
                case .stopped: return nil
                case .busy, .busyEvents: return "the kiosk is busy with other requests"
                }
            }
        } catch {
            return "unreadable input (\(error)); messages are at most \(Self.maxLiveMessageBytes) bytes"
        }
        return nil
    }
}

/// A viewer's frames gathered into whole text messages, each at most
/// `RemoteServer.maxLiveMessageBytes` in at most `maxFrames` frames. The frame count is bounded
/// as well as the bytes: WebSocket's own message reader kept every frame of a message, and a
/// message of millions of empty continuation frames held gigabytes without a byte of text.
struct LiveMessageAssembly {
    static let maxFrames = 64
    private var bytes: [UInt8] = []
    private var frames = 0

    enum Outcome {
        case incomplete
        case text(String)
        /// Why the viewer is dropped.
        case offence(String)
    }

    mutating func add(_ frame: WebSocketDataFrame) -> Outcome {
        switch frame.opcode {
        case .binary: return .offence("input messages are text (script lines), not binary")
        case .text: guard frames == 0 else { return .offence("a message began before the last one ended") }
        default: guard frames > 0 else { return .offence("a continuation frame without a message") }
        }
        frames += 1
        guard frames <= Self.maxFrames else { return .offence("input messages come in at most \(Self.maxFrames) frames") }
        guard bytes.count + frame.data.readableBytes <= RemoteServer.maxLiveMessageBytes else {
            return .offence("input messages are at most \(RemoteServer.maxLiveMessageBytes) bytes")
        }
        bytes.append(contentsOf: frame.data.readableBytesView)
        guard frame.fin else { return .incomplete }
        defer { (bytes, frames) = ([], 0) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .offence("input messages are UTF-8 text") }
        return .text(text)
    }
}

/// The socket's first message: `{"encoding":…,"readOnly":…,"type":"hello"}`, what the page
/// needs to know before the first update.
struct LiveHello: Encodable {
    var type = "hello"
    var readOnly: Bool
    var encoding: String
}

/// What a viewer's tasks share: since when a write has waited, and why the socket ended.
final class LiveSession: Sendable {
    let stall = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
    let ending = NIOLockedValueBox<String?>(nil)
}

/// At most `rate` events a second on average, `burst` at once.
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    init(rate: Double, burst: Double) { self.rate = rate; self.burst = burst; tokens = burst }

    mutating func take(at now: ContinuousClock.Instant) -> Bool {
        if let last {
            let d = now - last
            let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
            tokens = min(burst, tokens + seconds * rate)
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
