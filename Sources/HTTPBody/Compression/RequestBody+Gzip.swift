extension RequestBody {
    /// This body compressed with gzip (RFC 1952) as it is read, sent with
    /// `Content-Encoding: gzip`.
    ///
    /// The compressed length is not known up front, so the result has no
    /// length and goes out with chunked framing over HTTP/1.1. It is replayable
    /// exactly when this body is. The body is compressed in 128 KiB blocks,
    /// several at once on a multi-core machine (see ``GzipOptions/concurrency``),
    /// into the same bytes whatever the number of cores. Memory: about 700 KB
    /// per unit of concurrency (a zlib stream, a block's input and two
    /// blocks' output) plus one output chunk per read, whatever the body's size.
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
            GzipChunkSource(inner: try inner.makeChunkSource(), options: options)
        }
    }
}

/// Compresses another source's chunks into one gzip member: a fixed header,
/// one raw deflate stream, then the CRC-32 and length trailer.
///
/// The technique is pigz's: ``GzipBlockReader`` cuts the input into blocks,
/// each deflated on its own, primed with the 32 KiB before it and ended on a
/// byte boundary, so the blocks' data concatenate into one stream that the
/// last block ends. Up to `concurrency` blocks are compressed at once in a
/// task group, in rounds of twice that many, and their data handed out in
/// order; each block's CRC-32 is combined into the body's.
struct GzipChunkSource: ChunkSource {
    /// Output chunks are capped so a caller asking for huge chunks does not
    /// make this allocate them.
    private static let largestChunk = 1 << 20

    /// Blocks per round, per unit of concurrency: a round's blocks are all
    /// compressed before the next round starts, so longer rounds leave cores
    /// idle less often, at the cost of holding more compressed data.
    private static let roundLength = 2

    private var reader: GzipBlockReader
    private let concurrency: Int
    /// Deflaters not lent to a task, reused from block to block; at most
    /// `concurrency` are ever made.
    private var idleDeflaters: [Deflater] = []
    /// Bytes waiting to be handed out, in order: the header, blocks' data, the trailer.
    private var queue: [[UInt8]]
    private var queueIndex = 0
    private var queueOffset = 0
    private var lastBlockRead = false
    private var checksum: UInt32 = 0
    private var inputSize: UInt32 = 0

    init(inner: any ChunkSource, options: GzipOptions) {
        let level = Int32(min(9, max(0, options.level)))
        self.concurrency = max(1, options.concurrency)
        self.reader = GzipBlockReader(inner: inner, level: level)
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
            } else if lastBlockRead {
                break
            } else {
                try await compressNextBlocks()
            }
        }
        guard !chunk.isEmpty else { return nil }
        if chunk.count < capacity / 2 { return Array(chunk) }  // do not keep idle capacity alive
        return chunk
    }

    /// Reads and compresses the next block, or round of blocks, and queues
    /// their data; after the last block, the trailer too.
    private mutating func compressNextBlocks() async throws {
        let outputs = concurrency == 1 ? [try await compressNextBlock()] : try await compressNextRound()
        queue = []
        queueIndex = 0
        for output in outputs {
            checksum = Deflater.combine(checksum, output.checksum, secondLength: output.inputLength)
            inputSize &+= UInt32(truncatingIfNeeded: output.inputLength)  // ISIZE is the length modulo 2^32
            queue.append(output.bytes)
        }
        if lastBlockRead { queue.append(Self.trailer(checksum: checksum, size: inputSize)) }
    }

    /// Compresses the next block on this task.
    private mutating func compressNextBlock() async throws -> Deflater.Output {
        try compressHere(try await nextBlock())
    }

    private mutating func compressHere(_ block: GzipBlockReader.Block) throws(GzipError) -> Deflater.Output {
        let deflater = try borrowDeflater(for: block)
        defer { deflater.map { idleDeflaters.append($0) } }
        return try Self.compress(block, with: deflater)
    }

    /// Compresses up to `roundLength × concurrency` blocks, `concurrency` at a
    /// time, reading each next block while the others compress.
    private mutating func compressNextRound() async throws -> [Deflater.Output] {
        let first = try await nextBlock()
        if first.isLast { return [try compressHere(first)] }  // a small body is not worth a task
        return try await withThrowingTaskGroup(of: (index: Int, output: Deflater.Output, deflater: Deflater?).self) { group in
            var outputs: [Deflater.Output?] = []
            var running = 0
            var block: GzipBlockReader.Block? = first
            while let current = block {
                if running == concurrency, let done = try await group.next() {
                    outputs[done.index] = done.output
                    done.deflater.map { idleDeflaters.append($0) }
                    running -= 1
                }
                let index = outputs.count
                let deflater = try borrowDeflater(for: current)
                outputs.append(nil)
                group.addTask { (index, try Self.compress(current, with: deflater), deflater) }
                running += 1
                block = lastBlockRead || outputs.count == Self.roundLength * concurrency ? nil : try await nextBlock()
            }
            for try await done in group {
                outputs[done.index] = done.output
                done.deflater.map { idleDeflaters.append($0) }
            }
            return outputs.compactMap { $0 }
        }
    }

    private mutating func nextBlock() async throws -> GzipBlockReader.Block {
        guard let block = try await reader.next() else { preconditionFailure("a gzip block was read after the last") }
        lastBlockRead = block.isLast
        return block
    }

    /// An idle deflater, or a new one, for a block to deflate; `nil` for a block to store.
    private mutating func borrowDeflater(for block: GzipBlockReader.Block) throws(GzipError) -> Deflater? {
        guard block.level > 0 else { return nil }
        if let idle = idleDeflaters.popLast() { return idle }
        return try Deflater(level: block.level)
    }

    private static func compress(_ block: GzipBlockReader.Block, with deflater: Deflater?) throws(GzipError) -> Deflater.Output {
        guard let deflater else { return Deflater.store(block) }
        return try deflater.compress(block)
    }

    /// CRC32 then ISIZE, both little-endian (RFC 1952, section 2.3.1).
    private static func trailer(checksum: UInt32, size: UInt32) -> [UInt8] {
        [checksum, size].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }
}
