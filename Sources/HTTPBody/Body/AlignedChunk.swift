/// Chunk storage at an address that is a multiple of
/// ``FileReader/bufferAlignment``, for a reader that only looks at the bytes
/// (a digest of a file): read from offsets that are multiples of the
/// alignment, the kernel copies a file into it at full speed, where an
/// array's bytes (32 bytes past what `malloc` gives) may lie at a distance
/// from the file's pages that it copies at a fifth of that
/// (``FileReader/copiesSlowly(to:fromFileOffset:)``).
package struct AlignedChunk: ChunkStorage {
    /// Owns the memory, so a chunk is freed with its last copy.
    private final class Memory {
        /// What `malloc` gave; the bytes start up to the alignment past it.
        private let allocation: UnsafeMutableRawBufferPointer
        let bytes: UnsafeMutableRawBufferPointer
        var count = 0

        init(capacity: Int) {
            // Padded by hand: an alignment above 16 asks glibc's memalign,
            // which splits the pieces around each block off into the heap,
            // where they kept 2-4 MiB more of a 1 GiB S3 upload resident.
            let alignment = FileReader.bufferAlignment
            allocation = .allocate(byteCount: max(0, capacity) + alignment, alignment: 16)
            let address = Int(bitPattern: allocation.baseAddress)
            let padding = (alignment - address % alignment) % alignment
            bytes = UnsafeMutableRawBufferPointer(rebasing: allocation[padding..<(padding + max(0, capacity))])
        }

        deinit {
            allocation.deallocate()
        }
    }

    private let memory: Memory

    package init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        memory = Memory(capacity: capacity)
        let written = try initializer(memory.bytes)
        memory.count = min(max(0, written), memory.bytes.count)
    }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: memory.bytes[0..<memory.count]))
    }
}
