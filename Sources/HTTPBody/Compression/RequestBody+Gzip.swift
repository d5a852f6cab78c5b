// The one Swift file in HTTPBody that imports zlib (house style, practice 8).
import CZlib

extension RequestBody {
    /// This body compressed with gzip (RFC 1952) as it is read, sent with
    /// `Content-Encoding: gzip`.
    ///
    /// The compressed length is not known up front, so the result has no
    /// length and goes out with chunked framing over HTTP/1.1. It is replayable
    /// exactly when this body is. Memory: one zlib stream (about 270 KB at the
    /// default settings) plus one output chunk per read, whatever the body's size.
    ///
    /// Chunks that the inner body marks as not worth compressing (JPEG, zip and
    /// other already-compressed parts of a multipart form) are stored at level 0
    /// rather than deflated again; the rest use `level`.
    ///
    /// - Parameter level: The deflate level, 0 (store) through 9 (smallest);
    ///   clamped to that range.
    public func gzipped(level: Int = 6) -> RequestBody {
        gzipped(GzipOptions(level: level))
    }

    /// This body compressed with gzip using the given options; see ``gzipped(level:)``.
    public func gzipped(_ options: GzipOptions) -> RequestBody {
        let inner = self
        return RequestBody(
            contentType: contentType,
            contentEncoding: contentEncoding.map { "\($0), gzip" } ?? "gzip",
            length: nil,
            isReplayable: isReplayable
        ) {
            try GzipChunkSource(inner: inner.makeChunkSource(), options: options)
        }
    }
}

/// Compresses another source's chunks into a gzip member: a fixed header, a
/// raw deflate stream written straight into each output chunk, then the
/// CRC-32 and length trailer.
struct GzipChunkSource: ChunkSource {
    /// Output chunks are capped so a caller asking for huge chunks does not
    /// make this allocate them.
    private static let largestChunk = 1 << 20

    private var inner: any ChunkSource
    private let deflater: Deflater
    private let compressedLevel: Int32

    private var input: [UInt8] = []
    private var inputOffset = 0
    private var innerEnded = false
    private var deflateEnded = false
    /// The header before the deflate stream, the trailer after it.
    private var framing: [UInt8]
    private var framingOffset = 0
    private var checksum = crc32(0, nil, 0)
    private var inputSize: UInt32 = 0

    init(inner: any ChunkSource, options: GzipOptions) throws {
        let level = Int32(min(9, max(0, options.level)))
        self.inner = inner
        self.compressedLevel = level
        self.deflater = try Deflater(level: level)
        let extraFlags: UInt8 = level == 9 ? 2 : (level <= 1 ? 4 : 0)  // RFC 1952 XFL
        let time = options.modificationTime
        framing = [
            0x1F, 0x8B, 8, 0,  // ID1 ID2, CM = deflate, FLG = none
            UInt8(truncatingIfNeeded: time), UInt8(truncatingIfNeeded: time >> 8),
            UInt8(truncatingIfNeeded: time >> 16), UInt8(truncatingIfNeeded: time >> 24),
            extraFlags, options.operatingSystem,
        ]
    }

    /// Already compressed: a gzip body inside another gzip body is stored.
    var lastChunkIsCompressible: Bool { false }

    mutating func nextChunk(maximumLength: Int) async throws -> [UInt8]? {
        let capacity = min(maximumLength, Self.largestChunk)
        var chunk = [UInt8](repeating: 0, count: capacity)
        var filled = 0
        while filled < capacity {
            if framingOffset < framing.count {
                let count = min(capacity - filled, framing.count - framingOffset)
                chunk.replaceSubrange(filled..<filled + count, with: framing[framingOffset..<framingOffset + count])
                filled += count
                framingOffset += count
                continue
            }
            if deflateEnded { break }
            if inputOffset == input.count, !innerEnded {
                try await readInput()
                continue
            }
            let offset = inputOffset
            let finish = innerEnded
            let step = try chunk.withUnsafeMutableBytes { output in
                try input.withUnsafeBytes { input in
                    try deflater.compress(
                        UnsafeRawBufferPointer(rebasing: input[offset...]),
                        into: UnsafeMutableRawBufferPointer(rebasing: output[filled...]),
                        finish: finish
                    )
                }
            }
            inputOffset += step.consumed
            filled += step.produced
            if step.ended {
                deflateEnded = true
                framing = Self.trailer(checksum: checksum, size: inputSize)
                framingOffset = 0
            }
        }
        guard filled > 0 else { return nil }
        if filled < capacity / 2 { return Array(chunk[..<filled]) }  // do not keep idle capacity alive
        chunk.removeSubrange(filled...)
        return chunk
    }

    /// Takes the inner body's next chunk and sets the level its compressibility asks for.
    private mutating func readInput() async throws {
        guard let next = try await inner.nextChunk(maximumLength: RequestBody.defaultChunkSize) else {
            innerEnded = true
            input = []
            inputOffset = 0
            return
        }
        checksum = next.withUnsafeBufferPointer { crc32(checksum, $0.baseAddress, uInt($0.count)) }
        inputSize &+= UInt32(truncatingIfNeeded: next.count)  // ISIZE is the length modulo 2^32
        input = next
        inputOffset = 0
        deflater.requestLevel(inner.lastChunkIsCompressible ? compressedLevel : 0)
    }

    /// CRC32 then ISIZE, both little-endian (RFC 1952, section 2.3.1).
    private static func trailer(checksum: uLong, size: UInt32) -> [UInt8] {
        let crc = UInt32(truncatingIfNeeded: checksum)
        return [crc, size].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }
}

/// One zlib raw-deflate stream, allocated for one read of a body and freed
/// with it. Not `Sendable`: a chunk source is used by one reader at a time.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var currentLevel: Int32
    private var wantedLevel: Int32

    init(level: Int32) throws(GzipError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: a raw deflate stream; the gzip framing is ours,
        // so the header is the same on every platform.
        let status = czlib_deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .initializationFailed(status: status)
        }
        currentLevel = level
        wantedLevel = level
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Asks for a new level from the next input on.
    func requestLevel(_ level: Int32) {
        wantedLevel = level
    }

    /// Deflates as much of `input` as fits into `output`; with `finish`, ends
    /// the stream once all input is in. `ended` says the stream is complete.
    func compress(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        finish: Bool
    ) throws(GzipError) -> (consumed: Int, produced: Int, ended: Bool) {
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(min(output.count, Int(UInt32.max)))
        let room = Int(stream.pointee.avail_out)

        if wantedLevel != currentLevel {
            // zlib applies a new level cleanly only after the pending input is
            // flushed to a block boundary (zlib manual, deflateParams).
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            let flushed = deflate(stream, Z_BLOCK)
            guard flushed == Z_OK || flushed == Z_BUF_ERROR else { throw failure(flushed) }
            if stream.pointee.avail_out == 0 { return (0, room, false) }  // more flush output to come
            let changed = deflateParams(stream, wantedLevel, Z_DEFAULT_STRATEGY)
            if changed == Z_OK {
                currentLevel = wantedLevel
            } else if changed != Z_BUF_ERROR {  // Z_BUF_ERROR: retried on the next call
                throw failure(changed)
            }
        }

        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw failure(status) }
        let consumed = input.count - Int(stream.pointee.avail_in)
        let produced = room - Int(stream.pointee.avail_out)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        return (consumed, produced, status == Z_STREAM_END)
    }

    private func failure(_ status: Int32) -> GzipError {
        .deflateFailed(status: status, message: stream.pointee.msg.map { String(cString: $0) })
    }
}
