public import HTTPTypes

extension PreparedRequest {
    /// Whether `status` counts as success for this request: one its
    /// ``acceptableStatus`` accepts, or `304 Not Modified` when the request
    /// is conditional.
    ///
    /// A request that carries `If-None-Match` or `If-Modified-Since` asks
    /// "has it changed?", and `304 Not Modified` is the answer "no"
    /// (RFC 9110 §15.4.5), not a failure, whatever ``acceptableStatus`` says.
    /// ``StatusValidationMiddleware`` and ``RequestClient`` judge by this.
    public func accepts(_ status: HTTPResponse.Status) -> Bool {
        acceptableStatus.accepts(status) || (status == .notModified && isConditional)
    }

    /// Whether the request carries a precondition that `304 Not Modified`
    /// answers (RFC 9110 §13.1.2, §13.1.3).
    var isConditional: Bool {
        head.headerFields[.ifNoneMatch] != nil || head.headerFields[.ifModifiedSince] != nil
    }
}
