/// How names and filenames are written into `Content-Disposition` (RFC 7578,
/// section 4.2, as browsers do it per the WHATWG HTML standard).
enum ContentDisposition {
    /// Appends `text` for a quoted parameter: `"` → `%22`, CR → `%0D`, LF → `%0A`,
    /// every other byte (non-ASCII and non-UTF-8 bytes included) as it is.
    static func appendQuoted(_ text: some Collection<UInt8>, to bytes: inout [UInt8]) {
        // Most names need no escaping: copy them whole.
        guard text.contains(where: { $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else {
            bytes.append(contentsOf: text)
            return
        }
        for byte in text {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x25, 0x32, 0x32])  // %22
            case 0x0D: bytes.append(contentsOf: [0x25, 0x30, 0x44])  // %0D
            case 0x0A: bytes.append(contentsOf: [0x25, 0x30, 0x41])  // %0A
            default: bytes.append(byte)
            }
        }
    }

    /// Appends `text` as an RFC 8187 `ext-value` body: UTF-8, every byte
    /// outside `attr-char` percent-encoded.
    static func appendExtendedValue(_ text: some Collection<UInt8>, to bytes: inout [UInt8]) {
        PercentEncoding.append(text, to: &bytes, allowing: .attributeCharacters)
    }

    /// Whether a name or filename holds a control character that browsers do
    /// not escape (anything but CR and LF, which become `%0D` and `%0A`): NUL and
    /// the like corrupt the header line for many parsers.
    static func hasUnescapableControl(_ text: some Collection<UInt8>) -> Bool {
        text.contains { isForbiddenInHeader($0) && $0 != 0x0D && $0 != 0x0A }
    }

    /// Bytes that end or corrupt a header line: controls other than tab, and DEL.
    static func isForbiddenInHeader(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }
}
