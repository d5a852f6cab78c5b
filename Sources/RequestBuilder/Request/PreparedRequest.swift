public import Foundation

/// A request ready to send: the head, the body, and how to judge the answer.
///
/// Endpoints and the builder both produce a `PreparedRequest`; transports
/// send one; middleware may change it on the way.
public struct PreparedRequest: Sendable {
    /// The method, URL parts and header fields.
    public var head: HTTPRequest
    /// The body, if the request has one.
    public var body: RequestBody?
    /// How long one attempt may take, or `nil` for the transport's default.
    public var timeout: Duration?
    /// The response statuses that count as success.
    public var acceptableStatus: AcceptableStatus

    /// Creates a prepared request.
    public init(
        head: HTTPRequest,
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        acceptableStatus: AcceptableStatus = .successful
    ) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.acceptableStatus = acceptableStatus
    }

    /// The full URL, from the head's scheme, authority and path.
    public var url: URL? { head.url }

    /// The request as HTTP/1.1 would put it on the wire; see `RawHTTPRequest`.
    public func raw() throws(RequestError) -> RawHTTPRequest {
        do {
            return try RawHTTPRequest(head, body: body)
        } catch {
            throw RequestError.invalidRequest(error.description)
        }
    }
}

/// The response statuses a request accepts as success; others fail with
/// ``RequestError/Code/unacceptableStatus``.
public struct AcceptableStatus: Sendable, Hashable {
    private let codes: Set<Int>?

    private init(codes: Set<Int>?) { self.codes = codes }

    /// 200 to 299.
    public static let successful = AcceptableStatus(codes: Set(200..<300))
    /// Every status: the caller inspects the response itself.
    public static let any = AcceptableStatus(codes: nil)
    /// Exactly these codes.
    public static func codes(_ codes: some Sequence<Int>) -> AcceptableStatus { AcceptableStatus(codes: Set(codes)) }

    /// Whether the status counts as success.
    public func accepts(_ status: HTTPResponse.Status) -> Bool {
        codes?.contains(status.code) ?? true
    }
}
