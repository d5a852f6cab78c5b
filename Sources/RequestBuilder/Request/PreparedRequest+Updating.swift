public import HTTPBody
public import HTTPTypes

extension PreparedRequest {
    /// This request with its head changed by `change` and derived again, as
    /// the builder derives it: the one way a middleware, a signer or a
    /// protocol changes a prepared request.
    ///
    /// ```swift
    /// let authorized = try request.updating { head in
    ///     head.headerFields[.authorization] = "Bearer \(token)"
    /// }
    /// ```
    ///
    /// `Host` and the framing fields are not the transform's to set: `Host`
    /// comes from the request's authority (or the override it was built
    /// with), `Content-Length` and `Transfer-Encoding` from the body alone,
    /// so a head never promises bytes the body does not hold.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) when
    ///   `change` sets, removes or changes `Host`, the authority,
    ///   `Content-Length` or `Transfer-Encoding` (a framing field may only
    ///   be left as it was or set to what the body implies), or leaves a
    ///   path that cannot be sent; the error `change` throws, as it is.
    public func updating(_ change: (inout HTTPRequest) throws -> Void) throws -> PreparedRequest {
        try updating(body: body, change)
    }

    /// This request with `body` in place of its own, its head changed by
    /// `change` and derived again for the new body: `Content-Length` (or
    /// `Transfer-Encoding: chunked`) follows `body`; `Content-Type` and
    /// `Content-Encoding` stay as the head has them.
    ///
    /// For a protocol that sends the body another way (a resumable upload's
    /// empty creation request, aws-chunked signing); see ``updating(_:)``
    /// for what `change` may not do.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) as
    ///   ``updating(_:)`` does; the error `change` throws, as it is.
    public func updating(body: RequestBody?, _ change: (inout HTTPRequest) throws -> Void = { _ in }) throws -> PreparedRequest {
        var changed = head
        try change(&changed)
        let derived: HTTPRequest
        do {
            derived = try changed.wireHead(for: body)
        } catch {
            throw RequestError.invalidRequest(error.description, underlying: error)
        }
        if changed.authority != head.authority {
            throw RequestError.invalidRequest("A transform of a prepared request cannot change its authority (\(head.authority ?? "none")): build a new request")
        }
        if changed.headerFields[values: .hostField] != head.headerFields[values: .hostField] {
            throw RequestError.invalidRequest("A transform of a prepared request cannot set Host: it comes from the request's authority")
        }
        for name in [HTTPField.Name.contentLength, .transferEncoding] {
            let values = changed.headerFields[values: name]
            guard values == head.headerFields[values: name] || values == derived.headerFields[values: name] else {
                throw RequestError.invalidRequest("A transform of a prepared request cannot set \(name) to \(values.isEmpty ? "nothing" : values.joined(separator: ", ")): the body's framing is derived from the body")
            }
        }
        return try PreparedRequest(head: derived, body: body, timeout: timeout, acceptableStatus: acceptableStatus, redaction: redaction)
    }
}
