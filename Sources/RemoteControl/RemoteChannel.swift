import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel, answering HTTP/1.0 as its clients expect: a request without
/// keep-alive gets its reply and then the connection closes. (Hummingbird closes only on
/// `Connection: close`, and the request's version is gone once NIO's parts become HTTPTypes,
/// so that header is added before they do.)
struct RemoteHTTPChannel: HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(CloseUnlessKeptAlive(), position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }

    static func builder(idleTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            RemoteHTTPChannel(inner: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)))
        }
    }
}

/// Marks a request that does not keep its connection alive (HTTP/1.0 without `keep-alive`)
/// with `Connection: close`.
final class CloseUnlessKeptAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case var .head(head) = unwrapInboundIn(data), !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }
}
