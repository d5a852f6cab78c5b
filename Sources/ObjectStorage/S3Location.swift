/// An object's place in a store: its bucket and key.
///
/// ```swift
/// let photo = try S3Location("s3://holiday-photos/2026/beach.jpg")
/// ```
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's name.
    public let bucket: String
    /// The object's key (its name in the bucket), 1 to 1,024 bytes of UTF-8.
    public let key: String

    /// An object named `key` in `bucket`.
    ///
    /// - Throws: ``S3Error`` (``S3Error/Code/invalidArgument``) for a bucket
    ///   name S3 does not allow (3 to 63 lowercase letters, digits, dots and
    ///   dashes, starting and ending with a letter or digit), or an empty or
    ///   over-long key.
    public init(bucket: String, key: String) throws(S3Error) {
        try Self.validate(bucket: bucket)
        guard !key.isEmpty, key.utf8.count <= 1024 else {
            throw S3Error(code: .invalidArgument, description: "The key '\(key.prefix(80))' must be 1 to 1024 bytes of UTF-8 (it is \(key.utf8.count))")
        }
        guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw S3Error(code: .invalidArgument, description: "The key '\(key.prefix(80).debugDescription)' contains a control character")
        }
        self.bucket = bucket
        self.key = key
    }

    /// Reads `s3://BUCKET/KEY`.
    ///
    /// - Throws: ``S3Error`` (``S3Error/Code/invalidArgument``) when the text
    ///   is not of that form or names a bucket or key S3 does not allow.
    public init(_ text: String) throws(S3Error) {
        guard text.hasPrefix("s3://") else {
            throw S3Error(code: .invalidArgument, description: "'\(text.prefix(80))' is not an s3://BUCKET/KEY location")
        }
        let rest = text.dropFirst(5)
        guard let slash = rest.firstIndex(of: "/") else {
            throw S3Error(code: .invalidArgument, description: "'\(text.prefix(80))' names no key: write s3://BUCKET/KEY")
        }
        try self.init(bucket: String(rest[..<slash]), key: String(rest[rest.index(after: slash)...]))
    }

    /// `s3://BUCKET/KEY`.
    public var description: String { "s3://\(bucket)/\(key)" }

    /// Checks a bucket name against S3's rules for new buckets.
    static func validate(bucket: String) throws(S3Error) {
        let bytes = Array(bucket.utf8)
        let allowed = bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        let edgesAlphanumeric = [bytes.first, bytes.last].allSatisfy { byte in
            byte.map { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "-") } ?? false
        }
        guard (3...63).contains(bytes.count), allowed, edgesAlphanumeric, !bucket.contains("..") else {
            throw S3Error(
                code: .invalidArgument,
                description: "The bucket name '\(bucket.prefix(80))' is not valid: 3 to 63 lowercase letters, digits, dots and dashes, beginning and ending with a letter or digit"
            )
        }
    }
}
