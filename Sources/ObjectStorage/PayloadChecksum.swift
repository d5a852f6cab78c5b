import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes

/// The two digests of a payload S3 checks, read in one pass: the SHA-256
/// that SigV4 signs (`x-amz-content-sha256`) and the checksum the store
/// keeps (`x-amz-checksum-crc32` or `-sha256`). The one place that puts them
/// on a request, for single `PUT`s and parts alike.
struct PayloadChecksum: Sendable {
    /// The SHA-256, which the signature covers.
    let payloadHash: PayloadDigest
    /// Which checksum ``value`` is.
    let algorithm: S3ChecksumAlgorithm
    /// The checksum in base64, as S3 writes it.
    let value: String

    /// Reads `body` once (it must be replayable to be sent afterwards).
    ///
    /// - Throws: What reading the body throws.
    init(of body: RequestBody, algorithm: S3ChecksumAlgorithm) async throws {
        if algorithm == .sha256 {
            payloadHash = try await PayloadDigest.sha256(of: body)
            value = payloadHash.base64
        } else {
            var crc = CRC32()
            payloadHash = try await PayloadDigest.sha256(of: body) { crc.update($0) }
            value = Self.base64(crc)
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
        for try await chunk in body.chunks() {
            chunk.withUnsafeBytes { crc.update($0) }
        }
        return base64(crc)
    }

    /// A CRC-32 as S3 writes it: its four bytes, most significant first, in base64.
    private static func base64(_ crc: CRC32) -> String {
        Data(crc.bigEndianBytes).base64EncodedString()
    }

    /// `x-amz-content-sha256` and the checksum's field.
    var headerFields: HTTPFields {
        [.xAmzContentSHA256: payloadHash.hex, algorithm.headerName: value]
    }
}
