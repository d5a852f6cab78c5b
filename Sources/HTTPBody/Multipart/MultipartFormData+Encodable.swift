extension MultipartFormData {
    /// Appends a text field for every value in an `Encodable` value, for
    /// forms described as a struct.
    ///
    /// The names and values are those `encoder` writes in a form body or a
    /// query string (one engine for all three): nested values become
    /// `a[b]`, array elements `a[]`, booleans `1` and `0`, dates ISO 8601,
    /// `Data` Base64, and `nil` is left out, unless the encoder's strategies
    /// say otherwise. They are not percent-encoded: a part carries its name
    /// and text as they are (RFC 7578). A name written alone (the
    /// `.keyOnly` nil strategy) becomes an empty field.
    ///
    /// - Throws: ``URLEncodedFormError`` naming the key path at fault: a
    ///   top-level value that is not keyed fields, a dictionary whose keys
    ///   are not strings, a non-finite number, a custom strategy that threw.
    public mutating func appendFields(from value: some Encodable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) throws(URLEncodedFormError) {
        for pair in try encoder.pairs(encoding: value) {
            append(pair.value ?? "", name: pair.name)
        }
    }
}
