/// When ``S3Client`` signs the bytes of an object or a part (their SHA-256
/// in the signature, `x-amz-content-sha256`) and when it sends them as
/// `UNSIGNED-PAYLOAD`.
///
/// ```swift
/// var s3 = S3Client(endpoint: .aws(region: "eu-west-1"), credentials: try .environment(), transport: transport)
/// s3.payloadSigning = .always  // a store or a policy that demands signed payloads
/// ```
///
/// Either way the head is signed, and each `PUT` and part carries its
/// ``S3Client/checksumAlgorithm`` checksum in a header (`x-amz-checksum-crc32`),
/// which the store checks against the bytes it received and keeps. A signed
/// payload costs one SHA-256 of every byte sent (about 0.5 s a GiB on a CPU
/// with the SHA extensions): it is what protects the bytes from change on
/// the way over plain HTTP, and what TLS already does over HTTPS.
public struct S3PayloadSigning: Sendable, Hashable {
    private enum Policy: Hashable {
        case unsignedOverHTTPS
        case always
    }

    private let policy: Policy

    private init(_ policy: Policy) {
        self.policy = policy
    }

    /// The default: over HTTPS, where TLS protects the bytes, they are sent
    /// as `UNSIGNED-PAYLOAD` with their checksum and no SHA-256 is computed
    /// (as the AWS SDKs and the AWS CLI send uploads over HTTPS); over plain
    /// HTTP they are signed.
    ///
    /// With ``S3ChecksumAlgorithm/sha256`` as the checksum the payload is
    /// signed over HTTPS too: its SHA-256 is computed for the checksum anyway.
    public static let unsignedOverHTTPS = S3PayloadSigning(.unsignedOverHTTPS)

    /// The bytes are signed over HTTPS as over HTTP: for stores or bucket
    /// policies that refuse `UNSIGNED-PAYLOAD`, at the cost of a SHA-256 of
    /// every byte (the setting botocore calls `payload_signing_enabled`).
    public static let always = S3PayloadSigning(.always)

    /// Whether a payload sent to `scheme` (`http`, `https`) is signed.
    func signs(overScheme scheme: String?) -> Bool {
        switch policy {
        case .always: true
        case .unsignedOverHTTPS: scheme?.lowercased() != "https"
        }
    }
}
