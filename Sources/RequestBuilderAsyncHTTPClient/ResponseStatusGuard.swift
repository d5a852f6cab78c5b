import NIOCore
import NIOHTTP1

/// Guards AsyncHTTPClient against a response status line it cannot handle,
/// and gives the response the server's own reason phrase.
///
/// AsyncHTTPClient takes every status under 200 for an informational
/// `1xx` head and waits for the real one; the body that follows a `000` or
/// `099` head then reaches a state it traps in ("How can we receive a
/// response body, if we haven't received a head"), so one status line from
/// a server would end the process. The guard sits between the response
/// decoder and AsyncHTTPClient's own handler, fails the request with
/// ``InvalidResponseStatusError`` and closes the connection instead; nothing
/// after the bad head is passed on.
///
/// NIO's decoder keeps only the status code (a `503` always reads "Service
/// Unavailable"), so a ``StatusLineReader`` before the decoder notes the
/// reason phrase the server sent, and the guard puts it into the head.
final class ResponseStatusGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    private let reader: StatusLineReader
    private var refused = false

    init(reader: StatusLineReader) {
        self.reader = reader
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            let phrase = reader.takeReasonPhrase(forCode: Int(head.status.code))
            guard head.status.code >= 100 else {
                refused = true
                context.fireErrorCaught(InvalidResponseStatusError(code: Int(head.status.code), reasonPhrase: phrase ?? ""))
                context.close(promise: nil)
                return
            }
            // Informational heads keep NIO's values: AsyncHTTPClient compares
            // them with `.switchingProtocols` and `.continue` by case.
            if head.status.code >= 200, let phrase, phrase != head.status.reasonPhrase {
                head.status = .custom(code: head.status.code, reasonPhrase: phrase)
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            reader.expectStatusLine()
            context.fireChannelRead(data)
        }
    }

    /// Puts a reader before the response decoder of a new HTTP/1.1
    /// connection and a guard after it; meant for AsyncHTTPClient's
    /// `http1_1ConnectionDebugInitializer`.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self)
            let reader = StatusLineReader()
            try operations.addHandler(reader, position: .before(decoder))
            try operations.addHandler(ResponseStatusGuard(reader: reader), position: .after(decoder))
        }
    }
}

/// A response status line whose code HTTP does not allow (RFC 9110 §15:
/// status codes are three digits from 100 to 599).
struct InvalidResponseStatusError: Error, CustomStringConvertible {
    let code: Int
    let reasonPhrase: String

    var description: String {
        let digits = String(code)
        let code = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        return "the server sent an invalid status line (status \(code)); HTTP status codes start at 100"
    }
}
