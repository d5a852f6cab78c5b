public import HTTPTypes

extension HTTPRequest {
    /// This request's head as it goes out with `body`: the one place where
    /// the fields a body and a URL imply are derived, so that a dry run, a
    /// `curl` command and every transport send the same head.
    ///
    /// In order:
    /// - `Host`, first: the request's own `Host` field if it has one (a
    ///   tool's override, sent in place of the authority, as AsyncHTTPClient
    ///   and URLSession do), otherwise the authority;
    /// - the request's own fields, except framing fields (`Content-Length`,
    ///   `Transfer-Encoding`), which come from the body alone: a request that
    ///   kept its own could promise bytes that never come;
    /// - `Content-Type` and `Content-Encoding` as the body declares them,
    ///   unless the request sets its own;
    /// - `Content-Length` for a body of known length, or
    ///   `Transfer-Encoding: chunked` for one of unknown length; for no body,
    ///   `Content-Length: 0` when the method defines a meaning for content
    ///   (RFC 9110, section 8.6: every method but `GET`, `HEAD`, `DELETE`,
    ///   `CONNECT` and `TRACE`), as AsyncHTTPClient writes it.
    ///
    /// Deriving an already derived head gives it back unchanged.
    ///
    /// - Throws: ``RawHTTPRequestError`` when the path or authority has bytes
    ///   a request line or `Host` line cannot carry, or the request has more
    ///   than one `Host` field.
    public func wireHead(for body: RequestBody?) throws(RawHTTPRequestError) -> HTTPRequest {
        let path = self.path ?? "/"
        guard !path.isEmpty, path.utf8.allSatisfy(Self.isVisibleASCII) else {
            throw .invalidPath(path)
        }
        if let authority {
            guard !authority.isEmpty, authority.utf8.allSatisfy(Self.isVisibleASCII) else {
                throw .invalidAuthority(authority)
            }
        }
        var hosts: [HTTPField] = []
        var fields = HTTPFields()
        for field in headerFields {
            if field.name == .contentLength || field.name == .transferEncoding { continue }
            if field.name == .hostField {
                hosts.append(field)
            } else {
                fields.append(field)
            }
        }
        // Two Host lines make servers answer 400 (RFC 9112, section 3.2), and
        // front ends that disagree on which one wins are a smuggling risk.
        guard hosts.count <= 1 else { throw .multipleHosts }
        if let host = hosts.first ?? authority.map({ HTTPField(name: .hostField, value: $0) }) {
            fields.insert(host, at: 0)
        }
        if let body {
            if let contentType = body.contentType, fields[.contentType] == nil {
                fields[.contentType] = contentType.description
            }
            if let encoding = body.contentEncoding, fields[.contentEncoding] == nil {
                fields[.contentEncoding] = encoding
            }
            if let length = body.length {
                fields[.contentLength] = String(length)
            } else {
                fields[.transferEncoding] = "chunked"
            }
        } else if !Self.methodsWithoutContent.contains(method) {
            fields[.contentLength] = "0"
        }
        var head = self
        head.headerFields = fields
        return head
    }

    /// Methods whose requests carry no `Content-Length` when they have no body.
    private static let methodsWithoutContent: Set<HTTPRequest.Method> = [.get, .head, .delete, .connect, .trace]

    /// Visible ASCII: what may stand in a request target or `Host` line.
    static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}

extension HTTPField.Name {
    /// `Host` (RFC 9110, section 7.2). swift-http-types keeps its own name
    /// unavailable, steering callers to the authority; the wire head is where
    /// the authority becomes this field.
    package static let hostField = HTTPField.Name("Host")!
}
