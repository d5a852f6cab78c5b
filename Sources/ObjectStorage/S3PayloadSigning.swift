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
/// ``S3Client/checksumAlgorithm`` checksum, which the store checks against
/// the bytes it received and keeps: in a header (`x-amz-checksum-crc32`)
/// when signed, and in an `aws-chunked` trailer when unsigned (see
/// ``unsignedOverHTTPS``). A signed
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
    /// unsigned with their checksum and no SHA-256 is computed (as the AWS
    /// SDKs and the AWS CLI send uploads over HTTPS); over plain HTTP they
    /// are signed.
    ///
    /// Unsigned, a replayable body of known length with a CRC-32 checksum
    /// goes as `STREAMING-UNSIGNED-PAYLOAD-TRAILER`: `aws-chunked`, without
    /// chunk signatures, its CRC-32 in an `x-amz-checksum-crc32` trailer
    /// computed as the bytes are sent, so they are read once. A store that
    /// refuses that form (a `501`, or a `400` such as `NotImplemented`,
    /// `InvalidArgument` or `InvalidRequest`, as older MinIO and Ceph RGW
    /// answer) gets the request again, whole, as `UNSIGNED-PAYLOAD` with the
    /// CRC-32 in its `x-amz-checksum-crc32` header (the bytes read once for
    /// it, then sent), and so does every later payload of that
    /// ``S3Client`` and its copies.
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
