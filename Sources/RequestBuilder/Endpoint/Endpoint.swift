public import Foundation
public import HTTPTypes

/// One operation of an HTTP API, described as a value: where it goes, what it
/// sends, and the type its response decodes to.
///
/// In the spirit of Moya's `TargetType`, with what hand-written layers keep
/// missing: the path is a list of segments, each percent-encoded (never glued
/// from strings); header fields are typed and validated; the response type
/// travels with the endpoint, so a call site needs no annotation:
///
/// ```swift
/// struct GetPost: Endpoint {
///     typealias Response = Post
///     let id: Int
///     var baseURL: URL { URL(string: "https://jsonplaceholder.typicode.com")! }
///     var path: [String] { ["posts", String(id)] }
/// }
/// let post = try await client.send(GetPost(id: 1))  // a Post
/// ```
///
/// Only ``baseURL`` and ``path`` are required; everything else has a default.
public protocol Endpoint: Sendable {
    /// The type the response body decodes to: a `Decodable` model, `Data` for
    /// the raw bytes, `String` for text, or ``EmptyResponse`` when the body is
    /// ignored.
    associatedtype Response: Decodable

    /// The scheme, host, port and any leading path, such as `https://api.example.com/v1`.
    var baseURL: URL { get }

    /// The path segments after the base URL's path, each percent-encoded on its
    /// own: `["posts", "a/b"]` becomes `/posts/a%2Fb`.
    var path: [String] { get }

    /// The request method; `GET` by default.
    var method: HTTPRequest.Method { get }

    /// The body and query parameters; ``HTTPTask/plain`` by default.
    var task: HTTPTask { get }

    /// Header fields to send; none by default. Build them with the validating
    /// helpers, such as `try .authorization(bearer: token)`.
    var headerFields: HTTPFields { get throws(RequestError) }

    /// How long one attempt may take; `nil` (the transport's default) by default.
    var timeout: Duration? { get }

    /// The statuses that count as success; 2xx by default.
    var acceptableStatus: AcceptableStatus { get }

    /// Canned response bytes for stubbing in tests and previews; `nil` by default.
    var sampleData: Data? { get }

    /// The decoder for response bodies; a plain `JSONDecoder` by default.
    /// Return one shared instance, such as ``Foundation/JSONDecoder/snakeCaseISO8601``.
    var decoder: JSONDecoder { get }
}

extension Endpoint {
    /// `GET`.
    public var method: HTTPRequest.Method { .get }
    /// ``HTTPTask/plain``.
    public var task: HTTPTask { .plain }
    /// No header fields.
    public var headerFields: HTTPFields { [:] }
    /// `nil`: the transport's default.
    public var timeout: Duration? { nil }
    /// 2xx.
    public var acceptableStatus: AcceptableStatus { .successful }
    /// `nil`: no sample.
    public var sampleData: Data? { nil }
    /// A plain `JSONDecoder`.
    public var decoder: JSONDecoder { JSONDecoder() }

    /// Builds the request this endpoint describes, through the same
    /// ``HTTPRequestBuilder/build()`` as every other request.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the bad base URL, path segment, header or body.
    public func prepare() throws(RequestError) -> PreparedRequest {
        var builder = HTTPRequestBuilder(method, baseURL)
            .path(path)
            .headers(try headerFields)
            .task(task)
            .acceptingStatus(acceptableStatus)
        if let timeout { builder = builder.timeout(timeout) }
        return try builder.build()
    }

    /// Decodes a received response into ``Response`` with ``decoder``, after
    /// checking its status against ``acceptableStatus``.
    public func decode(_ response: RequestBuilder.Response) throws(RequestError) -> Response {
        try response.validated(by: acceptableStatus).decode(Response.self, using: decoder)
    }

    /// Decodes ``sampleData`` as if a server had answered `200 OK` with it.
    ///
    /// - Throws: ``RequestError`` when there is no sample or it does not decode.
    public func decodeSample() throws(RequestError) -> Response {
        guard let sampleData else {
            throw RequestError.invalidRequest("The endpoint \(Self.self) has no sample data")
        }
        return try RequestBuilder.Response(head: HTTPResponse(status: .ok), body: sampleData).decode(Response.self, using: decoder)
    }
}
