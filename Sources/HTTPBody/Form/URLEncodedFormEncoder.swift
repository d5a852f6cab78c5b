/// Encodes values as `application/x-www-form-urlencoded` text, the format of
/// HTML form posts and URL query strings: `name=Jane%20Doe&tags[]=a`.
///
/// Shaped like `JSONEncoder`: set strategies, then encode. Nested values are
/// written with brackets (`user[address][city]=Oslo`). Names and values are
/// percent-encoded per RFC 3986: only the unreserved characters
/// `A–Z a–z 0–9 - . _ ~` are left bare, so brackets go out as `%5B` and `%5D`.
/// The same input always gives the same text.
///
/// ```swift
/// var encoder = URLEncodedFormEncoder()
/// encoder.keyEncoding = .convertToSnakeCase
/// let text = try encoder.encode(SignUp(userName: "jane", tags: ["a", "b"]))
/// // user_name=jane&tags%5B%5D=a&tags%5B%5D=b
/// ```
public struct URLEncodedFormEncoder: Sendable {
    /// How arrays are named; `a[]=1` by default.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; `1`/`0` by default.
    public var boolEncoding: BoolEncoding
    /// How dates are written; ISO 8601 by default.
    public var dateEncoding: DateEncoding
    /// How `Data` is written; Base64 by default.
    public var dataEncoding: DataEncoding
    /// How property names become keys; unchanged by default.
    public var keyEncoding: KeyEncoding
    /// How `nil` is written; left out by default.
    public var nilEncoding: NilEncoding
    /// The order of keys; as given by default.
    public var keyOrdering: KeyOrdering
    /// How spaces are written; `%20` by default.
    public var spaceEncoding: SpaceEncoding

    /// Creates an encoder; every strategy has a default.
    public init(
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        dateEncoding: DateEncoding = .iso8601,
        dataEncoding: DataEncoding = .base64,
        keyEncoding: KeyEncoding = .useDefaultKeys,
        nilEncoding: NilEncoding = .dropKey,
        keyOrdering: KeyOrdering = .given,
        spaceEncoding: SpaceEncoding = .percentEscaped
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
        self.dataEncoding = dataEncoding
        self.keyEncoding = keyEncoding
        self.nilEncoding = nilEncoding
        self.keyOrdering = keyOrdering
        self.spaceEncoding = spaceEncoding
    }

    /// Encodes a value with keyed fields (a struct or a `[String: …]` dictionary).
    ///
    /// - Throws: ``URLEncodedFormError`` naming the key path at fault: a
    ///   top-level value that is not keyed, a dictionary whose keys are not
    ///   strings, a non-finite number, a custom strategy that threw.
    public func encode(_ value: some Encodable) throws(URLEncodedFormError) -> String {
        serialize(try pairs(encoding: value))
    }

    /// The names and values `value` encodes to, in output order, not yet
    /// percent-encoded: what a form, a query and a multipart form all carry.
    func pairs(encoding value: some Encodable) throws(URLEncodedFormError) -> [FormPair] {
        try FormTree(encoding: value, with: self).pairs(with: self)
    }

    /// Encodes names and values as given; only ``keyOrdering`` and
    /// ``spaceEncoding`` apply (the names are not transformed).
    public func encode(_ pairs: [(String, String)]) -> String {
        var ordered = pairs.map { FormPair(name: $0.0, value: $0.1) }
        if keyOrdering == .sorted { ordered = FormPair.sortedByName(ordered) }
        return serialize(ordered)
    }

    /// Joins pairs as `name=value&…`, percent-encoding both sides.
    func serialize(_ pairs: [FormPair]) -> String {
        var bytes: [UInt8] = []
        let plus = spaceEncoding == .plusReplaced
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            PercentEncoding.append(pair.name.utf8, to: &bytes, allowing: .unreserved, spaceAsPlus: plus)
            if let value = pair.value {
                bytes.append(UInt8(ascii: "="))
                PercentEncoding.append(value.utf8, to: &bytes, allowing: .unreserved, spaceAsPlus: plus)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
