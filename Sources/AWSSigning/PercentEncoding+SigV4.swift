import HTTPBody

extension PercentEncoding {
    /// SigV4's URI encoding of canonical requests: every byte but the RFC
    /// 3986 unreserved ones (`A-Z a-z 0-9 - _ . ~`) as `%XY` with uppercase
    /// hex, the rule forms and queries already follow.
    static func sigV4(_ bytes: some Sequence<UInt8>) -> String {
        var encoded: [UInt8] = []
        append(bytes, to: &encoded, allowing: .unreserved)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `text` decoded, then encoded as ``sigV4(_:)`` encodes: the canonical
    /// form of a path segment or query item however the request escaped it.
    static func sigV4Canonical(_ text: Substring) -> String {
        sigV4(decode(text.utf8))
    }
}
