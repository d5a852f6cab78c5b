public import Foundation

/// What a request carries besides its head: the body, the query parameters,
/// or both, each handed to its dedicated encoder from `HTTPBody` when the
/// request is built.
///
/// ```swift
/// var task: HTTPTask { .json(newPost) }
/// var task: HTTPTask { .query([("page", "2")]) }
/// var task: HTTPTask { .multipart(form, query: [("album", "7")]) }
/// var task: HTTPTask { .json(draft).adding(.query([("notify", "false")])) }
/// ```
///
/// `HTTPTask` is a struct over private storage rather than an enum, so new
/// kinds of body can be added without breaking exhaustive `switch`es in
/// callers' code, and so a body and a query compose freely (`.json(x)` plus
/// `.query(y)` is the "composite" task). Making a task never throws: encoding
/// happens when the request is built, and a failure then surfaces as
/// ``RequestError`` with code ``RequestError/Code/invalidRequest``.
public struct HTTPTask: Sendable {
    /// The body, if any, kept in the form its encoder takes.
    var body: Body?
    /// Encoded query parts, in the order they were added.
    var query: [QueryPart]
    /// The gzip level to compress the body with, if any.
    var gzipLevel: Int?

    init(body: Body? = nil, query: [QueryPart] = [], gzipLevel: Int? = nil) {
        self.body = body
        self.query = query
        self.gzipLevel = gzipLevel
    }

    /// No body and no query parameters, as for most `GET` and `DELETE` requests.
    public static let plain = HTTPTask()

    /// Bytes already in memory, sent as they are.
    ///
    /// - Parameter contentType: The type to declare; `application/octet-stream` by default.
    public static func data(_ data: Data, contentType: MediaType? = .octetStream) -> HTTPTask {
        HTTPTask(body: .data(data, contentType))
    }

    /// A file streamed from disk a chunk at a time, never loaded into memory.
    ///
    /// The file is opened when the request is built; a missing or unreadable
    /// file fails the build with an error naming it.
    /// - Parameter contentType: The type to declare; `application/octet-stream` when `nil`.
    public static func file(at url: URL, contentType: MediaType? = nil) -> HTTPTask {
        HTTPTask(body: .file(url, contentType))
    }

    /// A body made elsewhere, such as a stream (`RequestBody.stream`).
    public static func body(_ body: RequestBody) -> HTTPTask {
        HTTPTask(body: .prepared(body))
    }

    /// A copy whose body is compressed with gzip (RFC 1952) at `level` (0 to 9)
    /// and sent with `Content-Encoding: gzip`; its length is then unknown, so
    /// HTTP/1.1 sends it chunked.
    public func gzipped(level: Int = 6) -> HTTPTask {
        var copy = self
        copy.gzipLevel = level
        return copy
    }

    /// Whether the task has a body.
    public var hasBody: Bool { body != nil }
}

extension HTTPTask {
    /// The kinds of body a task can hold.
    enum Body: Sendable {
        /// A JSON or form body, encoded on demand; `kind` names it in errors.
        case encoded(kind: String, encode: @Sendable () throws -> RequestBody)
        /// A multipart form, streamed by `RequestBody.multipart`.
        case multipart(MultipartFormData)
        /// Bytes in memory.
        case data(Data, MediaType?)
        /// A file, opened when the request is built.
        case file(URL, MediaType?)
        /// A body made by the caller.
        case prepared(RequestBody)
        /// A body whose description already failed (a multipart file that could not be added).
        case failed(RequestError)
    }

    /// One piece of a query string: already-encoded text, or text still to encode.
    struct QueryPart: Sendable {
        /// Produces the `a=1&b=2` text of this part.
        let encode: @Sendable () throws -> String
    }
}
