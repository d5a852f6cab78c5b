public import Foundation
import HTTPBody
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 for integration tests: it listens on
/// a random port, records every request it receives, and answers from a
/// script (statuses in sequence, `Retry-After`, delays, a connection closed
/// mid-body, `401` until the right token arrives).
///
/// ```swift
/// let server = try await TestHTTPServer.start(script: .sequence([.status(503, headers: [("Retry-After", "1")]), .status(200)]))
/// defer { server.stop() }
/// ... send to server.url(path: "/upload") ...
/// #expect(server.requests.count == 2)
/// ```
public final class TestHTTPServer: Sendable {
    /// A request as the server received it.
    public struct RecordedRequest: Sendable {
        /// The method, such as `POST`.
        public let method: String
        /// The request target, such as `/upload?x=1`.
        public let uri: String
        /// The header fields in order, names as sent.
        public let headers: [(name: String, value: String)]
        /// The body bytes, or `nil` when the body exceeded the server's record limit.
        public internal(set) var body: [UInt8]?
        /// How many body bytes arrived.
        public internal(set) var bodyByteCount: Int64
        /// Whether the whole request (its end included) arrived.
        public internal(set) var isComplete: Bool
        /// Whether the connection that carried the request has closed.
        public internal(set) var connectionClosed = false

        /// The first value of a header field, the name compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What the server does with one request, decided when its head arrives.
    public struct Reply: Sendable {
        /// The response status code.
        public var status: Int
        /// The response header fields.
        public var headers: [(name: String, value: String)]
        /// The response body.
        public var body: [UInt8]
        /// How long to wait after the request ends before answering.
        public var delay: Duration
        /// Close the connection, without answering, once this many body bytes arrived.
        public var closeAfterBodyBytes: Int64?

        /// An answer with a status, header fields, a body and a delay.
        public static func status(_ status: Int, headers: [(name: String, value: String)] = [], body: String = "", delay: Duration = .zero) -> Reply {
            Reply(status: status, headers: headers, body: Array(body.utf8), delay: delay, closeAfterBodyBytes: nil)
        }

        /// No answer: the connection is closed once `bytes` body bytes arrived.
        public static func closeConnection(afterBodyBytes bytes: Int64) -> Reply {
            Reply(status: 0, headers: [], body: [], delay: .zero, closeAfterBodyBytes: bytes)
        }
    }

    /// Decides the reply to a request from its head and its index (0 for the first request).
    public struct Script: Sendable {
        /// The reply to a request, given its index.
        public let reply: @Sendable (RecordedRequest, Int) -> Reply

        /// A script from a closure.
        public init(_ reply: @escaping @Sendable (RecordedRequest, Int) -> Reply) { self.reply = reply }

        /// Always `200 OK` with no body.
        public static let countBytes = Script { _, _ in .status(200) }

        /// The replies in order, the last one repeated for every later request.
        public static func sequence(_ replies: [Reply]) -> Script {
            Script { _, index in replies.isEmpty ? .status(200) : replies[min(index, replies.count - 1)] }
        }

        /// A resource with validators, answered as a server that supports
        /// conditional requests does (RFC 9110 §13.1): `304 Not Modified`, with
        /// the `ETag` and `headers` and no body, when `If-None-Match` lists
        /// `etag` (or is `*`) or, without `If-None-Match`, when
        /// `If-Modified-Since` is exactly `lastModified` (compared as text,
        /// enough for a client that echoes the date back); otherwise `200`
        /// with `body`, the validators and `headers`.
        public static func conditional(
            etag: String?,
            lastModified: String? = nil,
            body: String,
            headers: [(name: String, value: String)] = []
        ) -> Script {
            Script { request, _ in
                let validators = [("ETag", etag), ("Last-Modified", lastModified)].compactMap { name, value in
                    value.map { (name: name, value: $0) }
                }
                let notModified: Bool
                if let ifNoneMatch = request.header("If-None-Match") {
                    let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    notModified = tags.contains("*") || (etag.map { tags.contains($0) } ?? false)
                } else {
                    notModified = lastModified != nil && request.header("If-Modified-Since") == lastModified
                }
                return .status(notModified ? 304 : 200, headers: validators + headers, body: notModified ? "" : body)
            }
        }

