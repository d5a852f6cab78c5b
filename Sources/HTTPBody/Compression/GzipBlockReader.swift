/// Cuts another source's bytes into the blocks that ``GzipChunkSource``
/// compresses one by one, possibly at the same time.
///
/// A block holds up to ``blockSize`` bytes of one compressibility, so it has
/// one level: the body's, or 0 (stored) for chunks the inner source marks as
/// not worth compressing. Where blocks end depends only on the bytes and those
/// marks, never on how many blocks are compressed at once, so the output is
/// the same whatever the concurrency.
struct GzipBlockReader {
    /// A block's most input: 128 KiB, as in pigz; small enough to spread a
    /// few MiB over every core, large enough that priming each block with
    /// its predecessor's last 32 KiB costs little.
    static let blockSize = 128 * 1024

    /// The deflate window (RFC 1951, section 2): how far back a match may reach.
    static let windowSize = 32 * 1024

    /// A run of input that is compressed on its own.
    struct Block: Sendable {
        /// The bytes to compress.
        var input: [UInt8]
        /// The deflate level: the body's, or 0 to store the bytes as they are.
        var level: Int32
        /// Up to 32 KiB of the input just before this block, for its matches
        /// to refer back to; empty for stored blocks, which have no matches,
        /// and for every block when the compressor takes no dictionary.
        var dictionary: [UInt8]
        /// Whether this block ends the deflate stream.
        var isLast: Bool
    }

    private var inner: any ChunkSource
    private let level: Int32
    /// Whether blocks carry a dictionary; when not, no history is kept.
    private let primesBlocks: Bool
    /// A chunk read but not yet in a block: the start of the next one.
    private var pending: (bytes: [UInt8], isCompressible: Bool)?
    private var innerEnded = false
    private var blocksRead = 0
    /// The last window of input, stored bytes included: the next deflated
    /// block's dictionary. Text after a small stored part (a thumbnail) still
    /// finds the boundary and headers before it, as in one zlib stream.
    private var history: [UInt8] = []

    init(inner: any ChunkSource, level: Int32, primesBlocks: Bool) {
        self.inner = inner
        self.level = level
        self.primesBlocks = primesBlocks
    }

    /// The next block, or `nil` after the last one. An empty body still has
    /// one block, empty and last, so the deflate stream is always ended.
    mutating func next() async throws -> Block? {
        guard let first = try await takePending() else {
            defer { blocksRead += 1 }
            return blocksRead == 0 ? Block(input: [], level: level, dictionary: [], isLast: true) : nil
        }
        var input = first.bytes
        while input.count < Self.blockSize, let next = try await read(maximumLength: Self.blockSize - input.count) {
            guard next.isCompressible == first.isCompressible else {
                pending = next
                break
            }
            if input.capacity < Self.blockSize { input.reserveCapacity(Self.blockSize) }
            input += next.bytes
        }
        if pending == nil, !innerEnded {
            pending = try await read(maximumLength: Self.blockSize)  // is there more? the last block ends the stream
        }
        blocksRead += 1
        let blockLevel = first.isCompressible ? level : 0
        let block = Block(input: input, level: blockLevel, dictionary: blockLevel > 0 ? history : [], isLast: pending == nil)
        if primesBlocks { remember(block) }
        return block
    }

    /// Keeps the last window of input for the next block's dictionary.
    private mutating func remember(_ block: Block) {
        if block.input.count >= Self.windowSize {
            history = Array(block.input.suffix(Self.windowSize))
        } else {
            history = Array((history + block.input).suffix(Self.windowSize))
        }
    }

    private mutating func takePending() async throws -> (bytes: [UInt8], isCompressible: Bool)? {
        if let pending {
            self.pending = nil
            return pending
        }
        return try await read(maximumLength: Self.blockSize)
    }

    /// The inner source's next non-empty chunk and its mark, or `nil` at its end.
    private mutating func read(maximumLength: Int) async throws -> (bytes: [UInt8], isCompressible: Bool)? {
        while !innerEnded {
            guard let chunk = try await inner.nextChunk(maximumLength: maximumLength, as: [UInt8].self) else {
                innerEnded = true
                break
            }
            if !chunk.storage.isEmpty { return (chunk.storage, chunk.isCompressible) }
        }
        return nil
    }
}
