public import HTTPTypes

/// A request as HTTP/1.1 puts it on the wire (RFC 9112): the request line, the
/// header section, a blank line, then the body, with chunked framing when the
/// body's length is not known up front.
///
/// This is what golden-file tests compare and what `uploader --dry-run`
/// prints. Use it in your own tests to pin down exactly what a request sends:
///
/// ```swift
/// let raw = try RawHTTPRequest(request, body: .text("hi"))
/// let bytes = try await raw.collect()
/// ```
///
/// The header section holds the request's own fields plus the ones the body
/// implies: `Host` from the authority (written first, replacing any `Host`
/// field), `Content-Type` and `Content-Encoding` unless the request sets them,
/// and, for a body, exactly one of `Content-Length` or `Transfer-Encoding: chunked`.
/// Framing fields the request set itself are dropped, with or without a body,
/// so the framing always agrees with the bytes that follow the head.
public struct RawHTTPRequest: Sendable {
    /// The header fields as sent after `Host`, derived ones included, in order.
    public let headerFields: HTTPFields
    /// The request line and header section, ending with the blank line.
    public let head: [UInt8]
    /// The body, if the request has one.
    public let body: RequestBody?

    /// Whether the body goes out with chunked transfer encoding.
    public var isChunked: Bool { body != nil && body?.length == nil }

    /// Lays out a request for the wire.
    ///
    /// - Throws: ``RawHTTPRequestError`` if the request has no path, or a
    ///   path or authority with characters a request line cannot carry.
    public init(_ request: HTTPRequest, body: RequestBody?) throws(RawHTTPRequestError) {
        let path = request.path ?? "/"
        guard !path.isEmpty, path.utf8.allSatisfy(RawHTTPRequest.isRequestTargetByte) else {
            throw .invalidPath(path)
        }
        // HTTPFields cannot hold `Host` (it is the authority pseudo-field), so it
        // is written into the head directly.
        if let authority = request.authority {
            guard !authority.isEmpty, authority.utf8.allSatisfy(RawHTTPRequest.isRequestTargetByte) else {
                throw .invalidAuthority(authority)
            }
        }
        var fields = HTTPFields()
        for field in request.headerFields {
            // Framing comes from the body alone: a bodiless request that kept a
            // caller's `Transfer-Encoding: chunked` would leave the server
            // waiting for chunks that never come.
            if field.name == .contentLength || field.name == .transferEncoding { continue }
            fields.append(field)
        }
        // A Host field (a tool's `Host:` override) takes the place of the
        // authority's Host line, as AsyncHTTPClient and URLSession send it:
        // exactly one Host line, the same in a dry run and on the wire. Two
        // make servers answer 400 (RFC 9112, section 3.2).
        let hostFieldCount = fields.reduce(0) { $0 + ($1.name.canonicalName == "host" ? 1 : 0) }
        if hostFieldCount > 1 {
            throw .multipleHosts
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
        }

        var head: [UInt8] = []
        head.reserveCapacity(256)
        head.append(contentsOf: request.method.rawValue.utf8)
        head.append(UInt8(ascii: " "))
        head.append(contentsOf: path.utf8)
        head.append(contentsOf: " HTTP/1.1\r\n".utf8)
        if let authority = request.authority, hostFieldCount == 0 {
            head.append(contentsOf: "Host: \(authority)\r\n".utf8)
        }
        for field in fields {
            head.append(contentsOf: field.name.rawName.utf8)
            head.append(contentsOf: ": ".utf8)
            head.append(contentsOf: field.value.utf8)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)

        self.headerFields = fields
        self.head = head
        self.body = body
    }

    /// The whole request, head first, as a sequence of chunks; body chunks of
    /// unknown total length are wrapped in chunked framing, ending with `0\r\n\r\n`.
    public func chunks(maximumChunkSize: Int = RequestBody.defaultChunkSize) -> Chunks {
        Chunks(head: head, body: body?.chunks(maximumChunkSize: maximumChunkSize), isChunked: isChunked)
    }

    /// The whole request in memory; fails past `limit` bytes of body.
    public func collect(upTo limit: Int = 64 * 1024 * 1024) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in chunks() {
            guard bytes.count + chunk.count <= head.count + limit else {
                throw RequestBodyError.tooLarge(limit: limit)
            }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    /// Visible ASCII: what may stand in a request target or authority.
    static func isRequestTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}

extension RawHTTPRequest {
    /// The chunks of a serialized request: the head, then the framed body.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = [UInt8]

        let head: [UInt8]
        let body: RequestBody.Chunks?
        let isChunked: Bool

        public func makeAsyncIterator() -> Iterator {
            Iterator(head: head, body: body?.makeAsyncIterator(), isChunked: isChunked)
        }

        /// Yields the head, each body chunk, and the last-chunk marker when chunked.
        public struct Iterator: AsyncIteratorProtocol {
            private var head: [UInt8]?
            private var body: RequestBody.Chunks.Iterator?
            private let isChunked: Bool
            private var finished = false

            init(head: [UInt8], body: RequestBody.Chunks.Iterator?, isChunked: Bool) {
                self.head = head
                self.body = body
                self.isChunked = isChunked
            }

            public mutating func next() async throws -> [UInt8]? {
                if let head {
                    self.head = nil
                    return head
                }
                guard !finished, var body else { return nil }
                let chunk = try await body.next()
                self.body = body
                guard let chunk else {
                    finished = true
                    return isChunked ? Array("0\r\n\r\n".utf8) : nil
                }
                guard isChunked else { return chunk }
                var framed: [UInt8] = []
                framed.reserveCapacity(chunk.count + 12)
                framed.append(contentsOf: String(chunk.count, radix: 16, uppercase: false).utf8)
                framed.append(contentsOf: "\r\n".utf8)
                framed.append(contentsOf: chunk)
                framed.append(contentsOf: "\r\n".utf8)
                return framed
            }
        }
    }
}

/// Why a request cannot be written as HTTP/1.1.
public struct RawHTTPRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sentence naming the part of the request at fault.
    public let description: String

    static func invalidPath(_ path: String) -> Self {
        Self(description: "The request path \(path.debugDescription) is empty or has spaces, control characters or non-ASCII bytes; percent-encode it (RFC 3986)")
    }

    static let multipleHosts = Self(description: "The request has more than one Host field; a request carries exactly one host (RFC 9112, section 3.2)")

    static func invalidAuthority(_ authority: String) -> Self {
        Self(description: "The request authority (host) \(authority.debugDescription) is empty or has spaces, control characters or non-ASCII bytes")
    }
}
