public import Foundation
public import HTTPTypes

/// One operation of an HTTP API, described as a value: where it goes, what it
/// sends, and the type its response decodes to.
///
/// In the spirit of Moya's `TargetType`, with what hand-written layers keep
/// missing: the path is a list of segments, each percent-encoded (never glued
/// from strings); header fields are validated; the response type travels with
/// the endpoint, so a call site needs no annotation:
///
/// ```swift
/// struct GetPost: Endpoint {
///     typealias Response = Post
///     let id: Int
///     var baseURL: URL { URL(string: "https://jsonplaceholder.typicode.com")! }
///     var path: [String] { ["posts", String(id)] }
///     var method: HTTPRequest.Method { .get }
///     var task: HTTPTask { .plain }
///     var headers: HTTPFields { [.accept: "application/json"] }
/// }
/// let post = try await client.send(GetPost(id: 1))  // a Post
/// ```
///
/// ## Required and optional members
///
/// What shapes the request on the wire is required — ``baseURL``, ``path``,
/// ``method``, ``task`` and ``headers`` — so a member spelled differently from
/// the requirement does not compile, instead of compiling and being ignored
/// while a default takes its place. The rest have defaults, and each accepts
/// the types people write for it:
///
/// - ``timeout``: a `Duration`, a `TimeInterval` or an `Int` of seconds, or an
///   optional of one (`nil` leaves the transport's default). Any other type
///   makes ``prepare()`` throw, naming it.
/// - ``sampleData``: `Data` or `Data?`.
/// - ``acceptableStatus``: which statuses count as success (2xx by default).
/// - ``decoder``: the `JSONDecoder` for the response.
///
/// ``headers`` may be an `HTTPFields`, a `[String: String]` (Moya's type;
/// sent in name order, each name and value validated), a `[HTTPField]`, or an
/// optional of one, and its getter may throw any error.
///
/// ## Porting from Moya
///
/// `TargetType`'s `baseURL`, `method`, `task` and `sampleData` keep their
/// names; `path` is a list of segments instead of a string; `headers` keeps
/// its name and its `[String: String]?` type; `validationType` becomes
/// ``acceptableStatus``; `timeoutInterval` becomes ``timeout``. The common
/// misspellings and Moya's names (`timout`, `timeoutInterval`,
/// `acceptableStatuses`, `validationType`, `header`, `headerField`) do not
/// compile: the compiler's message names the member to declare instead.
public protocol Endpoint<Response>: Sendable {
    /// The type the response body decodes to: a `Decodable` model, `Data` for
    /// the raw bytes, `String` for text, or ``EmptyResponse`` when the body is
    /// ignored.
    associatedtype Response: Decodable

    /// The type of ``headers``: `HTTPFields`, `[String: String]`,
    /// `[HTTPField]`, or an optional of one.
    ///
    /// The default type only shapes the compiler's message when ``headers``
    /// is missing ("requires property 'headers' with type 'HTTPFields'");
    /// ``headers`` itself has no default.
    associatedtype Headers: HeaderFieldsConvertible = HTTPFields

    /// The type of ``timeout``, inferred from the property's declaration:
    /// `Duration`, `TimeInterval` or `Int` (seconds), or an optional of one.
    associatedtype Timeout = Duration?

    /// The type of ``sampleData``, inferred from the property's declaration:
    /// `Data` or `Data?`.
    associatedtype SampleData = Data?

    /// The scheme, host, port and any leading path, such as `https://api.example.com/v1`.
    var baseURL: URL { get }

    /// The path segments after the base URL's path, each percent-encoded on its
    /// own: `["posts", "a/b"]` becomes `/posts/a%2Fb`.
    var path: [String] { get }

    /// The request method.
    var method: HTTPRequest.Method { get }

    /// The body and query parameters, such as ``HTTPTask/plain`` or
    /// ``HTTPTask/json(_:encoder:)``.
    var task: HTTPTask { get }

    /// The header fields to send: `[:]` for none. An error the getter throws
    /// is reported by ``prepare()`` as ``RequestError/Code/invalidRequest``.
    var headers: Headers { get throws }

    /// How long one attempt may take; `nil`, the transport's default, unless
    /// the endpoint says otherwise.
    var timeout: Timeout { get }

    /// The statuses that count as success; 2xx by default.
    var acceptableStatus: AcceptableStatus { get }

    /// Canned response bytes for stubbing in tests and previews; `nil` by default.
    var sampleData: SampleData { get }

    /// The decoder for response bodies; a plain `JSONDecoder` by default.
    /// Return one shared instance, such as `JSONDecoder.snakeCaseISO8601`.
    var decoder: JSONDecoder { get }

    // Near misses of the members above: each misspelling is a requirement
    // whose type is inferred from a conformer's member of that name, and
    // whose check has an available default only while that type is
    // `NotAnEndpointMember` (no such member declared). A conformer that
    // declares one is left with the unavailable default, whose message names
    // the member it meant (Endpoint+NearMisses.swift).

