import Crypto
import Foundation
import HTTPBody

/// The tus checksum extension: each chunk's digest in `Upload-Checksum`, so
/// the server refuses (460) a chunk damaged on the way.
struct TusChecksum: Sendable {
    enum Algorithm: String, Sendable, CaseIterable {
        case sha1, sha256, md5
    }

    let algorithm: Algorithm

    /// The first algorithm in the server's list that this client computes;
    /// `nil` when the server advertises none of them (or none at all).
    init?(advertised: [String]) {
        guard let algorithm = advertised.lazy.compactMap(Algorithm.init(rawValue:)).first else { return nil }
        self.algorithm = algorithm
    }

    /// `<algorithm> <base64 digest>` of the chunk's bytes, read once for the
    /// digest (the chunk is read again as it is sent).
    func fieldValue(for chunk: RequestBody) async throws -> String {
        var sha1 = Insecure.SHA1()
        var sha256 = SHA256()
        var md5 = Insecure.MD5()
        for try await bytes in chunk.chunks(maximumChunkSize: 1024 * 1024) {
            switch algorithm {
            case .sha1: sha1.update(data: bytes)
            case .sha256: sha256.update(data: bytes)
            case .md5: md5.update(data: bytes)
            }
        }
        let digest: Data
        switch algorithm {
        case .sha1: digest = Data(sha1.finalize())
        case .sha256: digest = Data(sha256.finalize())
        case .md5: digest = Data(md5.finalize())
        }
        return "\(algorithm.rawValue) \(digest.base64EncodedString())"
    }
}
