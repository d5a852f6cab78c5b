import Foundation
public import HTTPTypes

/// A response whose head has arrived and whose body is read as it comes:
/// what ``RequestClient/stream(_:progress:)`` and every ``HTTPTransport`` return.
///
/// Use it for downloads of any size, which ``Response`` would hold in memory;
/// ``collect(upTo:)`` turns it into a ``Response``.
public struct StreamedResponse: Sendable {
    /// The status line and header fields.
    public var head: HTTPResponse
    /// The body, not read yet.
    public var body: ResponseBody
    /// The HTTP version the exchange went over, as a status line writes it
    /// (`HTTP/1.1`, `HTTP/2`), when the transport tells it; `nil` when it
    /// does not (URLSession, a stub).
    public var protocolVersion: String?

    /// Creates a streamed response.
    public init(head: HTTPResponse, body: ResponseBody, protocolVersion: String? = nil) {
        self.head = head
        self.body = body
        self.protocolVersion = protocolVersion
    }

    /// A response whose body is already in memory, such as a stub's.
    public init(_ response: Response) {
        self.init(head: response.head, body: ResponseBody(response.body))
    }

    /// The status, such as `200 OK`.
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    public var headerFields: HTTPFields { head.headerFields }

    /// Reads the body into memory.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/responseTooLarge``)
    ///   once the body passes `limit` bytes, or the transport's error.
    public func collect(upTo limit: Int = Response.defaultMaximumBodySize) async throws -> Response {
        Response(head: head, body: try await body.collect(upTo: limit))
    }
}
