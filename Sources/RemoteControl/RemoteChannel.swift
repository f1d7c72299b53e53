import Geometry
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with WebSocket upgrades (the live view's socket), answering
/// HTTP/1.0 as its clients expect: a request without keep-alive gets its reply and then the
/// connection closes. (Hummingbird closes only on `Connection: close`, and the request's
/// version is gone once NIO's parts become HTTPTypes, so that header is added before they do.)
struct RemoteHTTPChannel: HTTPChannelHandler {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    typealias Upgrade =
        @Sendable (HTTPRequest, any Channel, Logger) throws
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    let inner: HTTP1WebSocketUpgradeChannel
    let idleTimeout: TimeAmount
    let connections: ConnectionTable
    let keyring: Keyring?
    let throttle: AttemptThrottle
    let refusals: RefusalLog
    /// Each connection's peer, as it was when accepted: a connection that failed (a TLS
    /// handshake refused) has no address left by the time its failure is handled.
    let peers = PeerNames()
    var responder: Responder { inner.responder }

    /// A connection over the bound of `connections` is closed before a byte of it is read. (It
    /// is set up all the same: a failed setup would end the server's accept loop.)
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = connections.admit(channel)
        peers.remember(channel)
        let peers = peers
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            guard admitted else {
                channel.closeQuietly()
                return value
            }
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(
                CloseUnlessKeptAlive(headDeadline: idleTimeout, connections: connections, keyring: keyring, throttle: throttle),
                position: .after(decoder))
            return value
        }.always { result in
            if case .failure = result { peers.forget(channel) }
        }
    }

    /// A connection's own failures (a failed TLS handshake) are logged among the refusals, with
    /// the peer and a few a second: Hummingbird logs each as an error of its own, without either.
    func handle(value: Value, logger: Logger) async {
        let peer = peers.forget(value.channel) ?? RemoteServer.describe(value.channel.remoteAddress), refusals = refusals
        let connectionLogger = Logger(label: logger.label) { _ in ConnectionLogHandler(logger: logger, peer: peer, refusals: refusals) }
        await inner.handle(value: value, logger: connectionLogger)
    }

    /// Frames of at most 64 KiB either way: a viewer's input message is far smaller, and a
    /// larger frame (a 100 MB one) is refused by the decoder before it is read; updates are
    /// sent in several frames.
    static func builder(
        idleTimeout: TimeAmount, connections: ConnectionTable, keyring: Keyring?, throttle: AttemptThrottle, refusals: RefusalLog,
        shouldUpgrade: @escaping Upgrade
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            RemoteHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(
                        http1: .init(idleTimeout: idleTimeout),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(10)))),
                    shouldUpgrade: shouldUpgrade), idleTimeout: idleTimeout, connections: connections,
                keyring: keyring, throttle: throttle, refusals: refusals)
        }
    }
}

/// Marks a request that does not keep its connection alive (HTTP/1.0 without `keep-alive`)
/// with `Connection: close`; closes a connection whose first request head has not come within
/// `headDeadline` (a client that sends half a head and stops): until a head is whole,
/// Hummingbird's own idle timeout is not yet in the pipeline, where a WebSocket upgrade is
/// possible. Tells `connections` when a request is in progress and when the client has shut its
/// side, and answers a head too large for the decoder with 431 at once (NIO's decoder fails, and
/// nothing after it would answer: the client would wait for the idle timeout). An upgrade
/// without the token loses its `Upgrade` header here, so that it is refused before the upgrade,
/// with 401 from the router, instead of becoming a socket that is closed at once.
final class CloseUnlessKeptAlive: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart
    let headDeadline: TimeAmount
    let connections: ConnectionTable
    let keyring: Keyring?
    let throttle: AttemptThrottle
    private var pendingClose: Scheduled<Void>?

    init(headDeadline: TimeAmount, connections: ConnectionTable, keyring: Keyring?, throttle: AttemptThrottle) {
        self.headDeadline = headDeadline
        self.connections = connections
        self.keyring = keyring
        self.throttle = throttle
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        pendingClose = context.eventLoop.scheduleTask(in: headDeadline) { channel.closeQuietly() }
    }

    func handlerRemoved(context: ChannelHandlerContext) { pendingClose?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case var .head(head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        pendingClose?.cancel()
        pendingClose = nil
        // Busy until its reply's end is written; a WebSocket for as long as it is open.
        connections.setBusy(context.channel, true)
        if head.headers.contains(name: "upgrade"), let keyring, RemoteTLS.peerSubject(on: context.channel) == nil,
            !Self.mayUpgrade(head.headers, address: RemoteServer.address(of: context.channel), keyring: keyring, throttle: throttle)
        {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        if head.headers.contains(name: "upgrade") {
            // A WebSocket's frames are not HTTP parts: step aside before the upgrade.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        if !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }

    /// A socket opens only for the right token from an address that need not wait. While an
    /// address waits, every attempt from it, with the right token too, goes to the router and
    /// its 429: the answer tells a guesser nothing about the token it tried.
    static func mayUpgrade(_ headers: HTTPHeaders, address: String, keyring: Keyring, throttle: AttemptThrottle) -> Bool {
        throttle.wait(for: address) == 0 && keyring.identify(credentialFields(headers), session: true, address: address) != nil
    }

    /// What `Keyring.identify` reads, as HTTP types.
    static func credentialFields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let field = HTTPField.Name(name), field == .authorization || field == .cookie else { continue }
            fields.append(HTTPField(name: field, value: value))
        }
        return fields
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connections.setBusy(context.channel, false) }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { connections.setInputClosed(context.channel) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError, error == .headerOverflow else {
            context.fireErrorCaught(error)
            return
        }
        let body = ByteBuffer(string: "{\"error\":\"the request's head is larger than NIO's limit of 80 KiB\"}\n")
        let headers: HTTPHeaders = [
            "Content-Type": "application/json", "Content-Length": "\(body.readableBytes)", "Connection": "close",
        ]
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .requestHeaderFieldsTooLarge, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.closeQuietly() }
    }
}

/// The peers of the connections accepted and not yet handled.
final class PeerNames: Sendable {
    private let names = NIOLockedValueBox<[ObjectIdentifier: String]>([:])

    func remember(_ channel: any Channel) {
        let name = RemoteServer.describe(channel.remoteAddress)
        names.withLockedValue { $0[ObjectIdentifier(channel)] = name }
    }

    @discardableResult
    func forget(_ channel: any Channel) -> String? { names.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) } }
}

/// A connection's logger: errors go to the refusal log with the peer, throttled; everything else
/// to the server's logger as it was.
struct ConnectionLogHandler: LogHandler {
    var logger: Logger
    let peer: String
    let refusals: RefusalLog

    var metadata: Logger.Metadata {
        get { logger.handler.metadata }
        set { logger.handler.metadata = newValue }
    }
    var logLevel: Logger.Level {
        get { logger.logLevel }
        set { logger.logLevel = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { logger[metadataKey: key] }
        set { logger[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.level >= .error else {
            logger.handler.log(event: event)
            return
        }
        let reason = event.metadata?["error.type"].map { ": \(excerpt("\($0)", limit: 200))" } ?? ""
        refusals.warning("remote: connection from \(peer) failed: \(excerpt(event.message.description, limit: 80))\(reason)")
    }
}
