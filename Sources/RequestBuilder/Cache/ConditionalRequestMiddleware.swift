import Foundation
import HTTPTypes

/// Keeps each `GET` and `HEAD` response's validators and body, sends them back
/// as `If-None-Match` and `If-Modified-Since`, and answers a
/// `304 Not Modified` from what it kept.
///
/// ```swift
/// let client = RequestClient(transport: transport, middleware: [.conditionalRequests()])
/// let first = try await client.send(request)   // 200, body stored with its ETag
/// let again = try await client.send(request)   // server says 304; you get the 200 and its body
/// ```
///
/// The answer from the cache is the stored `200 OK` and body, with the header
/// fields of the `304` merged in (a fresh `Date`, `ETag` or `Cache-Control`
/// replace the stored ones; `Content-Length` stays that of the stored body;
/// RFC 9111 §3.2), so callers never see the `304`. It revalidates every time:
/// this is a validator cache, not a freshness cache, and `max-age` is not
/// consulted.
///
/// A `200 OK` is stored when it has an `ETag` or a `Last-Modified`, a body
/// of at most ``maximumBodySize`` that is read to its end, no
/// `Cache-Control: no-store` on the request or the response, and no
/// `Vary: *`. A `Vary` naming fields is honoured: the stored response is
/// used only for a request that sends the same values of those fields. A
/// request that carries its own `If-None-Match` or `If-Modified-Since` is
/// passed on untouched, and its `304` reaches the caller as the answer (not
/// an error). A successful `POST`, `PUT`, `PATCH` or `DELETE` removes what
/// is stored for its URL (RFC 9111 §4.4). The cache is private to whoever
/// holds it: share a client between users only with a store keyed for that.
public struct ConditionalRequestMiddleware: RequestMiddleware {
    /// Where the responses are kept.
    public let cache: any ResponseCache
    /// The largest body kept, 1 MiB by default; larger ones pass through unstored.
    public var maximumBodySize: Int

    /// The default ``maximumBodySize``: 1 MiB.
    public static let defaultMaximumBodySize = 1024 * 1024

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - cache: Where responses are kept; by default, a new
    ///     ``InMemoryResponseCache`` for this middleware alone.
    ///   - maximumBodySize: The largest body kept.
    public init(
        cache: any ResponseCache = InMemoryResponseCache(),
        maximumBodySize: Int = ConditionalRequestMiddleware.defaultMaximumBodySize
    ) {
        self.cache = cache
        self.maximumBodySize = maximumBodySize
    }

    /// Sends the request with the stored validators, if any, and answers a
    /// `304 Not Modified` with the stored response.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        guard let key = ResponseCacheKey(request) else { return try await next(request) }
        guard request.head.method == .get || request.head.method == .head else {
            return try await invalidating(key, after: next(request))
        }
        // The caller's own precondition is a question only the caller can
        // take the answer to; no-store forbids keeping anything (RFC 9111 §5.2.1.5).
        guard !request.isConditional, !request.head.headerFields.hasCacheDirective("no-store") else {
            return try await next(request)
        }
        let stored = await cache.cachedResponse(for: key).flatMap { $0.isVariant(for: request.head) ? $0 : nil }
        var sent = request
        if let stored {
            sent = try request.updating { head in
                head.headerFields[.ifNoneMatch] = stored.etag
                head.headerFields[.ifModifiedSince] = stored.lastModified
            }
        }
        let response = try await next(sent)
        if response.status == .notModified, let stored {
            let refreshed = stored.refreshed(by: response.head)
            await cache.storeCachedResponse(refreshed, for: key)
            return StreamedResponse(refreshed.response)
        }
        guard response.status == .ok else { return response }
        // A newer answer makes the stored one stale, whether or not it is kept.
        await cache.removeCachedResponse(for: key)
        guard let variantFields = storableVariantFields(of: response.head, for: request.head) else { return response }
        let cache = self.cache
        let head = response.head
        var capturing = response
        capturing.body = ResponseBody(CapturingChunks(body: response.body, limit: maximumBodySize) { body in
            await cache.storeCachedResponse(
                CachedResponse(response: Response(head: head, body: Data(body)), variantFields: variantFields),
                for: key
            )
        })
        return capturing
    }

    /// The request's values of the fields `head` varies on, or `nil` when
    /// the response must not be stored.
    private func storableVariantFields(of head: HTTPResponse, for request: HTTPRequest) -> HTTPFields? {
        guard head.headerFields[.eTag] != nil || head.headerFields[.lastModified] != nil,
              !head.headerFields.hasCacheDirective("no-store"),
              let names = CachedResponse.variedNames(of: head)
        else { return nil }
        var fields = HTTPFields()
        for name in names { fields[values: name] = request.headerFields[values: name] }
        return fields
    }

    /// Passes `response` on, first removing what is stored for its URL when
    /// it is a success or redirect to a method that may change the resource.
    private func invalidating(_ key: ResponseCacheKey, after response: StreamedResponse) async -> StreamedResponse {
        let isSafe = [.options, .trace].contains(key.method)
        if !isSafe, (200..<400).contains(response.status.code) {
            await cache.removeCachedResponse(for: ResponseCacheKey(method: .get, url: key.url))
            await cache.removeCachedResponse(for: ResponseCacheKey(method: .head, url: key.url))
        }
        return response
    }
}

extension RequestMiddleware where Self == ConditionalRequestMiddleware {
    /// Revalidates `GET` and `HEAD` responses with their `ETag` or
    /// `Last-Modified` and answers a `304` from `cache`; see ``ConditionalRequestMiddleware``.
    public static func conditionalRequests(
        cache: any ResponseCache = InMemoryResponseCache(),
        maximumBodySize: Int = ConditionalRequestMiddleware.defaultMaximumBodySize
    ) -> ConditionalRequestMiddleware {
        ConditionalRequestMiddleware(cache: cache, maximumBodySize: maximumBodySize)
    }
}
