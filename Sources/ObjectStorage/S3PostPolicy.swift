public import AWSSigning
public import Foundation

/// A POST policy: what a browser-style form upload to a bucket may do, signed
/// so that whoever holds the form can upload without credentials.
///
/// ```swift
/// var policy = S3PostPolicy(bucket: "avatars", key: "users/42/avatar.jpg", expiration: .now + 600)
/// policy.conditions = [.contentLengthRange(1...5_000_000), .contentTypeStartsWith("image/")]
/// let post = try policy.presignedPost(endpoint: .aws(region: "eu-west-1"), signer: signer)
/// // Hand `post.url` and `post.fields` to the client that uploads.
/// ```
///
/// The policy document lists, in the order botocore's
/// `generate_presigned_post` writes them, the conditions, the bucket, the key
/// (exactly, or for a key with `${filename}` the part before it, which is
/// all S3 can check before the file's name is put in; none with
/// ``Condition/keyStartsWith(_:)``), and the signing fields (`x-amz-algorithm`,
/// `x-amz-credential`, `x-amz-date`, the session token if any); it is sent
/// base64-encoded as the form's `policy` field with its SigV4 signature.
public struct S3PostPolicy: Sendable {
    /// A rule the uploaded form must satisfy.
    public struct Condition: Sendable, Hashable {
        fileprivate enum Base: Hashable {
            case equals(String, String)
            case startsWith(String, String)
            case contentLengthRange(ClosedRange<Int64>)
        }

        fileprivate let base: Base

        /// The file is `range` bytes long (S3's `content-length-range`).
        public static func contentLengthRange(_ range: ClosedRange<Int64>) -> Condition { Condition(base: .contentLengthRange(range)) }
        /// The object's `Content-Type` is exactly `type`; the form sends it as a field.
        public static func contentType(_ type: String) -> Condition { Condition(base: .equals("Content-Type", type)) }
        /// The object's `Content-Type` starts with `prefix`, such as `image/`;
        /// the uploading client adds a `Content-Type` field.
        public static func contentTypeStartsWith(_ prefix: String) -> Condition { Condition(base: .startsWith("Content-Type", prefix)) }
        /// The key may be any that starts with `prefix`, instead of exactly the policy's key.
        public static func keyStartsWith(_ prefix: String) -> Condition { Condition(base: .startsWith("key", prefix)) }
        /// S3 answers a successful upload with this status (200, 201 with an XML
        /// description, or 204); the form sends it as a field.
        public static func successActionStatus(_ status: Int) -> Condition { Condition(base: .equals("success_action_status", String(status))) }
        /// The field `name` is exactly `value` (an `acl`, `x-amz-meta-*`, `Cache-Control`); the form sends it.
        public static func field(_ name: String, equals value: String) -> Condition { Condition(base: .equals(name, value)) }
        /// The field `name` starts with `prefix`; the uploading client adds it.
        public static func field(_ name: String, startsWith prefix: String) -> Condition { Condition(base: .startsWith(name, prefix)) }
    }

    /// The bucket the form uploads to.
    public var bucket: String
    /// The key the form sends (S3 puts the file's name where it says `${filename}`).
    public var key: String
    /// When the form stops working.
    public var expiration: Date
    /// Rules beyond the bucket and key.
    public var conditions: [Condition]

    /// A policy for uploads of `key` to `bucket` until `expiration`.
    public init(bucket: String, key: String, expiration: Date, conditions: [Condition] = []) {
        self.bucket = bucket
        self.key = key
        self.expiration = expiration
        self.conditions = conditions
    }

