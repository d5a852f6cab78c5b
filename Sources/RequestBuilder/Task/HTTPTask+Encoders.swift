public import Foundation

extension HTTPTask {
    /// A JSON body (`application/json`) encoded from `value` by
    /// `RequestBody.json`, with `encoder` when given.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> HTTPTask {
        HTTPTask(body: .encoded(kind: "JSON") {
            if let encoder { try RequestBody.json(value, encoder: encoder) } else { try RequestBody.json(value) }
        })
    }

    /// Query parameters encoded from `value`'s properties by `encoder`
    /// (its strategies decide how arrays, dates and nested values look).
    public static func query(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(query: [QueryPart { try encoder.encode(value) }])
    }

    /// Query parameters from name-value pairs, in order; a name may repeat.
    public static func query(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(query: [QueryPart { encoder.encode(pairs) }])
    }

    /// A JSON body and query parameters: the composite task.
    public static func composite(
        json value: some Encodable & Sendable,
        encoder: JSONEncoder? = nil,
        query: some Encodable & Sendable,
        queryEncoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> HTTPTask {
        HTTPTask.json(value, encoder: encoder).adding(.query(query, encoder: queryEncoder))
    }

    /// A JSON body and query parameters from pairs: the composite task.
    public static func composite(
        json value: some Encodable & Sendable,
        encoder: JSONEncoder? = nil,
        query: [(String, String)],
        queryEncoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> HTTPTask {
        HTTPTask.json(value, encoder: encoder).adding(.query(query, encoder: queryEncoder))
    }

    /// An `application/x-www-form-urlencoded` body encoded from `value`'s properties.
    public static func form(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(body: .encoded(kind: "form") { try RequestBody.form(value, encoder: encoder) })
    }

    /// An `application/x-www-form-urlencoded` body from name-value pairs, in order.
    public static func form(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(body: .encoded(kind: "form") { RequestBody.form(pairs, encoder: encoder) })
    }

    /// A copy with `other`'s query parameters appended and its body, if it has
    /// one, in place of this task's: `.json(post).adding(.query(["draft": "1"]))`.
    public func adding(_ other: HTTPTask) -> HTTPTask {
        var copy = self
        if let body = other.body { copy.body = body }
        copy.query += other.query
        if let level = other.gzipLevel { copy.gzipLevel = level }
        return copy
    }
}
