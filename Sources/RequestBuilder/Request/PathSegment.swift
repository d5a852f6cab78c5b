/// Percent-encoding of one path segment (RFC 3986, section 3.3).
enum PathSegment {
    /// Encodes every byte outside `pchar`, so `/`, `?` and `#` inside a segment
    /// stay data, never structure.
    static func encode(_ segment: String, position: Int) throws(RequestError) -> String {
        guard !segment.isEmpty else {
            throw RequestError.invalidRequest("Path segment \(position) is empty; it would put \"//\" in the path")
        }
        guard segment != ".", segment != ".." else {
            // Servers and proxies remove dot segments, so the request would reach another resource.
            throw RequestError.invalidRequest(
                "Path segment \(position), \(segment.debugDescription), is a dot segment, which servers resolve away (RFC 3986, section 5.2.4)"
            )
        }
        var encoded = ""
        encoded.reserveCapacity(segment.utf8.count)
        for byte in segment.utf8 {
            if isAllowed(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded += hexDigits[Int(byte >> 4)]
                encoded += hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    /// `unreserved / sub-delims / ":" / "@"`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }
}
