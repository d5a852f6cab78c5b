public import Foundation
public import HTTPBody
public import HTTPTypes
public import SystemPackage

/// A request described step by step, for calls not worth an ``Endpoint`` type.
///
/// A value type: every call returns a modified copy, so a partly built
/// request can be shared and extended safely. Nothing is validated, encoded
/// or read from disk until ``build()``, which reports the first problem as a
/// ``RequestError`` naming the culprit. ``build()`` is the one funnel every
/// request goes through: ``Endpoint/prepare()`` and the `uploader` tool
/// build theirs here too.
///
/// ```swift
/// let request = try HTTPRequestBuilder.post("https://api.example.com")
///     .path("posts")
///     .bearer(token)
///     .json(NewPost(title: "Hello"))
///     .build()
/// ```
///
/// The type is not named after its module (`RequestBuilder`), so that
/// `RequestBuilder.Response` keeps naming the module's response type.
public struct HTTPRequestBuilder: Sendable {
    private var method: HTTPRequest.Method
    /// The base URL, or the text given for it when that is not a URL.
    private var baseURL: Result<URL, InvalidBaseURL>
    private var pathSegments: [String] = []
    private var fields: [PendingField] = []
    private var task = HTTPTask.plain
    private var timeoutDuration: Duration?
    private var acceptableStatus = AcceptableStatus.successful
    /// Whether the body waits for `100 Continue`; `nil`: when it is over the threshold.
    private var waitsForContinue: Bool?
    private var redaction = LoggingMiddleware.Redaction.default

    /// A header field kept as given until ``build()`` validates it.
    private enum PendingField: Sendable {
        case text(name: String, value: String)
        case named(HTTPField.Name, value: String)
        case field(HTTPField)
        case failed(RequestError)
    }

    /// Starts a request to `baseURL`, `GET` by default.
    public init(_ method: HTTPRequest.Method = .get, _ baseURL: URL) {
        self.method = method
        self.baseURL = .success(baseURL)
    }

    /// Starts a request to the URL in `baseURL`; a string that is not a URL
    /// fails at ``build()``.
    public init(_ method: HTTPRequest.Method = .get, _ baseURL: String) {
        self.method = method
        if let url = URL(string: baseURL) {
            self.baseURL = .success(url)
        } else {
            self.baseURL = .failure(InvalidBaseURL(text: baseURL))
        }
    }

    /// A `GET` request to `baseURL`.
    public static func get(_ baseURL: String) -> HTTPRequestBuilder { HTTPRequestBuilder(.get, baseURL) }
    /// A `POST` request to `baseURL`.
    public static func post(_ baseURL: String) -> HTTPRequestBuilder { HTTPRequestBuilder(.post, baseURL) }
    /// A `PUT` request to `baseURL`.
    public static func put(_ baseURL: String) -> HTTPRequestBuilder { HTTPRequestBuilder(.put, baseURL) }
    /// A `PATCH` request to `baseURL`.
    public static func patch(_ baseURL: String) -> HTTPRequestBuilder { HTTPRequestBuilder(.patch, baseURL) }
    /// A `DELETE` request to `baseURL`.
    public static func delete(_ baseURL: String) -> HTTPRequestBuilder { HTTPRequestBuilder(.delete, baseURL) }

    // MARK: Method and path

    /// A copy with the method replaced.
    public func method(_ method: HTTPRequest.Method) -> HTTPRequestBuilder {
        with { $0.method = method }
    }

    /// A copy with path segments appended, each percent-encoded on its own:
    /// `.path("users", name)` stays two segments whatever `name` holds.
    public func path(_ segments: String...) -> HTTPRequestBuilder {
        path(segments)
    }

    /// A copy with path segments appended, each percent-encoded on its own.
    public func path(_ segments: [String]) -> HTTPRequestBuilder {
        with { $0.pathSegments += segments }
    }

    // MARK: Query

    /// A copy with one query parameter appended (form-urlencoded, after any
    /// already present).
    public func query(_ name: String, _ value: String) -> HTTPRequestBuilder {
        task(.query([(name, value)]))
    }

