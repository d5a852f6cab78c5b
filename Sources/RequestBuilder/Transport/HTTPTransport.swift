/// Something that puts a ``PreparedRequest`` on the wire and brings back the
/// response: URLSession, AsyncHTTPClient, or a stub in tests.
///
/// A transport sends exactly one attempt and judges nothing: a `503` comes
/// back as a response, not an error. Retries, credentials and status checks
/// belong to ``RequestMiddleware``. Cancelling the calling task cancels the
/// request; a transport then throws ``RequestError`` with code
/// ``RequestError/Code/cancelled``.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns as soon as the response head arrives,
    /// with the body still to be read.
    ///
    /// - Parameters:
    ///   - request: The head and body to send.
    ///   - progress: Called as body bytes go out, with the running count and
    ///     the total when known; never called for a request without a body.
    /// - Throws: ``RequestError`` when the request cannot be sent or no
    ///   response head arrives; ``RequestError/Code/body`` when the request
    ///   body fails while it is sent. Errors while the body is read come from
    ///   the body's sequence.
    func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse
}

extension HTTPTransport {
    /// Sends one request without reporting progress; see ``stream(_:progress:)``.
    public func stream(_ request: PreparedRequest) async throws -> StreamedResponse {
        try await stream(request, progress: { _ in })
    }

    /// Sends one request and reads the whole response body into memory.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The largest body accepted; a larger one fails
    ///     with ``RequestError/Code/responseTooLarge``.
    ///   - progress: Called as body bytes go out.
    public func send(
        _ request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Response {
        try await stream(request, progress: progress).collect(upTo: maximumBodySize)
    }
}
