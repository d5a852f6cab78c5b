import Foundation
import NIOCore
import NIOHTTP1

/// Writes the request target a request was built with where AsyncHTTPClient
/// would write another.
///
/// AsyncHTTPClient takes the target's path from Foundation's `URL.path`,
/// which is empty when the path's percent-encoded bytes are not UTF-8
/// (`/a%FF`), and then sends `/`: the request would go to another resource
/// than the one built (and printed by a dry run). For such a request the
/// transport names the exact target in a marker field
/// (``markedTarget(for:url:)``); this handler, between AsyncHTTPClient's
/// handler and the request encoder, puts it in the request line and drops
/// the field, so the bytes on the wire are the built head's.
final class RequestTargetRewriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The marker field's name: never sent, removed here.
    static let markerName = "x-requestbuilder-request-target"

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), let target = head.headers.first(name: Self.markerName) else {
            context.write(data, promise: promise)
            return
        }
        head.uri = target
        head.headers.remove(name: Self.markerName)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// The target to put in the marker field, when AsyncHTTPClient would
    /// send another: the built head's `path` (path and query, as written)
    /// when Foundation cannot decode the URL's path; `nil` otherwise.
    static func markedTarget(for path: String?, url: URL) -> String? {
        guard url.path.isEmpty, let path else { return nil }
        let pathOnly = path.prefix { $0 != "?" }
        return pathOnly.isEmpty || pathOnly == "/" ? nil : path
    }

    /// Puts a rewriter after the request encoder of a new HTTP/1.1
    /// connection; meant for AsyncHTTPClient's `http1_1ConnectionDebugInitializer`.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            let encoder = try operations.handler(type: HTTPRequestEncoder.self)
            try operations.addHandler(RequestTargetRewriter(), position: .after(encoder))
        }
    }
}
