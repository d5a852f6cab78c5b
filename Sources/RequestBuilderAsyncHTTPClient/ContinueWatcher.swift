import NIOCore
import NIOHTTP1
import NIOHTTP2

/// Opens or shuts the ``ContinueGate`` of the request on its connection: it
/// takes the gate's marker out of the request head, then watches the
/// response heads (`100 Continue` and final ones, which AsyncHTTPClient
/// passes over or answers only after the head) and the connection's end.
///
/// On an HTTP/2 stream there is no waiting, as curl never waits there: the
/// head goes without `Expect` and the gate opens at once.
final class ContinueWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private let waits: Bool
    private var gate: ContinueGate?

    /// - Parameter waits: Whether the connection can wait for `100 Continue`
    ///   (HTTP/1.1), or sends the body at once without `Expect` (HTTP/2).
    init(waits: Bool) {
        self.waits = waits
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), let marker = head.headers.first(name: ContinueGate.markerName) else {
            context.write(data, promise: promise)
            return
        }
        head.headers.remove(name: ContinueGate.markerName)
        gate?.abandon()
        gate = ContinueGate.claim(marker)
        if !waits {
            head.headers.remove(name: "Expect")
            gate?.open()
            gate = nil
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), let gate {
            switch head.status.code {
            case 100: gate.open()
            case 101..<200: break
            case 200..<300: gate.open()
            default: gate.withhold()
            }
        } else if case .end = unwrapInboundIn(data), let gate {
            // The exchange is over once AsyncHTTPClient has the end: a body
            // still held back never goes, and its wait ends.
            self.gate = nil
            context.fireChannelRead(data)
            gate.abandon()
            return
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gate?.abandon()
        gate = nil
        context.fireChannelInactive()
    }

    /// Puts a watcher after the response decoder of a new HTTP/1.1
    /// connection (so it sees parsed heads both ways); meant for
    /// AsyncHTTPClient's `http1_1ConnectionDebugInitializer`.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            try operations.addHandler(ContinueWatcher(waits: true), position: .after(decoder))
        }
    }

    /// Puts a watcher that sends bodies at once after the HTTP/2-to-HTTP/1
    /// codec of a new stream; meant for `http2StreamChannelDebugInitializer`.
    @Sendable static func installOnStream(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            let codec = try operations.handler(type: HTTP2FramePayloadToHTTP1ClientCodec.self)
            try operations.addHandler(ContinueWatcher(waits: false), position: .after(codec))
        }
    }
}
