public import Foundation

/// Sends prepared requests through a chain of middleware to a transport.
///
/// ```swift
/// let client = RequestClient(
///     transport: URLSessionTransport(),
///     middleware: [.retry(), .bearerToken(store)]
/// )
/// let response = try await client.send(request)
/// ```
///
/// Every response is checked against the request's
/// ``PreparedRequest/acceptableStatus`` after the middleware have run, so a
/// status outside it always fails with ``RequestError/Code/unacceptableStatus``
/// (use ``AcceptableStatus/any`` to inspect every status yourself). A
/// `304 Not Modified` to a conditional request is its answer, not a failure
/// (``PreparedRequest/accepts(_:)``).
/// Cancelling the calling task cancels the request.
public struct RequestClient: Sendable {
    /// Where requests go once the middleware have run.
    public let transport: any HTTPTransport
    /// The middleware, outermost first.
    public let middleware: [any RequestMiddleware]

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Sends each attempt.
    ///   - middleware: Run in order: the first sees the request first and the response last.
    public init(transport: any HTTPTransport, middleware: [any RequestMiddleware] = []) {
        self.transport = transport
        self.middleware = middleware
    }

    /// Sends a request and returns the response once its status is accepted,
    /// its body read into memory.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The largest body read into memory, 64 MiB by
    ///     default; a larger one fails with
    ///     ``RequestError/Code/responseTooLarge`` (use ``stream(_:progress:)``
    ///     for downloads of any size).
    ///   - progress: Called as body bytes go out; a retried attempt starts
    ///     again from zero.
    /// - Throws: ``RequestError``.
    public func send(
        _ request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Response {
        try await stream(request, progress: progress).collect(upTo: maximumBodySize)
    }

    /// Sends a request and returns as soon as an accepted response head has
    /// arrived, with its body to be read as it comes, in constant memory.
    ///
    /// ```swift
    /// let response = try await client.stream(request)
    /// for try await chunk in response.body { try output.write(contentsOf: chunk) }
    /// ```
    ///
    /// Middleware see the head only. Once a head has arrived, the attempt is
    /// final unless a middleware retries its status: a failure while reading
    /// the body is thrown by the body's sequence and never retried.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - progress: Called as body bytes go out; a retried attempt starts
    ///     again from zero.
    /// - Throws: ``RequestError``.
    public func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> StreamedResponse {
        let transport = self.transport
        var next: RequestMiddleware.Next = { request in
            try Task.checkCancellation()
            return try await transport.stream(request, progress: progress)
        }
        for step in ([StatusValidationMiddleware()] + middleware).reversed() {
            let inner = next
            next = { request in try await step.handle(request, next: inner) }
        }
        do {
            return try await next(request)
        } catch is CancellationError {
            throw RequestError.cancelled(request)
        }
    }

    /// Sends a request and decodes the response body as JSON (`Data`,
    /// `String` and ``EmptyResponse`` as ``Response/decode(_:using:)`` does).
    ///
    /// - Throws: ``RequestError``; ``RequestError/Code/decoding`` (with the
    ///   response) when the body does not decode.
    public func send<Value: Decodable>(
        _ request: PreparedRequest,
        decoding type: Value.Type,
        decoder: JSONDecoder = JSONDecoder(),
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Value {
        try await send(request, progress: progress).decode(type, using: decoder)
    }

    /// Sends the request an endpoint describes and decodes the response into
    /// the endpoint's `Response` type with its decoder.
    ///
    /// ```swift
    /// let post: Post = try await client.send(GetPost(id: 1))
    /// ```
    ///
    /// - Throws: ``RequestError``: ``RequestError/Code/invalidRequest`` when the
    ///   endpoint cannot be built, and as ``send(_:progress:)`` otherwise.
    public func send<Operation: Endpoint>(
        _ endpoint: Operation,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Operation.Response {
        let request = try endpoint.prepare()
        return try await send(request, progress: progress).decode(Operation.Response.self, using: endpoint.decoder)
    }
}
