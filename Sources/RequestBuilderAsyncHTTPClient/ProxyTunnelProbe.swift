import Foundation
import NIOCore
import NIOPosix
import RequestBuilder

/// What a proxy does with a request for a tunnel, learnt by asking it
/// again after a tunnelled request failed without an answer: AsyncHTTPClient
/// reports a proxy that closes on `CONNECT` as it reports a target that
/// closes, and the user needs to know which one to look at. The probe sends
/// `CONNECT` alone and no byte through the tunnel.
enum ProxyTunnelProbe {
    enum Finding: Equatable {
        /// The proxy closed the connection without a status line.
        case closed
        /// No status line within the limit.
        case noAnswer
        /// The proxy answered with this status line: the tunnel was its
        /// to open, and the failure is elsewhere.
        case answered
    }

    /// Asks `proxy` for a tunnel to `target` (`host:port`); `nil` when the
    /// proxy cannot be reached at all (that failure is reported as such).
    /// The connection runs on `group`.
    static func check(_ proxy: ProxyServer, target: String, within limit: Duration, on group: any EventLoopGroup) async -> Finding? {
        var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let username = proxy.username {
            let credentials = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
            head += "Proxy-Authorization: Basic \(credentials)\r\n"
        }
        head += "\r\n"
        let found = group.next().makePromise(of: Finding.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(saturating: limit))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(StatusLineWatcher(found: found))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: proxy.host, port: proxy.port).get()
        } catch {
            found.succeed(.noAnswer)
            return nil
        }
        channel.writeAndFlush(ByteBuffer(string: head), promise: nil)
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(saturating: limit)) { found.succeed(.noAnswer) }
        let finding = try? await found.futureResult.get()
        timer.cancel()
        channel.close(promise: nil)
        return finding
    }

    /// Succeeds `found` with `.answered` at the first byte, `.closed` when
    /// the connection ends before one.
    private final class StatusLineWatcher: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let found: EventLoopPromise<Finding>
        init(found: EventLoopPromise<Finding>) { self.found = found }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            found.succeed(.answered)
        }

        func channelInactive(context: ChannelHandlerContext) {
            found.succeed(.closed)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            found.succeed(.closed)
        }
    }
}
