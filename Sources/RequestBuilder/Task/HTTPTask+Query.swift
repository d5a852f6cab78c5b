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
}
