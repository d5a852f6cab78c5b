/// The delimiter string that separates the parts of a multipart body
/// (RFC 2046, section 5.1.1): 1 to 70 characters from the set RFC 2046 allows,
/// not ending in a space.
///
/// Use ``random()`` (the default) in production: 32 characters drawn from a
/// cryptographically secure generator cannot plausibly occur in the content.
/// Use ``constant(_:)`` for reproducible output (golden files, `--boundary`);
/// file and stream parts are then scanned for the boundary as they are sent.
public struct MultipartBoundary: Sendable, Hashable, CustomStringConvertible {
    /// The boundary text, without the leading `--`.
    public let value: String

    /// Whether the caller chose the boundary, so content must be scanned for it.
    package let isCallerChosen: Bool

    /// The boundary's UTF-8 bytes (all ASCII), kept for the encoder's scans.
    let bytes: [UInt8]

    private init(validated value: String, isCallerChosen: Bool) {
        self.value = value
        self.isCallerChosen = isCallerChosen
        self.bytes = Array(value.utf8)
    }

    /// A boundary of 32 random characters from `SystemRandomNumberGenerator`,
    /// which is cryptographically secure on every supported platform.
    public static func random() -> MultipartBoundary {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A boundary of 32 random characters from the given generator.
    ///
    /// Prefixed with `----` so it stands out in logs, as browsers do.
    public static func random(using generator: inout some RandomNumberGenerator) -> MultipartBoundary {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var scalars = Array("----".utf8)
        for _ in 0..<28 {
            scalars.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))])
        }
        return MultipartBoundary(validated: String(decoding: scalars, as: UTF8.self), isCallerChosen: false)
    }

    /// A fixed boundary, for reproducible output.
    ///
    /// - Throws: ``MultipartError/Code/invalidBoundary`` unless `value` is 1-70
    ///   characters from RFC 2046's `bchars` (letters, digits and `'()+_,-./:=?`
    ///   and space) that does not end in a space.
    public static func constant(_ value: String) throws(MultipartError) -> MultipartBoundary {
        guard isValid(value) else { throw .invalidBoundary(value) }
        return MultipartBoundary(validated: value, isCallerChosen: true)
    }

    /// The boundary an interrupted upload was sent with, to build the same
    /// body again when it resumes (``random()``'s, read back from its saved
    /// state).
    ///
    /// Unlike ``constant(_:)``, content is not scanned for it: it was chosen
    /// at random, as when the upload began, and the resumable upload checks
    /// that the files are the ones it began with.
    ///
    /// - Throws: ``MultipartError/Code/invalidBoundary`` as ``constant(_:)`` does.
    public static func resuming(_ value: String) throws(MultipartError) -> MultipartBoundary {
        guard isValid(value) else { throw .invalidBoundary(value) }
        return MultipartBoundary(validated: value, isCallerChosen: false)
    }

    /// Whether `value` is a boundary RFC 2046 allows.
    public static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...70).contains(bytes.count), bytes.last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy(isBoundaryCharacter)
    }

    /// RFC 2046 `bchars`: `DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?" / " "`.
    private static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: " "):
            true
        default:
            false
        }
    }

    /// The boundary text.
    public var description: String { value }
}
