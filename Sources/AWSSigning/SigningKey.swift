import Crypto
import HTTPBody

/// SigV4's derived key for one day, region and service: HMAC-SHA256 of
/// "aws4_request" under the service's key, under the region's, under the
/// day's, under `"AWS4" + secret`. Derived once per signed request, and kept
/// by an aws-chunked body for its chunk signatures.
struct SigningKey: Sendable {
    /// The key's bytes (swift-crypto's `SymmetricKey` is not `Sendable`).
    private let bytes: [UInt8]

    init(secret: String, day: String, region: String, service: String) {
        var key = SymmetricKey(data: Array("AWS4\(secret)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key))
        }
        bytes = key.withUnsafeBytes { Array($0) }
    }

    /// The hex signature of `text`.
    func signature(of text: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: bytes)).lowercaseHex
    }
}
