/// Chunk storage at an address that is a multiple of
/// ``FileReader/bufferAlignment``, for a reader that only looks at the bytes
/// (a digest of a file): the kernel copies a file into it at full speed,
/// where an array's bytes (32 bytes past what `malloc` gives) may start at
/// an address it copies to at a third of that.
package struct AlignedChunk: ChunkStorage {
    /// Owns the memory, so a chunk is freed with its last copy.
    private final class Memory {
        let bytes: UnsafeMutableRawBufferPointer
        var count = 0

        init(capacity: Int) {
            bytes = .allocate(byteCount: max(1, capacity), alignment: FileReader.bufferAlignment)
        }

        deinit {
            bytes.deallocate()
        }
    }

    private let memory: Memory

    package init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        memory = Memory(capacity: capacity)
        let written = try initializer(UnsafeMutableRawBufferPointer(rebasing: memory.bytes[0..<max(0, capacity)]))
        memory.count = min(max(0, written), capacity)
    }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: memory.bytes[0..<memory.count]))
    }
}
