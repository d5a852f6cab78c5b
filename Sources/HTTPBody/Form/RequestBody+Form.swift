extension RequestBody {
    /// A body holding `value` form-encoded, sent as
    /// `application/x-www-form-urlencoded`.
    ///
    /// - Throws: ``URLEncodedFormError`` naming the key path at fault.
    public static func form(
        _ value: some Encodable,
        encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) throws(URLEncodedFormError) -> RequestBody {
        .bytes(Array(try encoder.encode(value).utf8), contentType: .formURLEncoded)
    }

    /// A body holding names and values form-encoded in the given order (or
    /// sorted, if the encoder says so), sent as `application/x-www-form-urlencoded`.
    public static func form(
        _ pairs: [(String, String)],
        encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> RequestBody {
        .bytes(Array(encoder.encode(pairs).utf8), contentType: .formURLEncoded)
    }
}
