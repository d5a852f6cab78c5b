public import Foundation
public import HTTPBody

extension HTTPTask {
    /// Query parameters encoded from `value`'s properties by `encoder`
    /// (its strategies decide how arrays, dates and nested values look).
    public static func query(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(query: [{ try encoding("the query parameters") { try encoder.encode(value) } }])
    }

    /// Query parameters from name-value pairs, in order; a name may repeat.
    public static func query(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask(query: [{ encoder.encode(pairs) }])
    }

    /// A JSON body and query parameters: the composite task, the same as
    /// `.json(value, encoder: encoder).adding(.query(query, encoder: queryEncoder))`.
    public static func composite(
        json value: some Encodable & Sendable,
        encoder: JSONEncoder? = nil,
        query: some Encodable & Sendable,
        queryEncoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> HTTPTask {
        .json(value, encoder: encoder).adding(.query(query, encoder: queryEncoder))
    }

    /// A JSON body and query parameters from pairs: the composite task.
    public static func composite(
        json value: some Encodable & Sendable,
        encoder: JSONEncoder? = nil,
        query: [(String, String)],
        queryEncoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> HTTPTask {
        .json(value, encoder: encoder).adding(.query(query, encoder: queryEncoder))
    }
}