        /// `401` unless `Authorization` is exactly `Bearer <token>`, then `200`.
        public static func requireBearer(_ token: String) -> Script {
            Script { request, _ in
                request.header("Authorization") == "Bearer \(token)" ? .status(200, body: "welcome") : .status(401, headers: [("WWW-Authenticate", "Bearer")])
            }
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let channel: any Channel
    let state: LockedValue<[RecordedRequest]>

    private init(port: Int, channel: any Channel, state: LockedValue<[RecordedRequest]>) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// Starts a server on a random port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - script: How to answer each request.
    ///   - recordLimit: Bodies larger than this are counted, not kept.
    public static func start(script: Script = .countBytes, recordLimit: Int = 64 * 1024 * 1024, port: Int = 0) async throws -> TestHTTPServer {
        let state = LockedValue<[RecordedRequest]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64 * 1024, initial: 256 * 1024, maximum: 1024 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        RecordingHandler(state: state, script: script, recordLimit: recordLimit)
                    )
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw TestHTTPServerError(description: "The test server bound no port")
        }
        return TestHTTPServer(port: port, channel: channel, state: state)
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(filePath: "/")
    }

    /// The requests received so far, oldest first.
    public var requests: [RecordedRequest] { state.withLock { $0 } }

    /// The body bytes received so far, over all requests.
    public var totalBodyBytes: Int64 { state.withLock { $0.reduce(0) { $0 + $1.bodyByteCount } } }

    /// Waits until every request received so far has seen its connection
    /// close, or `timeout` (scaled by ``TestTime``) passes; returns whether they all did.
    public func waitForClosedConnections(timeout: Duration = .seconds(30)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + TestTime.budget(timeout)
        while clock.now < deadline {
            if requests.allSatisfy(\.connectionClosed) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return requests.allSatisfy(\.connectionClosed)
    }

    /// Stops listening; open connections are closed.
    public func stop() async throws {
        try await channel.close()
    }
}

/// Why the test server failed.
public struct TestHTTPServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// Records one connection's requests and answers them from the script.
private final class RecordingHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: LockedValue<[TestHTTPServer.RecordedRequest]>
    private let script: TestHTTPServer.Script
    private let recordLimit: Int
    private var current: (index: Int, reply: TestHTTPServer.Reply, keepAlive: Bool)?
    /// The requests this connection carried, marked when it closes.
    private var indices: [Int] = []

    init(state: LockedValue<[TestHTTPServer.RecordedRequest]>, script: TestHTTPServer.Script, recordLimit: Int) {
        self.state = state
        self.script = script
        self.recordLimit = recordLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let recorded = TestHTTPServer.RecordedRequest(
                method: head.method.rawValue,
                uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: recordLimit > 0 ? [] : nil,
                bodyByteCount: 0,
                isComplete: false
            )
            let index = state.withLock { requests in
                requests.append(recorded)
                return requests.count - 1
            }
            indices.append(index)
            let reply = script.reply(recorded, index)
            current = (index, reply, head.isKeepAlive)
            if reply.closeAfterBodyBytes == 0 {
                context.close(promise: nil)
            } else if head.headers["Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // curl asks before sending a large body and would otherwise wait a second.
                let interim = HTTPResponseHead(version: .http1_1, status: .continue)
                context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
            }
        case .body(let buffer):
            guard let current else { return }
            let limit = recordLimit
            let total = state.withLock { requests in
                requests[current.index].bodyByteCount += Int64(buffer.readableBytes)
                if requests[current.index].body != nil {
                    if requests[current.index].bodyByteCount > Int64(limit) {
                        requests[current.index].body = nil
                    } else {
                        buffer.withUnsafeReadableBytes { requests[current.index].body?.append(contentsOf: $0) }
                    }
                }
                return requests[current.index].bodyByteCount
            }
            if let closeAfter = current.reply.closeAfterBodyBytes, total >= closeAfter {
                self.current = nil
                context.close(promise: nil)
            }
        case .end:
            guard let current else { return }
            self.current = nil
            state.withLock { $0[current.index].isComplete = true }
            let reply = current.reply
            let keepAlive = current.keepAlive
            if reply.delay > .zero {
                let (seconds, attoseconds) = reply.delay.components
                let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                    self.respond(reply, keepAlive: keepAlive, context: context)
                }
            } else {
                respond(reply, keepAlive: keepAlive, context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let indices = self.indices
        state.withLock { requests in
            for index in indices { requests[index].connectionClosed = true }
        }
        context.fireChannelInactive()
    }

    private func respond(_ reply: TestHTTPServer.Reply, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(reply.headers.map { ($0.name, $0.value) })
        let body = reply.body
        headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            done.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
