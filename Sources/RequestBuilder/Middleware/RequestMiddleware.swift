import HTTPTypes

/// A step between a ``RequestClient`` and its transport that can change a
/// request, answer it, retry it or inspect its response.
///
/// Middleware run in the order given to the client: the first sees the
/// request first and the response last. Call `next` zero, one or several
/// times (a retry calls it again with the same request). `next` returns
/// once the response head has arrived; the body is read later, by whoever
/// gets the response, so a middleware never holds a large download in memory.
///
/// ```swift
/// struct UserAgent: RequestMiddleware {
///     func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
///         let request = try request.updating { $0.headerFields[.userAgent] = "notes/1.0" }
///         return try await next(request)
///     }
/// }
/// ```
public protocol RequestMiddleware: Sendable {
    /// The rest of the chain: later middleware, then the transport.
    typealias Next = @Sendable (PreparedRequest) async throws -> StreamedResponse

    /// Handles one request, usually by passing it on to `next`.
    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse
}
