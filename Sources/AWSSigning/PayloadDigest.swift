import Crypto
public import HTTPBody
import Foundation

/// A SHA-256 digest of a request body, read once from its chunks: the
/// payload hash SigV4 signs (``hex``) and, when S3 is asked to keep a
/// SHA-256, the value of `x-amz-checksum-sha256` (``base64``).
///
/// Hashing runs at the speed of SHA-256 on this CPU (swift-crypto uses the
/// SHA extensions where the processor has them) and holds one 256 KiB chunk
/// in memory, whatever the body's size.
public struct PayloadDigest: Sendable, Equatable {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The digest in lowercase hex: SigV4's payload hash.
    public var hex: String { bytes.lowercaseHex }

    /// The digest in base64: the value of `x-amz-checksum-sha256`.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// The size of the chunks read: large enough that the per-chunk cost
    /// (one read, one allocation) vanishes beside hashing them, small enough
    /// that 4 parts hashed at once hold 1 MiB, not the 4 MiB of 1 MiB chunks.
    static let chunkSize = 256 << 10

    /// The SHA-256 of `body`'s bytes, read once.
    ///
    /// A body that is not replayable (a stream) cannot be sent after this:
    /// its bytes have been read.
    ///
    /// - Throws: What reading the body throws (a file that vanished or changed size).
    public static func sha256(of body: RequestBody) async throws -> PayloadDigest {
        try await sha256(of: body) { _ in }
    }

    /// The SHA-256 of `body`'s bytes, read once, each chunk also handed to
    /// `observe` while it is in the cache: another checksum of the same
    /// bytes (S3's CRC-32) costs no second read.
    package static func sha256(
        of body: RequestBody,
        observing observe: (UnsafeRawBufferPointer) -> Void
    ) async throws -> PayloadDigest {
        var hasher = SHA256()
        var reader = ChunkReader(body)
        while let chunk = try await reader.next(maximumLength: chunkSize, as: AlignedChunk.self) {
            chunk.storage.withUnsafeBytes { bytes in
                hasher.update(bufferPointer: bytes)
                observe(bytes)
            }
        }
        return PayloadDigest(bytes: Array(hasher.finalize()))
    }

    /// The SHA-256 of `bytes`.
    public static func sha256(of bytes: some Sequence<UInt8>) -> PayloadDigest {
        var hasher = SHA256()
        let array = Array(bytes)
        array.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return PayloadDigest(bytes: Array(hasher.finalize()))
    }
}
