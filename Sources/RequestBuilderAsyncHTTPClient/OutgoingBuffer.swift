import HTTPBody
import NIOCore

/// A `ByteBuffer` that body sources write into directly, so a chunk read from
/// a file goes from the kernel into the buffer the socket is written from.
struct OutgoingBuffer: ChunkStorage {
    private(set) var buffer: ByteBuffer

    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
        _ = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { pointer in
            try initializer(UnsafeMutableRawBufferPointer(rebasing: pointer[..<capacity]))
        }
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeReadableBytes(body)
    }
}
