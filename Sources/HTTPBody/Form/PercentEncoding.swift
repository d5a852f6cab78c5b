/// Percent-encoding (RFC 3986, section 2.1): every byte outside an allowed
/// set becomes `%XX`, with uppercase hex digits. The one encoder behind form
/// and query text, path segments and RFC 8187 `filename*` values; each
/// passes the set its grammar allows.
package enum PercentEncoding {
    /// The bytes left as they are.
    package struct AllowedBytes: Sendable {
        private let table: [Bool]

        private init(_ allowed: (UInt8) -> Bool) {
            table = (0...255).map { allowed(UInt8($0)) }
        }

        /// Whether `byte` is left as it is.
        @inline(__always)
        func contains(_ byte: UInt8) -> Bool { table[Int(byte)] }

        /// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986, section 2.3):
        /// form and query names and values.
        package static let unreserved = AllowedBytes { isUnreserved($0) }

        /// `pchar` (RFC 3986, section 3.3): unreserved, sub-delims, `:` and
        /// `@`; what one path segment may hold, so `/`, `?` and `#` stay data.
        package static let pathSegment = AllowedBytes { byte in
            isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
        }

        /// Every character a URI may hold as it is (RFC 3986, section 2):
        /// unreserved and reserved; what is left to encode in a URL someone
        /// typed is non-ASCII text, spaces and `"<>\^`{|}`.
        package static let uriCharacters = AllowedBytes { byte in
            isUnreserved(byte) || ":/?#[]@!$&'()*+,;=".utf8.contains(byte)
        }

        /// Unreserved and `/`: an S3 object key in a request path, where `/`
        /// separates nothing but is kept as SigV4's canonical URI for S3
        /// keeps it.
        package static let unreservedOrSlash = AllowedBytes { isUnreserved($0) || $0 == UInt8(ascii: "/") }

        /// `attr-char` (RFC 8187, section 3.2.1): what an extended parameter
        /// value such as `filename*=UTF-8''…` may hold.
        package static let attributeCharacters = AllowedBytes { byte in
            isLetterOrDigit(byte) || "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Appends `text` encoded; a space becomes `+` when `spaceAsPlus` (HTML
    /// forms), else `%20`.
    package static func append(_ text: some Sequence<UInt8>, to bytes: inout [UInt8], allowing allowed: AllowedBytes, spaceAsPlus: Bool = false) {
        for byte in text {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " "), spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Hex.uppercaseDigits[Int(byte >> 4)])
                bytes.append(Hex.uppercaseDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// `text`'s UTF-8 encoded, except that escapes already in it (`%` and
    /// two hex digits) are kept as they are, as curl and HTTPie keep them in
    /// a URL; a `%` that starts no escape becomes `%25`.
    package static func encodeKeepingEscapes(_ text: String, allowing allowed: AllowedBytes) -> String {
        encodeKeepingEscapes(bytes: Array(text.utf8), allowing: allowed)
    }

    /// `utf8` encoded as ``encodeKeepingEscapes(_:allowing:)`` encodes text:
    /// for bytes that need not be UTF-8 (a command-line argument's).
    package static func encodeKeepingEscapes(bytes utf8: [UInt8], allowing allowed: AllowedBytes) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2]) {
                bytes.append(contentsOf: utf8[index...index + 2])
                index += 3
                continue
            }
            append(CollectionOfOne(byte), to: &bytes, allowing: allowed)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text`'s UTF-8 encoded.
    package static func encode(_ text: String, allowing allowed: AllowedBytes) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        append(text.utf8, to: &bytes, allowing: allowed)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes `text` stands for: each `%` and two hex digits decoded, a
    /// `%` that starts no escape kept as it is, `+` kept as `+` (only HTML
    /// forms read it as a space).
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(text)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return decoded
    }

    /// The value of one hex digit, either case; `nil` for another byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
}
