import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
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
    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(CloseUnlessKeptAlive(headDeadline: idleTimeout), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }

    /// Frames of at most 64 KiB either way: a viewer's input message is far smaller, and a
    /// larger frame (a 100 MB one) is refused by the decoder before it is read; updates are
    /// sent in several frames.
    static func builder(idleTimeout: TimeAmount, shouldUpgrade: @escaping Upgrade) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            RemoteHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(
                        http1: .init(idleTimeout: idleTimeout),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(10)))),
                    shouldUpgrade: shouldUpgrade), idleTimeout: idleTimeout)
        }
    }
}

/// Marks a request that does not keep its connection alive (HTTP/1.0 without `keep-alive`)
/// with `Connection: close`; and closes a connection whose first request head has not come
/// within `headDeadline` (a client that sends half a head and stops): until a head is whole,
/// Hummingbird's own idle timeout is not yet in the pipeline, where a WebSocket upgrade is
/// possible.
final class CloseUnlessKeptAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    let headDeadline: TimeAmount
    private var pendingClose: Scheduled<Void>?

    init(headDeadline: TimeAmount) { self.headDeadline = headDeadline }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        pendingClose = context.eventLoop.scheduleTask(in: headDeadline) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { pendingClose?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            pendingClose?.cancel()
            pendingClose = nil
        }
        if case let .head(head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") {
            // A WebSocket's frames are not HTTP parts: step aside before the upgrade.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        if case var .head(head) = unwrapInboundIn(data), !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}
