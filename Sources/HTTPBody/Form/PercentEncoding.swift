/// Percent-encoding for form and query components (RFC 3986, section 2.1):
/// every UTF-8 byte outside the unreserved set (section 2.3) becomes `%XX`
/// with uppercase hex digits.
enum PercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `A–Z a–z 0–9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Appends `text` encoded; a space becomes `+` when `spaceAsPlus`, else `%20`.
    static func append(_ text: String, to bytes: inout [UInt8], spaceAsPlus: Bool) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " "), spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }
}
