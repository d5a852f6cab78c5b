/// Something that puts a ``PreparedRequest`` on the wire and brings back the
/// ``Response``: URLSession, AsyncHTTPClient, or a stub in tests.
///
/// A transport sends exactly one attempt and judges nothing: a `503` comes
/// back as a response, not an error. Retries, credentials and status checks
/// belong to ``RequestMiddleware``. Cancelling the calling task cancels the
/// request; a transport then throws ``RequestError`` with code
/// ``RequestError/Code/cancelled``.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the server's response.
    ///
    /// - Parameters:
    ///   - request: The head and body to send.
    ///   - progress: Called as body bytes go out, with the running count and
    ///     the total when known; never called for a request without a body.
    /// - Throws: ``RequestError`` when the request cannot be sent or answered.
    func send(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Response
}

extension HTTPTransport {
    /// Sends one request without reporting progress.
    public func send(_ request: PreparedRequest) async throws -> Response {
        try await send(request, progress: { _ in })
    }
}
