public import HTTPTypes

/// A type an endpoint's ``Endpoint/headers`` can have: one that becomes
/// header fields, each name and value checked.
///
/// `HTTPFields`, `[HTTPField]`, `[String: String]` and optionals of them
/// conform; conform a type of your own to describe headers your way.
public protocol HeaderFieldsConvertible {
    /// The header fields, in the order they are sent.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``)
    ///   naming a header whose name or value cannot be sent.
    func headerFields() throws(RequestError) -> HTTPFields
}

extension HTTPFields: HeaderFieldsConvertible {
    /// The fields themselves.
    public func headerFields() throws(RequestError) -> HTTPFields { self }
}

extension Array: HeaderFieldsConvertible where Element == HTTPField {
    /// The fields in array order.
    public func headerFields() throws(RequestError) -> HTTPFields { HTTPFields(self) }
}

extension Dictionary: HeaderFieldsConvertible where Key == String, Value == String {
    /// One field a pair, in name order (a dictionary has none of its own, and
    /// the same request must give the same bytes), each validated.
    public func headerFields() throws(RequestError) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in sorted(by: { $0.key < $1.key }) {
            fields.append(try .validated(name, value))
        }
        return fields
    }
}

extension Optional: HeaderFieldsConvertible where Wrapped: HeaderFieldsConvertible {
    /// The wrapped value's fields, or none.
    public func headerFields() throws(RequestError) -> HTTPFields {
        try self?.headerFields() ?? HTTPFields()
    }
}
