import HTTPBody
import UploaderItems

/// Percent-encoding of command-line text by the bytes it was typed as
/// (``RawArgument``): a byte that is not UTF-8 goes out as its own escape
/// (`/\xff` asks for `/%FF`), never as the private-use scalar that stands
/// for it inside the tool.
enum ArgumentPercentEncoding {
    /// A URL's path and query: bytes outside `allowed` escaped, escapes
    /// already there (`%` and two hex digits) kept as written, as curl and
    /// HTTPie keep them.
    static func encodeKeepingEscapes(_ text: String, allowing allowed: PercentEncoding.AllowedBytes) -> String {
        let raw = RawArgument.bytes(of: text)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "%"), index + 2 < raw.count, isHexDigit(raw[index + 1]), isHexDigit(raw[index + 2]) {
                bytes.append(contentsOf: raw[index...index + 2])
                index += 3
                continue
            }
            PercentEncoding.append(CollectionOfOne(raw[index]), to: &bytes, allowing: allowed)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)  // ASCII only: every other byte was escaped
    }

    /// `name=value&…` with both sides escaped as the library's form encoder
    /// escapes them (unreserved bytes kept, a space as `%20`): the query
    /// items and a `--form` body.
    static func pairs(_ pairs: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            PercentEncoding.append(RawArgument.bytes(of: pair.0), to: &bytes, allowing: .unreserved)
            bytes.append(UInt8(ascii: "="))
            PercentEncoding.append(RawArgument.bytes(of: pair.1), to: &bytes, allowing: .unreserved)
        }
        return bytes
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
