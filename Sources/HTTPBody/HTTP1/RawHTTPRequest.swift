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
/// The header section is the request's wire head
/// (``HTTPTypes/HTTPRequest/wireHead(for:)``): `Host` first, the request's
/// own fields, then the ones the body implies, so the framing always agrees
/// with the bytes that follow the head.
public struct RawHTTPRequest: Sendable {
    /// The header fields as sent, `Host` and the derived ones included, in order.
    public let headerFields: HTTPFields
    /// The request line and header section, ending with the blank line.
    public let head: [UInt8]
    /// The body, if the request has one.
    public let body: RequestBody?

    /// Whether the body goes out with chunked transfer encoding: as the wire
    /// head says, which ``HTTPTypes/HTTPRequest/wireHead(for:)`` derived from
    /// the body.
    public var isChunked: Bool { body != nil && headerFields[.transferEncoding] == "chunked" }

    /// Lays out a request for the wire, deriving its wire head first.
    ///
    /// - Throws: ``RawHTTPRequestError`` if the request has no path, a path
    ///   or authority with characters a request line cannot carry, or more
    ///   than one `Host` field.
    public init(_ request: HTTPRequest, body: RequestBody?) throws(RawHTTPRequestError) {
        self.init(wireHead: try request.wireHead(for: body), body: body)
    }

    /// Lays out a head already derived by ``HTTPTypes/HTTPRequest/wireHead(for:)``
    /// for `body`, writing its fields as they are.
    package init(wireHead request: HTTPRequest, body: RequestBody?) {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        head.append(contentsOf: request.method.rawValue.utf8)
        head.append(UInt8(ascii: " "))
        head.append(contentsOf: (request.path ?? "/").utf8)
        head.append(contentsOf: " HTTP/1.1\r\n".utf8)
        for field in request.headerFields {
            head.append(contentsOf: field.name.rawName.utf8)
            head.append(contentsOf: ": ".utf8)
            head.append(contentsOf: field.value.utf8)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)

        self.headerFields = request.headerFields
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
        // The head is not counted against `limit`, which is the body's.
        let (total, overflow) = head.count.addingReportingOverflow(limit)
        return try await chunks().collectBytes(into: [], upTo: overflow ? Int.max : total) { RequestBodyError.tooLarge(limit: limit) }
    }
}

extension RawHTTPRequest {
    /// The chunks of a serialized request: the head, then the framed body.
    public struct Chunks: AsyncSequence, Sendable {
        /// Each element is one chunk of bytes.
        public typealias Element = [UInt8]

        let head: [UInt8]
        let body: RequestBody.Chunks?
        let isChunked: Bool

        /// Starts reading the chunks from the beginning.
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

            /// The next chunk, or `nil` after the last.
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