    /// Signs the policy and returns the form: the bucket's URL and the fields
    /// to send before the file.
    ///
    /// - Parameters:
    ///   - endpoint: Where the bucket is; its region must be the signer's.
    ///   - signer: Signs the policy with its credentials.
    ///   - date: The signing date (now by default); it must be before ``expiration``.
    /// - Throws: ``S3Error`` (``S3Error/Code/invalidArgument``) for an invalid
    ///   bucket or key, an expiration not after `date`, an inverted length
    ///   range, or a condition on a signing field.
    public func presignedPost(endpoint: S3Endpoint, signer: SigV4Signer, date: Date = Date()) throws(S3Error) -> PresignedPost {
        try S3Location.validate(bucket: bucket)
        guard !key.isEmpty, key.utf8.count <= 1024 else {
            throw S3Error(code: .invalidArgument, description: "The policy's key '\(key.prefix(80))' must be 1 to 1024 bytes of UTF-8")
        }
        guard expiration > date else {
            throw S3Error(code: .invalidArgument, description: "The policy expires at \(Self.iso8601(expiration)), not after its signing date \(Self.iso8601(date))")
        }
        let signing = [
            ("x-amz-algorithm", "AWS4-HMAC-SHA256"),
            ("x-amz-credential", signer.credential(for: date)),
            ("x-amz-date", SigV4Signer.amzDate(date)),
        ] + (signer.credentials.sessionToken.map { [("x-amz-security-token", $0)] } ?? [])
        var fields: [PresignedPost.Field] = [.init(name: "key", value: key)]
        // In botocore's order: the caller's conditions, the bucket, the key, the signing fields.
        var rules: [Rule] = []
        for condition in conditions {
            switch condition.base {
            case .equals(let name, let value):
                try Self.checkNotSigning(name)
                rules.append(.equals(name, value))
                fields.append(.init(name: name, value: value))
            case .startsWith(let name, let prefix):
                try Self.checkNotSigning(name)
                rules.append(.startsWith(name, prefix))
            case .contentLengthRange(let range):
                guard range.lowerBound >= 0 else {
                    throw S3Error(code: .invalidArgument, description: "The policy's content-length-range \(range.lowerBound)...\(range.upperBound) starts below zero")
                }
                rules.append(.contentLengthRange(range))
            }
        }
        rules.append(.equals("bucket", bucket))
        let keyIsOpen = conditions.contains { if case .startsWith("key", _) = $0.base { true } else { false } }
        if !keyIsOpen {
            // S3 checks the key once the file's name replaces `${filename}`,
            // so such a key can only be held to what comes before it.
            if let variable = key.firstRange(of: "${filename}") {
                rules.append(.startsWith("key", String(key[..<variable.lowerBound])))
            } else {
                rules.append(.equals("key", key))
            }
        }
        for (name, value) in signing {
            rules.append(.equals(name, value))
            fields.append(.init(name: name, value: value))
        }
        let document: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            document = try encoder.encode(Document(expiration: Self.iso8601(expiration), conditions: rules))
        } catch {
            throw S3Error(code: .invalidArgument, description: "The policy of \(key.prefix(80)) cannot be written as JSON: \(error)")
        }
        let policy = document.base64EncodedString()
        fields.append(.init(name: "policy", value: policy))
        fields.append(.init(name: "x-amz-signature", value: signer.signature(ofPolicy: policy, date: date)))
        return PresignedPost(url: try endpoint.url(bucket: bucket, key: nil), fields: fields)
    }

    /// Conditions on the fields this type adds itself would contradict them.
    private static func checkNotSigning(_ name: String) throws(S3Error) {
        let reserved = ["bucket", "policy", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature", "x-amz-security-token", "file"]
        guard !reserved.contains(name.lowercased()) else {
            throw S3Error(code: .invalidArgument, description: "The policy cannot carry a condition on '\(name)': the policy sets that field itself")
        }
    }

    /// The policy document S3 reads: `{"conditions":[...],"expiration":"..."}`.
    private struct Document: Encodable {
        let expiration: String
        let conditions: [Rule]
    }

    /// One condition as the policy document writes it.
    private enum Rule: Encodable {
        /// `{"name":"value"}`.
        case equals(String, String)
        /// `["starts-with","$name","prefix"]`.
        case startsWith(String, String)
        /// `["content-length-range",min,max]`.
        case contentLengthRange(ClosedRange<Int64>)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .equals(let name, let value):
                var container = encoder.singleValueContainer()
                try container.encode([name: value])
            case .startsWith(let name, let prefix):
                var container = encoder.unkeyedContainer()
                try container.encode("starts-with")
                try container.encode("$" + name)
                try container.encode(prefix)
            case .contentLengthRange(let range):
                var container = encoder.unkeyedContainer()
                try container.encode("content-length-range")
                try container.encode(range.lowerBound)
                try container.encode(range.upperBound)
            }
        }
    }

    /// `2026-11-23T15:00:00.000Z`, the form S3's policy examples use.
    /// (Not `ISO8601DateFormatter`, which on Linux links the whole of
    /// Foundation into every program using this module.)
    static func iso8601(_ date: Date) -> String {
        SigV4Signer.iso8601(date)
    }
}
