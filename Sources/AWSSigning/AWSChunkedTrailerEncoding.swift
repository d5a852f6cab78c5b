import Foundation
package import HTTPBody

/// The `aws-chunked` encoding S3 reads as `STREAMING-UNSIGNED-PAYLOAD-TRAILER`:
/// chunks without signatures, then the payload's CRC-32 in a trailer,
///
///     hex-size\r\n DATA\r\n  ...  0\r\n x-amz-checksum-crc32:BASE64\r\n \r\n
///
/// so the checksum is computed as the bytes are sent and the payload is read
/// once. The head is signed as usual; the store checks the trailer against
/// the bytes it decoded (a wrong one is refused, `BadDigest`).
package struct AWSChunkedTrailerEncoding: Sendable {
    /// The payload hash that announces this encoding.
    package static let payloadHash = "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
    /// The trailer's field name, which `x-amz-trailer` announces.
    package static let trailerName = "x-amz-checksum-crc32"
    /// Bytes of data in each chunk but the last: with its framing (9 bytes)
    /// a chunk is exactly one read of the AsyncHTTPClient transport over TLS
    /// (512 KiB less 64 bytes for alignment and 1 KiB of room for the TLS
    /// records: 523,200 bytes), so each is read into the buffer the
    /// transport sends and handed on whole, neither copied nor gathered with
    /// the next. Any other read length takes the gathering path, correct
    /// but one copy dearer.
    static let chunkSize = 523_191
    /// `x-amz-checksum-crc32:` and 8 base64 digits and CRLF, after the empty chunk.
    private static let trailerLength: Int64 = 21 + 8 + 2

    /// The checksum of the last complete read of the body: the CRC-32 the
    /// trailer carried, once the body has been sent.
    package final class SentChecksum: Sendable {
        private let value = LockedValue<String?>(nil)

        package init() {}

        /// The base64 CRC-32 of the bytes last sent; `nil` until a read has ended.
        package var base64: String? { value.withLock { $0 } }

        func record(_ base64: String) { value.withLock { $0 = base64 } }
    }

    /// The encoded length of `decodedLength` bytes: what `Content-Length` says.
    package static func encodedLength(decodedLength: Int64) -> Int64 {
        AWSChunkedEncoding.encodedLength(decodedLength: decodedLength, chunkSize: chunkSize, framingBytesPerChunk: 4) + trailerLength
    }

    /// The head fields this encoding needs besides `Content-Length`: the
    /// payload hash, the decoded length, the trailer announced, and the
    /// algorithm, as the AWS SDKs send them.
    package static func headerFields(decodedLength: Int64) -> [(name: String, value: String)] {
        [
            ("x-amz-content-sha256", payloadHash),
            ("x-amz-decoded-content-length", String(decodedLength)),
            ("x-amz-trailer", trailerName),
            ("x-amz-sdk-checksum-algorithm", "CRC32"),
        ]
    }

    /// `body` (of `decodedLength` bytes) encoded, its CRC-32 recorded in
    /// `checksum` as each read of it ends. `Content-Encoding` gains
    /// `aws-chunked` in front of any it had. Replayable when the body is.
    package static func encode(_ body: RequestBody, decodedLength: Int64, recordingIn checksum: SentChecksum) -> RequestBody {
        RequestBody(
            contentType: body.contentType,
            contentEncoding: body.contentEncoding.map { "aws-chunked,\($0)" } ?? "aws-chunked",
            length: encodedLength(decodedLength: decodedLength),
            isReplayable: body.isReplayable
        ) {
            AWSChunkedTrailerChunkSource(inner: try body.makeChunkSource(), decodedLength: decodedLength, checksum: checksum)
        }
    }
}

/// Reads another source in chunks of ``AWSChunkedTrailerEncoding/chunkSize``
/// and hands out each framed; after the last, the empty chunk and the CRC-32
/// trailer. A chunk that fits the transport's write is read into its framing
/// (``FramedChunkStorage``); otherwise, or when the source reads short, it
/// is gathered and framed in a buffer handed out in pieces.
struct AWSChunkedTrailerChunkSource: ChunkSource {
    private var inner: any ChunkSource
    private let decodedLength: Int64
    private let checksum: AWSChunkedTrailerEncoding.SentChecksum
    private var left: Int64
    private var crc = CRC32()
    /// Framed bytes not yet handed out: a gathered chunk, or the trailer.
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var ended = false

    init(inner: any ChunkSource, decodedLength: Int64, checksum: AWSChunkedTrailerEncoding.SentChecksum) {
        self.inner = inner
        self.decodedLength = decodedLength
        self.checksum = checksum
        left = decodedLength
    }

    /// Chunks of a checksummed upload are not worth compressing.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        if pendingOffset < pending.count { return handOutPending(maximumLength) }
        guard !ended else { return nil }
        let size = Int(min(Int64(AWSChunkedTrailerEncoding.chunkSize), left))
        if size == 0 {
            let value = Data(crc.bigEndianBytes).base64EncodedString()
            checksum.record(value)
            pending = Array("0\r\n\(AWSChunkedTrailerEncoding.trailerName):\(value)\r\n\r\n".utf8)
            pendingOffset = 0
            ended = true
            return handOutPending(maximumLength)
        }
        var data: [UInt8] = []
        if size + FramedChunkStorage<Storage>.framingLength(ofData: size) <= maximumLength {
            guard let chunk = try await inner.nextChunk(maximumLength: size, as: FramedChunkStorage<Storage>.self) else {
                throw AWSSigningError.bodyLengthMismatch(declared: decodedLength, actual: "\(decodedLength - left)")
            }
            if chunk.storage.dataCount == size {
                chunk.storage.withUnsafeBytes { crc.update($0) }
                left -= Int64(size)
                return BodyChunk(chunk.storage.framed, isCompressible: false)
            }
            data = chunk.storage.withUnsafeBytes { Array($0) }
        }
        try await gather(&data, upTo: size)
        data.withUnsafeBytes { crc.update($0) }
        left -= Int64(size)
        pending = Array("\(String(size, radix: 16))\r\n".utf8) + data + [13, 10]
        pendingOffset = 0
        return handOutPending(maximumLength)
    }

    /// Reads into `data` until it holds `size` bytes.
    private mutating func gather(_ data: inout [UInt8], upTo size: Int) async throws {
        data.reserveCapacity(size)
        while data.count < size {
            guard let piece = try await inner.nextChunk(maximumLength: size - data.count, as: [UInt8].self) else {
                throw AWSSigningError.bodyLengthMismatch(declared: decodedLength, actual: "\(decodedLength - left + Int64(data.count))")
            }
            data.append(contentsOf: piece.storage)
        }
    }

    /// The next at most `maximumLength` bytes of ``pending``.
    private mutating func handOutPending<Storage: ChunkStorage>(_ maximumLength: Int) -> BodyChunk<Storage> {
        let count = min(maximumLength, pending.count - pendingOffset)
        let start = pendingOffset
        pendingOffset += count
        let chunk = Storage(capacity: count) { buffer in
            pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
            return count
        }
        return BodyChunk(chunk, isCompressible: false)
    }
}
