public import HTTPTypes

/// A stored `200 OK` with its validators, kept by a ``ResponseCache`` for
/// ``ConditionalRequestMiddleware`` to revalidate.
public struct CachedResponse: Sendable {
    /// The response: its head, with `ETag` or `Last-Modified`, and its body.
    public var response: Response
    /// The request's values of the fields the response's `Vary` names, so
    /// the response is reused only for a request that sends the same ones.
    public var variantFields: HTTPFields

    /// Creates a stored response, such as one a persistent store reads back.
    public init(response: Response, variantFields: HTTPFields = HTTPFields()) {
        self.response = response
        self.variantFields = variantFields
    }

    /// The `ETag` validator, sent back as `If-None-Match`.
    public var etag: String? { response.headerFields[.eTag] }
    /// The `Last-Modified` date as the server wrote it, sent back as `If-Modified-Since`.
    public var lastModified: String? { response.headerFields[.lastModified] }

    /// What the entry costs in memory, roughly: the body, and each header
    /// field's name and value with four bytes for `: ` and CRLF.
    public var byteCount: Int {
        let fields = response.headerFields.map { $0 } + variantFields.map { $0 }
        return response.body.count + fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }

    /// The fields a response names in `Vary`, or `nil` for `Vary: *` or a
    /// name that is not a token: such a response cannot be matched to a request.
    static func variedNames(of head: HTTPResponse) -> [HTTPField.Name]? {
        var names: [HTTPField.Name] = []
        for member in head.headerFields.listValues(.vary) {
            guard member != "*", let name = HTTPField.Name(member) else { return nil }
            names.append(name)
        }
        return names
    }

    /// Whether `request` sends the same values of the varied fields as the
    /// request this response answered (RFC 9111 §4.1).
    func isVariant(for request: HTTPRequest) -> Bool {
        guard let names = Self.variedNames(of: response.head) else { return false }
        return names.allSatisfy { request.headerFields[values: $0] == variantFields[values: $0] }
    }

    /// This response with the fields of `notModified` merged in, as RFC 9111
    /// §3.2 asks: each field the `304` carries replaces the stored one, except
    /// `Content-Length` and the fields of the connection it came on (the
    /// stored body is what they describe).
    func refreshed(by notModified: HTTPResponse) -> CachedResponse {
        var refreshed = self
        let kept: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection]
        var seen: Set<HTTPField.Name> = []
        for field in notModified.headerFields where !kept.contains(field.name) && seen.insert(field.name).inserted {
            refreshed.response.head.headerFields[values: field.name] = notModified.headerFields[values: field.name]
        }
        return refreshed
    }
}
