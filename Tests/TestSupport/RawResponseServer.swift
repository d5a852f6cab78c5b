public import Foundation
import HTTPBody
import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that answers every request with bytes a test
/// writes by hand, for responses a well-behaved HTTP server cannot produce:
/// a status line of `000`, a reason phrase with control characters, a body
/// far larger than memory, one that never ends or breaks off halfway.
///
/// It reads the request head and, if the head declares a `Content-Length`,
/// the body; then it writes the reply. It counts the requests it saw and
/// keeps their heads' bytes, exactly as they arrived.
public final class RawResponseServer: Sendable {
    /// What to send back.
    public enum Reply: Sendable {
        /// These bytes, then close the connection.
        case bytes([UInt8])
        /// A head, then `chunk` written `count` times (forever when `nil`,
        /// until the client goes away), then close the connection.
        case repeating(head: String, chunk: [UInt8], count: Int?)
        /// Nothing for this long, then these bytes and close.
        case delayed(Duration, [UInt8])
        /// These bytes, then nothing, the connection held open until the
        /// client closes it: a server that stalls mid-answer.
        case stalling([UInt8])
        /// A head, then one byte of `byte` every `interval`, forever, until
        /// the client closes the connection: a body that trickles.
        case trickling(head: String, byte: UInt8, interval: Duration)

        /// A status line, header lines and a body, CRLF added, with
        /// `Connection: close` (the server closes after each reply).
        public static func text(_ statusLine: String, headers: [String] = [], body: String = "") -> Reply {
            let head = ([statusLine] + headers + ["Connection: close"]).joined(separator: "\r\n") + "\r\n\r\n"
            return .bytes(Array((head + body).utf8))
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let channel: any Channel
    private let counter: LockedValue<Int>
    private let heads: LockedValue<[[UInt8]]>

    private init(port: Int, channel: any Channel, counter: LockedValue<Int>, heads: LockedValue<[[UInt8]]>) {
        self.port = port
        self.channel = channel
        self.counter = counter
        self.heads = heads
    }

    /// How many request heads arrived.
    public var requestCount: Int { counter.withLock { $0 } }

    /// The request heads that arrived, each from the request line to the
    /// blank line that ends it, in order.
    public var receivedHeads: [[UInt8]] { heads.withLock { $0 } }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(filePath: "/")
    }

    /// Starts a server whose every reply is `reply(requestIndex)`.
    public static func start(_ reply: @escaping @Sendable (Int) -> Reply) async throws -> RawResponseServer {
        let counter = LockedValue(0)
        let heads = LockedValue<[[UInt8]]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RawReplyHandler(counter: counter, heads: heads, reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw TestHTTPServerError(description: "The raw test server bound no port")
        }
        return RawResponseServer(port: port, channel: channel, counter: counter, heads: heads)
    }

    /// Stops listening.
    public func stop() async throws {
        try await channel.close()
    }
}

/// Reads one request, then writes the scripted reply.
private final class RawReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counter: LockedValue<Int>
    private let heads: LockedValue<[[UInt8]]>
    private let reply: @Sendable (Int) -> RawResponseServer.Reply
    private var received: [UInt8] = []
    private var bodyRemaining: Int?
    private var answered = false

    init(counter: LockedValue<Int>, heads: LockedValue<[[UInt8]]>, reply: @escaping @Sendable (Int) -> RawResponseServer.Reply) {
        self.counter = counter
        self.heads = heads
        self.reply = reply
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var buffer = unwrapInboundIn(data)
        if let remaining = bodyRemaining {
            bodyRemaining = remaining - buffer.readableBytes
        } else {
            received += buffer.readBytes(length: buffer.readableBytes) ?? []
            guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            heads.withLock { $0.append(Array(received[..<end.upperBound])) }
            let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            bodyRemaining = length - (received.count - end.upperBound)
        }
        guard let remaining = bodyRemaining, remaining <= 0 else { return }
        answered = true
        let index = counter.withLock { count in
            count += 1
            return count - 1
        }
        send(reply(index), context: context)
    }

    private func send(_ reply: RawResponseServer.Reply, context: ChannelHandlerContext) {
        switch reply {
        case .bytes(let bytes):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        case .delayed(let delay, let bytes):
            let (seconds, attoseconds) = delay.components
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                self.send(.bytes(bytes), context: context)
            }
        case .stalling(let bytes):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
        case .trickling(let head, let byte, let interval):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
            trickle(byte, every: interval, context: context)
        case .repeating(let head, let chunk, let count):
            context.write(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
            writeChunks(ByteBuffer(bytes: chunk), left: count, context: context)
        }
    }

    /// Writes `byte` after `interval`, and again, while the connection is open.
    private func trickle(_ byte: UInt8, every interval: Duration, context: ChannelHandlerContext) {
        let (seconds, attoseconds) = interval.components
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
            guard context.channel.isActive else { return }
            context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: [byte]))).assumeIsolated().whenComplete { result in
                guard case .success = result else { return }
                self.trickle(byte, every: interval, context: context)
            }
        }
    }

    /// Writes one chunk at a time, the next once the last is flushed, so a
    /// body of gigabytes costs one chunk of the server's memory.
    private func writeChunks(_ chunk: ByteBuffer, left: Int?, context: ChannelHandlerContext) {
        if let left, left <= 0 {
            context.flush()
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(chunk)).assumeIsolated().whenComplete { result in
            guard case .success = result else { return }
            self.writeChunks(chunk, left: left.map { $0 - 1 }, context: context)
        }
    }
}
