import HTTPBody
import NIOCore

/// A `ByteBuffer` that body sources write into directly, so a chunk read from
/// a file goes from the kernel into the buffer the socket is written from.
struct OutgoingBuffer: ChunkStorage {
    private(set) var buffer: ByteBuffer

    /// Buffers handed to connections earlier, which the next chunks are read
    /// into instead of new memory (see ``ByteBufferChunks``), at most
    /// ``poolLimit`` bytes of them.
    private static let pool = LockedValue<[ByteBuffer]>([])

    /// What the pool holds at most: 4 chunks of 512 KiB, what 4 uploads at
    /// once give back between their chunks, and all a process keeps once its
    /// uploads have ended.
    static let poolLimit = 2 << 20

    /// The smallest buffer worth keeping: below glibc's first `mmap`
    /// threshold `malloc` hands out recently freed heap memory, faulted in
    /// already.
    static let smallestPooled = 128 << 10

    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        // The bytes start at an address that is a multiple of
        // FileReader.bufferAlignment, skipping up to that many bytes of the
        // allocation (malloc gives a large block at offset 16 of a page,
        // where the kernel copies a file's pages at a third of the speed).
        let alignment = FileReader.bufferAlignment
        buffer = Self.takeRecycled(minimumCapacity: capacity + alignment) ?? ByteBufferAllocator().buffer(capacity: capacity + alignment)
        // Empties a recycled buffer in place when nothing else holds it; one
        // the connection still holds is left to it, and new memory of the
        // same size taken (nothing copied).
        buffer.clear()
        var padding = 0
        _ = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity + alignment) { pointer in
            let address = Int(bitPattern: pointer.baseAddress)
            padding = (alignment - address % alignment) % alignment
            return padding + (try initializer(UnsafeMutableRawBufferPointer(rebasing: pointer[padding..<(padding + capacity)])))
        }
        buffer.moveReaderIndex(forwardBy: padding)
    }

    /// Gives `buffer` to the pool, to be read into again once the connection
    /// has written it (it is left empty: the pool holds the one reference
    /// besides the connection's); dropped when the pool is full.
    static func recycle(_ buffer: inout ByteBuffer?) {
        guard let size = buffer?.capacity, size >= smallestPooled else {
            buffer = nil
            return
        }
        pool.withLock { pool in
            let held = pool.reduce(0) { $0 + $1.capacity }
            guard held + size <= poolLimit, let taken = buffer.take() else { return }
            pool.append(taken)
        }
        buffer = nil
    }

    /// A pooled buffer of at least `minimumCapacity` bytes, if there is one.
    private static func takeRecycled(minimumCapacity: Int) -> ByteBuffer? {
        pool.withLock { pool in
            guard let index = pool.lastIndex(where: { $0.capacity >= minimumCapacity }) else { return nil }
            return pool.remove(at: index)
        }
    }

    /// The most bytes to read into one buffer for chunks of `chunkSize`:
    /// `chunkSize` less the alignment padding, so the buffer with its padding
    /// takes `chunkSize` bytes of memory. NIO rounds a buffer's capacity up
    /// to a power of two, so 512 KiB read into a 512 KiB + 64 buffer would
    /// take 1 MiB: twice the memory the chunk size promises, and 4 MiB more
    /// for 4 uploads each holding two chunks. Chunks under a page are read whole.
    static func readLength(forChunkSize chunkSize: Int) -> Int {
        let alignment = FileReader.bufferAlignment
        return chunkSize >= 4096 ? chunkSize - alignment : chunkSize
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeReadableBytes(body)
    }
}
