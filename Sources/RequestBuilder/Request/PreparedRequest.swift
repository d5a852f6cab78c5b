public import Foundation
public import HTTPBody
public import HTTPTypes

/// A request ready to send: its head as it goes on the wire, its body, and
/// how to judge the answer.
///
/// Every request reaches transports through this one shape: the builder,
/// endpoints and the `uploader` tool all make one with
/// ``HTTPRequestBuilder/build()``. The head is derived once, when the request
/// is made (`HTTPRequest.wireHead(for:)`, in HTTPBody): `Host`, and the
/// `Content-Type`, `Content-Encoding` and `Content-Length` (or
/// `Transfer-Encoding: chunked`) the body implies. Transports, ``raw()``,
/// `urlRequest()` and `curlCommand()` all read that head, so a dry run shows
/// what the wire carries.
///
/// Nothing else makes or rewrites one: a transform that must change a
/// prepared request (middleware adding `Authorization`, a signer, a protocol
/// that sends the body in parts) goes through ``updating(_:)`` or
/// ``updating(body:_:)``, which derive the head again the same way and
/// refuse a change to `Host` or the framing fields.
public struct PreparedRequest: Sendable {
    /// The method, URL parts and header fields as sent, derived fields
    /// included. Change it with ``updating(_:)``; the framing fields belong
    /// to ``body``.
    public private(set) var head: HTTPRequest
    /// The body, if the request has one.
    public let body: RequestBody?
    /// How long one attempt may take, or `nil` for no limit but the
    /// transport's connect timeout. It bounds the whole exchange, as curl's
    /// `--max-time` does: connecting, sending the body, receiving the head
    /// and reading the whole response body, also the body of a
    /// ``StreamedResponse`` read after the head has been returned (a read
    /// past the limit fails with ``RequestError/Code/timedOut``).
    /// Change it with ``updating(timeout:)``.
    public private(set) var timeout: Duration?
    /// The response statuses that count as success. Change them with
    /// ``updating(acceptableStatus:)``.
    public private(set) var acceptableStatus: AcceptableStatus
    /// The header fields and query parameters that carry credentials
    /// (``LoggingMiddleware/Redaction/default`` unless the builder's
    /// ``HTTPRequestBuilder/redacting(_:)`` chose others): the one list
    /// behind every error's description of this request, logging, and the
    /// fields a redirect to another origin drops.
    public private(set) var redaction: LoggingMiddleware.Redaction

    /// Creates a request from a head and a body, deriving the fields the body
    /// and the authority imply; fields the head already has (a `Content-Type`
    /// of its own) win, framing fields excepted. The builder's door: outside
    /// this module a request is built with ``HTTPRequestBuilder``.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) when
    ///   the path or authority has bytes a request cannot carry, or the head
    ///   has more than one `Host` field.
    init(
        head: HTTPRequest,
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        acceptableStatus: AcceptableStatus = .successful,
        redaction: LoggingMiddleware.Redaction = .default
    ) throws(RequestError) {
        self.redaction = redaction
        do {
            self.head = try head.wireHead(for: body)
        } catch {
            throw RequestError.invalidRequest(redaction.redactingURLs(in: error.description), underlying: error)
        }
        self.body = body
        self.timeout = timeout
        self.acceptableStatus = acceptableStatus
    }

    // The two setters sit beside the stored properties: `private(set)`
    // leaves no other code in the module a way to change them.

    /// This request with `timeout` as its limit for one attempt (see
    /// ``timeout``); its head and body as they are.
    public func updating(timeout: Duration?) -> PreparedRequest {
        var changed = self
        changed.timeout = timeout
        return changed
    }

    /// This request accepting `acceptableStatus` as success; its head and
    /// body as they are.
    public func updating(acceptableStatus: AcceptableStatus) -> PreparedRequest {
        var changed = self
        changed.acceptableStatus = acceptableStatus
        return changed
    }

    /// The full URL, from the head's scheme, authority and path.
    public var url: URL? { head.url }

    /// The request as HTTP/1.1 puts it on the wire: ``head`` written as it
    /// is, then the body; see `RawHTTPRequest`.
    public func raw() -> RawHTTPRequest {
        RawHTTPRequest(wireHead: head, body: body)
    }
}
