import Crypto
import HTTPBody

/// The `aws-chunked` encoding of a streamed SigV4 upload (S3's
/// sigv4-streaming): the body cut into chunks, each sent as
///
///     hex-size;chunk-signature=SIGNATURE\r\n
///     DATA\r\n
///
/// and ended by a signed chunk of size 0. Each signature is the HMAC, under
/// the request's signing key, of
///
///     AWS4-HMAC-SHA256-PAYLOAD \n date \n scope \n previous signature \n SHA-256("") \n SHA-256(DATA)
///
/// where the first chunk's previous signature is the request's own (the seed).
struct AWSChunkedEncoding: Sendable {
    /// S3 refuses chunks below 8 KiB, the last excepted.
    static let smallestChunkSize = 8 * 1024
    /// The chunk size of ``SigV4PayloadSigning/streaming(chunkSize:)`` when none is given.
    static let defaultChunkSize = 64 * 1024
    /// The payload hash that announces this encoding.
    static let payloadHash = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
    /// `;chunk-signature=`, 64 hex digits, CRLF; then CRLF after the data.
    private static let framingBytesPerChunk: Int64 = 17 + 64 + 2 + 2

    let chunkSize: Int
    let seedSignature: String
    let key: SigningKey
    let amzDate: String
    let scope: String

    /// The encoded length of `decodedLength` body bytes: what `Content-Length` says.
    static func encodedLength(decodedLength: Int64, chunkSize: Int) -> Int64 {
        encodedLength(decodedLength: decodedLength, chunkSize: chunkSize, framingBytesPerChunk: framingBytesPerChunk)
    }

    /// The length of `decodedLength` bytes cut into chunks of `chunkSize`
    /// and a final empty one, each chunk its size in hex, its data and
    /// `framingBytesPerChunk` more bytes.
    static func encodedLength(decodedLength: Int64, chunkSize: Int, framingBytesPerChunk: Int64) -> Int64 {
        let size = Int64(chunkSize)
        let fullChunks = decodedLength / size
        let rest = decodedLength % size
        func chunk(_ bytes: Int64) -> Int64 { Int64(String(bytes, radix: 16).utf8.count) + framingBytesPerChunk + bytes }
        return fullChunks * chunk(size) + (rest > 0 ? chunk(rest) : 0) + chunk(0)
    }

    /// `body` encoded: `Content-Encoding` gains `aws-chunked` in front of any
    /// encoding it had, and its length is the encoded one. Replayable when the
    /// body is (each read signs the same chunks again).
    func encode(_ body: RequestBody, decodedLength: Int64) -> RequestBody {
        let encoding = self
        return RequestBody(
            contentType: body.contentType,
            contentEncoding: body.contentEncoding.map { "aws-chunked,\($0)" } ?? "aws-chunked",
            length: Self.encodedLength(decodedLength: decodedLength, chunkSize: chunkSize),
            isReplayable: body.isReplayable
        ) {
            AWSChunkedChunkSource(inner: try body.makeChunkSource(), encoding: encoding, declaredLength: decodedLength)
        }
    }

    /// The signature of the chunk holding `data`, chained from `previous`.
    func signature(of data: UnsafeRawBufferPointer, after previous: String) -> String {
        let dataHash = SHA256.hash(data: data).lowercaseHex
        return key.signature(of: "AWS4-HMAC-SHA256-PAYLOAD\n\(amzDate)\n\(scope)\n\(previous)\n\(SigV4Signer.emptyPayloadHash)\n\(dataHash)")
    }
}

/// Reads another source in `chunkSize` pieces and hands out each as a signed
/// aws-chunked chunk. Memory: one chunk of data and its header, reused.
struct AWSChunkedChunkSource: ChunkSource {
    private var inner: any ChunkSource
    private let encoding: AWSChunkedEncoding
    private let declaredLength: Int64
    private var previousSignature: String
    /// The current chunk's data, and the framing around it.
    private var data: [UInt8] = []
    private var header: [UInt8] = []
    private static let crlf: [UInt8] = [13, 10]
    /// How much of header + data + CRLF has been handed out.
    private var offset = 0
    private var bodyRead: Int64 = 0
    private var innerEnded = false
    private var finalChunkQueued = false

    init(inner: any ChunkSource, encoding: AWSChunkedEncoding, declaredLength: Int64) {
        self.inner = inner
        self.encoding = encoding
        self.declaredLength = declaredLength
        previousSignature = encoding.seedSignature
    }

    /// Signed chunks are not worth compressing (a gzip encoding goes inside, not around).
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        var total = header.count + data.count + Self.crlf.count
        if offset == total || header.isEmpty {
            guard !finalChunkQueued else { return nil }
            try await encodeNextChunk()
            total = header.count + data.count + Self.crlf.count
        }
        let count = min(maximumLength, total - offset)
        let start = offset
        let parts = [header, data, Self.crlf]
        let chunk = Storage(capacity: count) { buffer in
            var written = 0
            var partStart = 0  // where the part begins in header + data + CRLF
            for part in parts {
                let position = start + written
                if written < count, position < partStart + part.count {
                    let from = position - partStart
                    let length = min(part.count - from, count - written)
                    part.withUnsafeBytes { source in
                        UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + length])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<from + length]))
                    }
                    written += length
                }
                partStart += part.count
            }
            return written
        }
        offset += count
        return BodyChunk(chunk, isCompressible: false)
    }

    /// Reads the next `chunkSize` bytes of the body (fewer at its end) and
    /// frames them; after the body's last byte, the signed empty chunk.
    private mutating func encodeNextChunk() async throws {
        data.removeAll(keepingCapacity: true)
        while data.count < encoding.chunkSize, !innerEnded {
            guard let piece = try await inner.nextChunk(maximumLength: encoding.chunkSize - data.count, as: [UInt8].self) else {
                innerEnded = true
                break
            }
            if data.isEmpty, piece.storage.count == encoding.chunkSize {
                data = piece.storage  // a whole chunk: taken as it is, not copied
            } else {
                if data.capacity < encoding.chunkSize { data.reserveCapacity(encoding.chunkSize) }
                data.append(contentsOf: piece.storage)
            }
        }
        bodyRead += Int64(data.count)
        guard bodyRead <= declaredLength else {
            throw AWSSigningError.bodyLengthMismatch(declared: declaredLength, actual: "more")
        }
        if data.isEmpty {
            guard bodyRead == declaredLength else {
                throw AWSSigningError.bodyLengthMismatch(declared: declaredLength, actual: "\(bodyRead)")
            }
            finalChunkQueued = true
        }
        let signature = data.withUnsafeBytes { encoding.signature(of: $0, after: previousSignature) }
        previousSignature = signature
        header = Array("\(String(data.count, radix: 16));chunk-signature=\(signature)\r\n".utf8)
        offset = 0
    }
}
