import NIOCore
import NIOHTTP1

/// The questions a connection's pipeline asks the Swift runtime about the
/// HTTP/1 handlers it is given, asked before the connection exists.
///
/// Adding a handler asks whether its type is an inbound and an outbound
/// handler, and the response decoder's handler asks whether it can hold
/// back writes; the runtime answers each new question by scanning every
/// conformance record in the binary (about 7,000) and keeps the answer.
/// Asked on the event loop while the request is still being prepared, the
/// answers are kept by the time the connection is made and its handlers
/// are added, instead of being paid for between the connection and the
/// request's first byte.
enum PipelineWarmUp {
    /// Asks the questions for the handlers AsyncHTTPClient adds to an
    /// HTTP/1 connection, with handlers of the same types.
    static func run() {
        let decoder = HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)
        for handler in [HTTPRequestEncoder(), ByteToMessageHandler(decoder)] as [any ChannelHandler] {
            ask(about: handler)
        }
    }

    /// Casts `handler` as the pipeline does. Not optimized: the optimizer
    /// sees the types here and would answer, and drop, the casts itself.
    @_optimize(none)
    private static func ask(about handler: any ChannelHandler) {
        _ = handler as? any _ChannelInboundHandler
        _ = handler as? any _ChannelOutboundHandler
    }
}