    /// Not a member: the type of a misspelt `timout`.
    @_documentation(visibility: internal)
    associatedtype _Timout = NotAnEndpointMember
    /// Not a member: a misspelling of ``timeout``.
    @_documentation(visibility: internal)
    var timout: _Timout { get }
    /// Holds when the endpoint declares no `timout`.
    @_documentation(visibility: internal)
    var _declaresNoTimout: Void { get }

    /// Not a member: the type of Moya's `timeoutInterval`.
    @_documentation(visibility: internal)
    associatedtype _TimeoutInterval = NotAnEndpointMember
    /// Not a member: Moya's spelling of ``timeout``.
    @_documentation(visibility: internal)
    var timeoutInterval: _TimeoutInterval { get }
    /// Holds when the endpoint declares no `timeoutInterval`.
    @_documentation(visibility: internal)
    var _declaresNoTimeoutInterval: Void { get }

    /// Not a member: the type of a misspelt `acceptableStatuses`.
    @_documentation(visibility: internal)
    associatedtype _AcceptableStatuses = NotAnEndpointMember
    /// Not a member: a misspelling of ``acceptableStatus``.
    @_documentation(visibility: internal)
    var acceptableStatuses: _AcceptableStatuses { get }
    /// Holds when the endpoint declares no `acceptableStatuses`.
    @_documentation(visibility: internal)
    var _declaresNoAcceptableStatuses: Void { get }

    /// Not a member: the type of Moya's `validationType`.
    @_documentation(visibility: internal)
    associatedtype _ValidationType = NotAnEndpointMember
    /// Not a member: Moya's counterpart of ``acceptableStatus``.
    @_documentation(visibility: internal)
    var validationType: _ValidationType { get }
    /// Holds when the endpoint declares no `validationType`.
    @_documentation(visibility: internal)
    var _declaresNoValidationType: Void { get }

    /// Not a member: the type of a misspelt `header`.
    @_documentation(visibility: internal)
    associatedtype _Header = NotAnEndpointMember
    /// Not a member: a misspelling of ``headers``.
    @_documentation(visibility: internal)
    var header: _Header { get }
    /// Holds when the endpoint declares no `header`.
    @_documentation(visibility: internal)
    var _declaresNoHeader: Void { get }

    /// Not a member: the type of a misspelt `headerField`.
    @_documentation(visibility: internal)
    associatedtype _HeaderField = NotAnEndpointMember
    /// Not a member: a misspelling of ``headers``.
    @_documentation(visibility: internal)
    var headerField: _HeaderField { get }
    /// Holds when the endpoint declares no `headerField`.
    @_documentation(visibility: internal)
    var _declaresNoHeaderField: Void { get }
}

extension Endpoint where Timeout == Duration? {
    /// `nil`: the transport's default.
    public var timeout: Duration? { nil }
}

extension Endpoint where SampleData == Data? {
    /// `nil`: no sample.
    public var sampleData: Data? { nil }
}

extension Endpoint {
    /// 2xx.
    public var acceptableStatus: AcceptableStatus { .successful }
    /// A plain `JSONDecoder`.
    public var decoder: JSONDecoder { JSONDecoder() }

    /// Builds the request this endpoint describes, through the same
    /// ``HTTPRequestBuilder/build()`` as every other request.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the bad base URL, path segment, header, timeout or body.
    public func prepare() throws(RequestError) -> PreparedRequest {
        var builder = HTTPRequestBuilder(method, baseURL)
            .path(path)
            .headers(try validatedHeaders())
            .task(task)
            .acceptingStatus(acceptableStatus)
        if let timeout = try EndpointSetting.duration(of: timeout, in: Self.self) {
            builder = builder.timeout(timeout)
        }
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
        guard let sample = try sampleBytes() else {
            throw RequestError.invalidRequest("The endpoint \(Self.self) has no sample data")
        }
        return try RequestBuilder.Response(head: HTTPResponse(status: .ok), body: sample).decode(Response.self, using: decoder)
    }

    /// ``sampleData`` as bytes, whichever of its types the endpoint declares.
    ///
    /// - Throws: ``RequestError`` when ``sampleData`` has a type other than
    ///   `Data` or `Data?`.
    public func sampleBytes() throws(RequestError) -> Data? {
        try EndpointSetting.data(of: sampleData, in: Self.self)
    }

    /// ``headers`` as validated fields, an error from their getter reported as
    /// an invalid request naming the endpoint.
    private func validatedHeaders() throws(RequestError) -> HTTPFields {
        let headers: Headers
        do {
            headers = try self.headers
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError.invalidRequest("The headers of endpoint \(Self.self) could not be made: \(error)", underlying: error)
        }
        return try headers.headerFields()
    }
}
