import Crypto
import HTTPBody

/// The MD5 of a part's bytes, in lowercase hex: what S3 (and stores that keep
/// no SHA-256) give as a part's `ETag`, to tell whether a part a resumed
/// upload finds is the part it would send. Not a security check.
enum PartMD5 {
    static func hex(of body: RequestBody) async throws -> String {
        var hasher = Insecure.MD5()
        for try await chunk in body.chunks() {
            hasher.update(data: chunk)
        }
        return hasher.finalize().lowercaseHex
    }
}
