import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes

/// The two digests of a payload S3 checks, read in one pass: the payload
/// hash SigV4 signs (`x-amz-content-sha256`: the SHA-256, or
/// `UNSIGNED-PAYLOAD`) and the checksum the store keeps
/// (`x-amz-checksum-crc32` or `-sha256`). The one place that puts them on a
/// request, for single `PUT`s and parts alike.
struct PayloadChecksum: Sendable {
    /// What the signature covers: the SHA-256 in hex, or `UNSIGNED-PAYLOAD`.
    let payloadHash: String
    /// Which checksum ``value`` is.
    let algorithm: S3ChecksumAlgorithm
    /// The checksum in base64, as S3 writes it.
    let value: String

    /// Reads `body` once (it must be replayable to be sent afterwards); an
    /// unsigned payload is read for its checksum alone, no SHA-256 computed
    /// unless it is the checksum (then it is signed too: it costs nothing more).
    ///
    /// - Throws: What reading the body throws.
    init(of body: RequestBody, algorithm: S3ChecksumAlgorithm, signed: Bool) async throws {
        if algorithm == .sha256 {
            let digest = try await PayloadDigest.sha256(of: body)
            payloadHash = digest.hex
            value = digest.base64
        } else if signed {
            var crc = CRC32()
            payloadHash = try await PayloadDigest.sha256(of: body) { crc.update($0) }.hex
            value = Self.base64(crc)
        } else {
            payloadHash = SigV4Signer.unsignedPayload
            value = try await Self.value(of: body, algorithm: algorithm)
        }
        self.algorithm = algorithm
    }

    /// The checksum alone, read once: what a resumed upload compares with
    /// the one the store lists for a part it holds. Nothing is signed then,
    /// so SHA-256 is computed only when it is the checksum.
    ///
    /// - Throws: What reading the body throws.
    static func value(of body: RequestBody, algorithm: S3ChecksumAlgorithm) async throws -> String {
        if algorithm == .sha256 {
            return try await PayloadDigest.sha256(of: body).base64
        }
        var crc = CRC32()
        var reader = ChunkReader(body)
        while let chunk = try await reader.next(maximumLength: chunkSize, as: AlignedChunk.self) {
            chunk.storage.withUnsafeBytes { crc.update($0) }
        }
        return base64(crc)
    }

    /// The reads of a checksum pass: as ``PayloadDigest``'s, 256 KiB into
    /// aligned memory, so 4 parts checked at once hold 1 MiB.
    private static let chunkSize = 256 << 10

    /// A CRC-32 as S3 writes it: its four bytes, most significant first, in base64.
    private static func base64(_ crc: CRC32) -> String {
        Data(crc.bigEndianBytes).base64EncodedString()
    }

    /// `x-amz-content-sha256` and the checksum's field.
    var headerFields: HTTPFields {
        [.xAmzContentSHA256: payloadHash, algorithm.headerName: value]
    }
}
