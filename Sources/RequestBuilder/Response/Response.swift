public import Foundation
public import HTTPTypes

/// What a server answered: the status and header fields, and the body bytes.
public struct Response: Sendable {
    /// The status line and header fields.
    public var head: HTTPResponse
    /// The body, as received.
    public var body: Data

    /// Creates a response.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    /// The status, such as `200 OK`.
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    public var headerFields: HTTPFields { head.headerFields }

    /// The largest body read into memory unless a caller chooses another
    /// limit: 64 MiB. Larger downloads belong in ``StreamedResponse``.
    public static let defaultMaximumBodySize = 64 * 1024 * 1024
}
