extension RequestError {
    /// A failure to connect, send or receive, naming the request's URL.
    public static func transport(_ request: PreparedRequest, _ what: String, underlying: (any Error)? = nil) -> RequestError {
        RequestError(code: .transport, description: "\(request.describedTarget): \(what)", underlying: underlying)
    }

    /// No response within the timeout.
    public static func timedOut(_ request: PreparedRequest, after timeout: Duration?, underlying: (any Error)? = nil) -> RequestError {
        let limit = timeout.map { " within \($0)" } ?? ""
        return RequestError(
            code: .timedOut,
            description: "\(request.describedTarget): no response\(limit)",
            underlying: underlying
        )
    }

    /// The sending task was cancelled.
    public static func cancelled(_ request: PreparedRequest) -> RequestError {
        RequestError(code: .cancelled, description: "\(request.describedTarget): the request was cancelled")
    }

    /// A status the request does not accept.
    public static func unacceptableStatus(_ response: Response, for request: PreparedRequest) -> RequestError {
        RequestError(
            code: .unacceptableStatus,
            description: "\(request.describedTarget): the server answered \(response.status.code) \(response.status.reasonPhrase), which the request does not accept",
            response: response
        )
    }

    /// A body that could not be decoded into `type`.
    public static func decoding(_ type: Any.Type, from response: Response, for request: PreparedRequest, underlying: any Error) -> RequestError {
        RequestError(
            code: .decoding,
            description: "\(request.describedTarget): the \(response.body.count)-byte response body could not be decoded as \(type): \(underlying)",
            response: response,
            underlying: underlying
        )
    }

    /// Whether this error says the request never got an answer because the
    /// connection failed or timed out, which a retry may fix.
    var isConnectionFailure: Bool { code == .transport || code == .timedOut }
}

extension PreparedRequest {
    /// `METHOD URL`, for error messages and logs.
    var describedTarget: String {
        "\(head.method.rawValue) \(head.scheme ?? "https")://\(head.authority ?? "")\(head.path ?? "/")"
    }
}
