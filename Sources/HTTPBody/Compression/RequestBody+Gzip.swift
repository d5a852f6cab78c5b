extension RequestBody {
    /// This body compressed with gzip (RFC 1952) as it is read, sent with
    /// `Content-Encoding: gzip`.
    ///
    /// The compressed length is not known up front, so the result has no
    /// length and goes out with chunked framing over HTTP/1.1. It is replayable
    /// exactly when this body is. The body is compressed in 128 KiB blocks,
    /// several at once on a multi-core machine (see ``GzipOptions/concurrency``),
    /// into the same bytes whatever the number of cores. Memory: about 1.2 MB
    /// per unit of concurrency with libdeflate (Linux), 700 KB with zlib, and
    /// 600 KB more (the compressors, and the input and output of the blocks
    /// queued or being compressed: twice the concurrency plus three, as in
    /// pigz) plus one output chunk per read, whatever the body's size.
    ///
    /// Chunks that the inner body marks as not worth compressing (JPEG, zip and
    /// other already-compressed parts of a multipart form) are stored at level 0
    /// rather than deflated again; the rest use `level`.
    ///
    /// - Parameter level: The deflate level, 0 (store) through 9 (smallest);
    ///   clamped to that range. libdeflate's levels on Linux, zlib's elsewhere
    ///   (see ``GzipOptions/level``).
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
            GzipChunkSource(inner: try inner.makeChunkSource(), options: options)
        }
    }
}

/// Compresses another source's chunks into one gzip member: a fixed header,
/// one raw deflate stream, then the CRC-32 and length trailer.
///
/// The technique is pigz's: ``GzipBlockReader`` cuts the input into blocks,
/// each deflated on its own (by ``BlockCompressor``: with zlib primed with
/// the 32 KiB before it, with libdeflate independent) and ended on a byte
/// boundary, so the blocks' data concatenate into one stream that the last
/// block ends. With a concurrency above 1, blocks go to
/// ``DeflateWorkers``' threads as a pipeline: this source keeps a few more
/// blocks queued or being deflated than there are threads, reading the next
/// ones while the threads work, and hands out their data in order,
/// combining each block's CRC-32 into the body's.
struct GzipChunkSource: ChunkSource {
    /// Output chunks are capped so a caller asking for huge chunks does not
    /// make this allocate them.
    private static let largestChunk = 1 << 20

    /// Blocks queued or being deflated at most, for `threads` threads:
    /// pigz's count of input buffers, two per thread and three more. Outputs
    /// are handed out in order, so while the oldest block's thread is slow
    /// (a neighbour's process sharing its core) the others run ahead by up
    /// to this many blocks instead of waiting for it.
    private static func blocksInFlight(threads: Int) -> Int { 2 * threads + 3 }

    private var reader: GzipBlockReader
    private let concurrency: Int
    /// The threads, from the second block of a body on (a body of one block
    /// is compressed on the reading task); released after the last block.
    private var workers: DeflateWorkers?
    /// The reading task's own compressor, when blocks are compressed there.
    private var deflater: BlockCompressor?
    /// Blocks given to the workers, and outputs taken back, so far.
    private var submitted = 0
    private var collected = 0
    /// Bytes waiting to be handed out, in order: the header, a block's data, the trailer.
    private var queue: [[UInt8]]
    private var queueIndex = 0
    private var queueOffset = 0
    private var lastBlockRead = false
    private var checksum: UInt32 = 0
    private var inputSize: UInt32 = 0

    init(inner: any ChunkSource, options: GzipOptions) {
        let level = Int32(min(9, max(0, options.level)))
        self.concurrency = max(1, options.concurrency)
        self.reader = GzipBlockReader(inner: inner, level: level, primesBlocks: BlockCompressor.primesBlocks)
        let extraFlags: UInt8 = level == 9 ? 2 : (level <= 1 ? 4 : 0)  // RFC 1952 XFL
        let time = options.modificationTime
        queue = [[
            0x1F, 0x8B, 8, 0,  // ID1 ID2, CM = deflate, FLG = none
            UInt8(truncatingIfNeeded: time), UInt8(truncatingIfNeeded: time >> 8),
            UInt8(truncatingIfNeeded: time >> 16), UInt8(truncatingIfNeeded: time >> 24),
            extraFlags, options.operatingSystem,
        ]]
    }

    /// Already compressed chunks: a gzip body inside another gzip body is stored.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        try await nextBytes(maximumLength: maximumLength).map { BodyChunk(.holding($0), isCompressible: false) }
    }

    private mutating func nextBytes(maximumLength: Int) async throws -> [UInt8]? {
        let capacity = min(maximumLength, Self.largestChunk)
        var chunk: [UInt8] = []
        while chunk.count < capacity {
            if queueIndex < queue.count {
                let piece = queue[queueIndex]
                let count = min(capacity - chunk.count, piece.count - queueOffset)
                if chunk.isEmpty { chunk.reserveCapacity(capacity) }
                chunk += piece[queueOffset..<queueOffset + count]
                queueOffset += count
                if queueOffset == piece.count {
                    queueIndex += 1
                    queueOffset = 0
                }
            } else if isDone {
                break
            } else {
                try await queueNextOutput()
            }
        }
        guard !chunk.isEmpty else { return nil }
        if chunk.count < capacity / 2 { return Array(chunk) }  // do not keep idle capacity alive
        return chunk
    }

    /// Whether every block has been read and its data queued.
    private var isDone: Bool { lastBlockRead && collected == submitted }

    /// Queues the next block's data; after the last block, the trailer too.
    private mutating func queueNextOutput() async throws {
        let output = try await nextOutput()
        checksum = Deflater.combine(checksum, output.checksum, secondLength: output.inputLength)
        inputSize &+= UInt32(truncatingIfNeeded: output.inputLength)  // ISIZE is the length modulo 2^32
        queue = [output.bytes]
        queueIndex = 0
        if isDone {
            queue.append(Self.trailer(checksum: checksum, size: inputSize))
            workers = nil  // ends the threads
        }
    }

    /// The next block's output, in order: compressed here at concurrency 1
    /// and for a body of one block, otherwise taken from the workers after
    /// topping up their queue.
    private mutating func nextOutput() async throws -> Deflater.Output {
        guard concurrency > 1 else { return try compressHere(try await nextBlock()) }
        while !lastBlockRead, submitted - collected < Self.blocksInFlight(threads: concurrency) {
            let block = try await nextBlock()
            if submitted == 0, block.isLast { return try compressHere(block) }  // a small body is not worth a thread
            let workers = self.workers ?? DeflateWorkers(count: concurrency)
            self.workers = workers
            workers.submit(block, index: submitted)
            submitted += 1
        }
        guard let workers else { preconditionFailure("no gzip block is waiting") }
        defer { collected += 1 }
        return try await workers.output(of: collected)
    }

    private mutating func compressHere(_ block: GzipBlockReader.Block) throws(GzipError) -> Deflater.Output {
        try Deflater.output(of: block, reusing: &deflater)
    }

    private mutating func nextBlock() async throws -> GzipBlockReader.Block {
        guard let block = try await reader.next() else { preconditionFailure("a gzip block was read after the last") }
        lastBlockRead = block.isLast
        return block
    }

    /// CRC32 then ISIZE, both little-endian (RFC 1952, section 2.3.1).
    private static func trailer(checksum: UInt32, size: UInt32) -> [UInt8] {
        [checksum, size].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }
}
