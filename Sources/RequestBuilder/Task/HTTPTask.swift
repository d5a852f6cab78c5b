import HTTPBody

/// What a request carries besides its head: a body, query parameters, or
/// both, and whether the body is compressed.
///
/// ```swift
/// var task: HTTPTask { .json(newPost) }
/// var task: HTTPTask { .query([("page", "2")]) }
/// var task: HTTPTask { .multipart(form, query: [("album", "7")]) }
/// var task: HTTPTask { .json(draft).adding(.query([("notify", "false")])) }
/// ```
///
/// A task is a recipe: making one never encodes a value, opens a file or
/// throws. Everything happens when the request is built
/// (``HTTPRequestBuilder/build()``, ``Endpoint/prepare()``), where a
/// failure surfaces as ``RequestError`` with code
/// ``RequestError/Code/invalidRequest``. A struct over private storage, so
/// new kinds of body add no cases to callers' `switch`es, and a body and a
/// query compose freely: `.json(x)` plus `.query(y)` is the composite task.
public struct HTTPTask: Sendable {
    /// Makes the body, when the request is built; every recipe here throws
    /// ``RequestError``s only.
    typealias BodyRecipe = @Sendable () throws -> RequestBody
    /// Makes one piece of the query string (`a=1&b=2`), when the request is
    /// built; it throws ``RequestError`` only.
    typealias QueryRecipe = @Sendable () throws -> String

    /// The body, if any.
    private(set) var bodyRecipe: BodyRecipe?
    /// The query's pieces, in the order they were added.
    private(set) var queryRecipes: [QueryRecipe]
    /// The gzip level to compress the body with, if any.
    private(set) var gzipLevel: Int?

    init(body: BodyRecipe? = nil, query: [QueryRecipe] = [], gzipLevel: Int? = nil) {
        self.bodyRecipe = body
        self.queryRecipes = query
        self.gzipLevel = gzipLevel
    }

    /// No body and no query parameters, as for most `GET` and `DELETE` requests.
    public static let plain = HTTPTask()

    /// A copy with `other`'s query parameters appended and its body and gzip
    /// level, if it has them, in place of this task's:
    /// `.json(post).adding(.query([("draft", "1")]))`.
    public func adding(_ other: HTTPTask) -> HTTPTask {
        var copy = self
        if let body = other.bodyRecipe { copy.bodyRecipe = body }
        copy.queryRecipes += other.queryRecipes
        if let level = other.gzipLevel { copy.gzipLevel = level }
        return copy
    }

    /// A copy whose body is compressed with gzip (RFC 1952) at `level` (0 to 9)
    /// and sent with `Content-Encoding: gzip`; its length is then unknown, so
    /// HTTP/1.1 sends it chunked. A level out of range fails the build.
    public func gzipped(level: Int = 6) -> HTTPTask {
        var copy = self
        copy.gzipLevel = level
        return copy
    }

    /// The body, made now, compressed if asked.
    func makeBody() throws(RequestError) -> RequestBody? {
        guard let bodyRecipe else { return nil }
        let body = try Self.encoding("the body", bodyRecipe)
        guard let gzipLevel else { return body }
        guard (0...9).contains(gzipLevel) else {
            throw RequestError.invalidRequest("The gzip level \(gzipLevel) is out of range; use 0 (store) to 9 (smallest)")
        }
        return body.gzipped(level: gzipLevel)
    }

    /// The query's pieces encoded now, empty ones left out.
    func makeQuery() throws(RequestError) -> [String] {
        var pieces: [String] = []
        for recipe in queryRecipes {
            let piece = try Self.encoding("the query parameters", recipe)
            if !piece.isEmpty { pieces.append(piece) }
        }
        return pieces
    }
}