    /// A copy with query parameters appended, in order.
    public func query(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPRequestBuilder {
        task(.query(pairs, encoder: encoder))
    }

    /// A copy with query parameters encoded from a value's properties.
    public func query(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPRequestBuilder {
        task(.query(value, encoder: encoder))
    }

    // MARK: Header fields

    /// A copy with a header field appended; the name and value are validated
    /// by ``build()``.
    public func header(_ name: String, _ value: String) -> HTTPRequestBuilder {
        with { $0.fields.append(.text(name: name, value: value)) }
    }

    /// A copy with a header field appended; the value is validated by ``build()``.
    public func header(_ name: HTTPField.Name, _ value: String) -> HTTPRequestBuilder {
        with { $0.fields.append(.named(name, value: value)) }
    }

    /// A copy with `(name, value)` header fields appended in order, each
    /// validated by ``build()`` as a single `header(name, value)` is: one
    /// copy of the builder for all of them, where a call per field copies
    /// the fields each time.
    public func headers(_ pairs: [(String, String)]) -> HTTPRequestBuilder {
        with { $0.fields += pairs.map { .text(name: $0.0, value: $0.1) } }
    }

    /// A copy with header fields appended.
    public func headers(_ fields: HTTPFields) -> HTTPRequestBuilder {
        with { $0.fields += fields.map { .field($0) } }
    }

    /// A copy with `Authorization: Bearer <token>` (RFC 6750).
    public func bearer(_ token: String) -> HTTPRequestBuilder {
        adding { () throws(RequestError) in try .authorization(bearer: token) }
    }

    /// A copy with Basic authorization (RFC 7617).
    public func basic(username: String, password: String) -> HTTPRequestBuilder {
        adding { () throws(RequestError) in try .authorization(username: username, password: password) }
    }

    /// A copy with `Accept` set to `types`, in order of preference.
    public func accept(_ types: MediaType...) -> HTTPRequestBuilder {
        adding { () throws(RequestError) in try .validated(.accept, types.map(\.description).joined(separator: ", ")) }
    }

    /// A copy with `Content-Type` set to `type`, overriding the type the body declares.
    public func contentType(_ type: MediaType) -> HTTPRequestBuilder {
        adding { () throws(RequestError) in try .contentType(type) }
    }

    /// A copy with `User-Agent`.
    public func userAgent(_ value: String) -> HTTPRequestBuilder {
        adding { () throws(RequestError) in try .userAgent(value) }
    }

    // MARK: Body

    /// A copy whose body and query come from `task`: the task's body replaces
    /// any body set before, its query parameters are appended.
    public func task(_ task: HTTPTask) -> HTTPRequestBuilder {
        with { $0.task = $0.task.adding(task) }
    }

    /// A copy with a JSON body; see ``HTTPTask/json(_:encoder:)``.
    public func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> HTTPRequestBuilder {
        task(.json(value, encoder: encoder))
    }

    /// A copy with an `application/x-www-form-urlencoded` body from a value's properties.
    public func form(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPRequestBuilder {
        task(.form(value, encoder: encoder))
    }

    /// A copy with an `application/x-www-form-urlencoded` body from pairs, in order.
    public func form(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPRequestBuilder {
        task(.form(pairs, encoder: encoder))
    }

    /// A copy with bytes in memory as the body.
    public func data(_ data: Data, contentType: MediaType? = .octetStream) -> HTTPRequestBuilder {
        task(.data(data, contentType: contentType))
    }

    /// A copy with a file as the body, streamed from disk; it is opened by ``build()``.
    public func file(at url: URL, contentType: MediaType? = nil) -> HTTPRequestBuilder {
        task(.file(at: url, contentType: contentType))
    }

    /// A copy with a file named by its path's bytes (which need not be UTF-8)
    /// as the body, streamed from disk; it is opened by ``build()``.
    public func file(atPath path: FilePath, contentType: MediaType? = nil) -> HTTPRequestBuilder {
        task(.file(atPath: path, contentType: contentType))
    }

    /// A copy with a body made elsewhere, such as a stream.
    public func body(_ body: RequestBody) -> HTTPRequestBuilder {
        task(.body(body))
    }

    /// A copy whose body is gzip-compressed (RFC 1952) at `level` 0 to 9.
    public func gzip(level: Int = 6) -> HTTPRequestBuilder {
        with { $0.task = $0.task.gzipped(level: level) }
    }

    // MARK: Sending

    /// A copy with a time limit for one attempt.
    public func timeout(_ duration: Duration) -> HTTPRequestBuilder {
        with { $0.timeoutDuration = duration }
    }

    /// A copy that says whether the body waits for the server's `100
    /// Continue` before it is sent (RFC 9110, section 10.1.1).
    ///
    /// Without this call a body over ``continueThreshold`` goes with
    /// `Expect: 100-continue`, as curl sends
    /// it: `AsyncHTTPClientTransport` then holds the body up to one second
    /// for `100 Continue` or a final answer, so a server that refuses the
    /// upload (401, 413) is answered before any of the body is sent. An
    /// `Expect` field of the request's own wins over both.
    ///
    /// - Parameter waits: `true` for every body, `false` for none.
    public func waitingForContinue(_ waits: Bool) -> HTTPRequestBuilder {
        with { $0.waitsForContinue = waits }
    }

    /// The body size past which a request sends `Expect: 100-continue`
    /// unless told otherwise: 1 MiB, curl's threshold.
    public static let continueThreshold: Int64 = 1024 * 1024

    /// A copy that accepts `status` as success instead of 2xx.
    public func acceptingStatus(_ status: AcceptableStatus) -> HTTPRequestBuilder {
        with { $0.acceptableStatus = status }
    }

    /// A copy whose credentials are the header fields and query parameters
    /// `redaction` names, instead of ``LoggingMiddleware/Redaction/default``:
    /// their values never appear in the request's errors or logs, and a
    /// redirect to another origin drops those fields.
    public func redacting(_ redaction: LoggingMiddleware.Redaction) -> HTTPRequestBuilder {
        with { $0.redaction = redaction }
    }

    /// Builds the request: validates the header fields, the base URL and the
    /// path, encodes the query and the body (opening any file it reads), and
    /// derives the head as it goes on the wire.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the bad base URL, path segment, header or body.
    public func build() throws(RequestError) -> PreparedRequest {
        let headerFields = try validatedHeaderFields()
        let url: URL
        switch baseURL {
        case .success(let given): url = given
        case .failure(let invalid):
            throw .invalidRequest("The base URL \(redaction.redactingURLs(in: invalid.text).debugDescription) is not a valid URL")
        }
        let base = try BaseURL(url, redaction: redaction)
        let target = try base.target.appending(segments: pathSegments, query: task.makeQuery())
        var fields = headerFields
        let body = try task.makeBody()
        if let body, fields[.expect] == nil, waitsForContinue ?? (body.length.map { $0 > Self.continueThreshold } ?? false) {
            fields[.expect] = "100-continue"
        }
        let head = HTTPRequest(method: method, scheme: base.scheme, authority: base.authority, path: target.text, headerFields: fields)
        return try PreparedRequest(head: head, body: body, timeout: timeoutDuration, acceptableStatus: acceptableStatus, redaction: redaction)
    }

    /// The header fields, each name and value checked; framing fields are refused.
    private func validatedHeaderFields() throws(RequestError) -> HTTPFields {
        var headerFields = HTTPFields()
        for pending in fields {
            switch pending {
            case .text(let name, let value):
                headerFields.append(try .validated(name, value))
            case .named(let name, let value):
                headerFields.append(try .validated(name, value))
            case .field(let field):
                headerFields.append(field)
            case .failed(let error):
                throw error
            }
        }
        try HeaderValidation.checkNotFraming(headerFields)
        return headerFields
    }

    // MARK: Helpers

    private func with(_ change: (inout HTTPRequestBuilder) -> Void) -> HTTPRequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }

    private func adding(_ makeField: () throws(RequestError) -> HTTPField) -> HTTPRequestBuilder {
        let pending: PendingField
        do {
            pending = .field(try makeField())
        } catch {
            pending = .failed(error)
        }
        return with { $0.fields.append(pending) }
    }
}

extension HTTPRequestBuilder {
    /// A copy with a `multipart/form-data` body (RFC 7578) whose parts `build` appends.
    ///
    /// ```swift
    /// .multipart { form in
    ///     form.append("Sunset", name: "title")
    ///     try form.appendFile(at: photoURL, name: "photo")
    /// }
    /// ```
    /// `build` runs when the request is built, and an error it throws (a
    /// missing file) is reported by ``build()``.
    /// - Parameters:
    ///   - boundary: The boundary; random by default, `.constant(_:)` for reproducible output.
    ///   - build: Appends the parts to the form, when the request is built.
    public func multipart(
        boundary: MultipartBoundary = .random(),
        _ build: @escaping @Sendable (inout MultipartFormData) throws -> Void
    ) -> HTTPRequestBuilder {
        task(.multipart(boundary: boundary, build))
    }

    /// A copy with a prepared `multipart/form-data` body.
    public func multipart(_ form: MultipartFormData) -> HTTPRequestBuilder {
        task(.multipart(form))
    }
}

/// A base URL given as text that is not a URL, named when the request is built.
private struct InvalidBaseURL: Error {
    let text: String
}
