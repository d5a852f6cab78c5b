public import Foundation

extension MultipartFormData {
    /// Appends a part holding `value` encoded as JSON, declared
    /// `application/json`: the way APIs take metadata beside a file (a
    /// `metadata` part next to a `photo` part).
    ///
    /// The value is encoded now, by `RequestBody.json`'s rules: the
    /// default encoder sorts keys, so the same value gives the same bytes.
    ///
    /// - Throws: ``JSONBodyError`` naming the coding path of a value JSON
    ///   cannot hold, such as `items[2].price` for a non-finite `Double`.
    public mutating func append(json value: some Encodable & Sendable, name: String, encoder: JSONEncoder = .deterministic) throws(JSONBodyError) {
        append(try RequestBody.jsonBytes(value, encoder: encoder), name: name, contentType: .json)
    }
}
