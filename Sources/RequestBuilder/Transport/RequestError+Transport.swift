import HTTPTypes

extension RequestError {
    /// A failure to connect, send or receive, naming the request's URL.
    public static func transport(_ request: PreparedRequest, _ what: String, underlying: (any Error)? = nil) -> RequestError {
        RequestError(code: .transport, description: "\(request.describedTarget): \(what)", underlying: underlying)
    }

    /// The request body failed while it was being sent (a file that changed
    /// size, a boundary found in the content), naming the request.
    public static func body(_ request: PreparedRequest, _ what: String, underlying: (any Error)? = nil) -> RequestError {
        RequestError(code: .body, description: "\(request.describedTarget): the body could not be sent: \(what)", underlying: underlying)
    }

    /// The attempt ran past `timeout`, which bounds the whole exchange
    /// (connecting, sending the body, receiving the head and the whole
    /// response body); with `timeout` nil, a narrower limit such as the
    /// connect timeout ran out before any response.
    public static func timedOut(_ request: PreparedRequest, after timeout: Duration?, underlying: (any Error)? = nil) -> RequestError {
        let what = timeout.map { "timed out after \($0.secondsDescription)" } ?? "no response"
        return RequestError(
            code: .timedOut,
            description: "\(request.describedTarget): \(what)",
            underlying: underlying
        )
    }

    /// The sending task was cancelled.
    public static func cancelled(_ request: PreparedRequest) -> RequestError {
        RequestError(code: .cancelled, description: "\(request.describedTarget): the request was cancelled")
    }

    /// A status the request does not accept, naming the request (see ``unacceptableStatus(_:)``).
    public static func unacceptableStatus(_ response: Response, for request: PreparedRequest) -> RequestError {
        let base = unacceptableStatus(response)
        return RequestError(code: base.code, description: "\(request.describedTarget): \(base.description)", response: response)
    }

    /// A response body that passed the limit for reading it into memory.
    public static func responseTooLarge(limit: Int) -> RequestError {
        RequestError(
            code: .responseTooLarge,
            description: "The response body is larger than the \(limit)-byte limit for reading it into memory; read it as a stream (RequestClient.stream) to handle any size"
        )
    }

    /// A response body read a second time.
    static func responseAlreadyRead() -> RequestError {
        RequestError(code: .transport, description: "The response body was already read; a body arrives from the network once and cannot be read again")
    }

    /// Whether another attempt may succeed where this one failed: the
    /// connection failed, was reset or timed out (``Code/transport``,
    /// ``Code/timedOut``), or the server answered a status in
    /// ``RetryMiddleware/defaultRetryableStatuses`` (408, 425, 429, 5xx).
    ///
    /// Every other failure is permanent, the same on every attempt: a
    /// request that cannot be built or a body that fails, an unknown host,
    /// an untrusted certificate, a proxy's `407`, a failed credential
    /// refresh, any other status, a decoding failure, a cancellation.
    public var isTransient: Bool {
        switch code {
        case .transport, .timedOut: true
        case .unacceptableStatus: response.map { RetryMiddleware.defaultRetryableStatuses.contains($0.status.code) } ?? false
        default: false
        }
    }
}

extension PreparedRequest {
    /// `METHOD URL` with the credentials ``redaction`` names hidden, for
    /// error messages and logs.
    package var describedTarget: String { redaction.redacted(head).describedTarget }
}

extension HTTPRequest {
    /// `METHOD URL`, for error messages and logs.
    package var describedTarget: String {
        "\(method.rawValue) \(scheme ?? "https")://\(authority ?? "")\(path ?? "/")"
    }
}
