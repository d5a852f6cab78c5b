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
        PercentEncoding.encodeKeepingEscapes(bytes: RawArgument.bytes(of: text), allowing: allowed)
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
}
