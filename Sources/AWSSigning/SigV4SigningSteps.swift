public import HTTPTypes

/// The intermediate results of signing one request
/// (``SigV4Signer/signingSteps(for:payloadHash:date:)``), as AWS's
/// documentation names them.
public struct SigV4SigningSteps: Sendable, Equatable {
    /// The canonical request: method, canonical URI, canonical query,
    /// canonical headers, signed header names and payload hash, one per line.
    public let canonicalRequest: String
    /// `AWS4-HMAC-SHA256`, the date, the credential scope and the canonical
    /// request's SHA-256, one per line.
    public let stringToSign: String
    /// The signature in hex: HMAC-SHA256 of the string to sign under the derived key.
    public let signature: String
    /// The head with `x-amz-date`, `x-amz-content-sha256` (S3),
    /// `x-amz-security-token` (temporary credentials) and `Authorization` set.
    public let signedHead: HTTPRequest

    /// The `Authorization` value of ``signedHead``.
    public var authorization: String { signedHead.headerFields[.authorization] ?? "" }
}
