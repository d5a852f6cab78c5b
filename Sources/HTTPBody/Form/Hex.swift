/// Hex digits: the one table behind percent-encoding (uppercase, RFC 3986),
/// JSON's `\u00XX` escapes and every digest written as text (lowercase).
package enum Hex {
    /// `0-9A-F`, as percent-encoding writes them.
    package static let uppercaseDigits = Array("0123456789ABCDEF".utf8)
    /// `0-9a-f`, as digests and JSON escapes are written.
    package static let lowercaseDigits = Array("0123456789abcdef".utf8)
}

extension Sequence<UInt8> {
    /// The bytes in lowercase hex, two digits each: a SHA-256 or MD5 digest
    /// as SigV4, S3 ETags and state-file names write it.
    package var lowercaseHex: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(Hex.lowercaseDigits[Int(byte >> 4)])
            text.append(Hex.lowercaseDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
