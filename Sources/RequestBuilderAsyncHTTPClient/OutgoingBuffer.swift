import HTTPBody
import NIOCore

/// A `ByteBuffer` that body sources write into directly, so a chunk read from
/// a file goes from the kernel into the buffer the socket is written from.
struct OutgoingBuffer: ChunkStorage {
    private(set) var buffer: ByteBuffer

    /// A chunk handed to the connection earlier, which the next chunk read
    /// in this task is read into instead of new memory (see
    /// `ByteBufferChunks`): taken out of the box, so that the buffer is
    /// referenced once, by the connection at most.
    @TaskLocal static var recycled: LockedValue<ByteBuffer?>?

    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        // The bytes start at an address that is a multiple of
        // FileReader.bufferAlignment, skipping up to that many bytes of the
        // allocation: a file read from an offset that is a multiple of it too
        // then never lands at a distance from its pages that the kernel
        // copies at a fraction of its speed (FileReader.copiesSlowly).
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

    /// The recycled buffer, if there is one of at least `minimumCapacity`
    /// bytes; the box is emptied either way.
    private static func takeRecycled(minimumCapacity: Int) -> ByteBuffer? {
        recycled?.withLock { spare in
            guard let buffer = spare.take(), buffer.capacity >= minimumCapacity else { return nil }
            return buffer
        }
    }

    /// The most bytes to read into one buffer for chunks of `chunkSize`:
    /// `chunkSize` less the alignment padding, so the buffer with its padding
    /// takes `chunkSize` bytes of memory. NIO rounds a buffer's capacity up
    /// to a power of two, so 512 KiB read into a 512 KiB + 64 buffer would
    /// take 1 MiB: twice the memory the chunk size promises, and 4 MiB more
    /// for 4 uploads each holding two chunks. Chunks under a page are read whole.
    ///
    /// A chunk sent over TLS is copied, sealed, into one buffer of its
    /// records (NIOSSL's), at most 29 bytes longer per 16 KiB record
    /// (TLS 1.2's AES-GCM; 1.3 adds 22), which NIO rounds up the same way:
    /// `inTLSRecords` leaves 32 bytes a record more room, so that buffer
    /// takes `chunkSize` bytes too (512 KiB, not 1 MiB). The length stays a
    /// multiple of the alignment.
    static func readLength(forChunkSize chunkSize: Int, inTLSRecords: Bool = false) -> Int {
        let alignment = FileReader.bufferAlignment
        guard chunkSize >= 4096 else { return chunkSize }
        let records = (chunkSize + tlsRecordSize - 1) / tlsRecordSize
        let sealingRoom = inTLSRecords ? (records * 32 + alignment - 1) / alignment * alignment : 0
        return chunkSize - alignment - sealingRoom
    }

    /// The most plaintext a TLS record carries (RFC 8446, 5.1).
    static let tlsRecordSize = 16384

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeReadableBytes(body)
    }
}
