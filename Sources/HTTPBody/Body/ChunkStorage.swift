/// Memory a body chunk is written into: `[UInt8]` for
/// ``RequestBody/chunks(maximumChunkSize:)``, a transport's own buffer type
/// when it asks a ``ChunkSource`` for chunks it can send without copying.
package protocol ChunkStorage {
    /// Creates storage with room for `capacity` bytes, of which `initializer`
    /// writes the first ones and returns how many.
    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows

    /// Calls `body` with the bytes held.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension ChunkStorage {
    /// Creates storage holding a copy of `bytes`.
    package init(copying bytes: [UInt8]) {
        self.init(capacity: bytes.count) { buffer in
            bytes.withUnsafeBytes { source in buffer.copyMemory(from: source) }
            return bytes.count
        }
    }
}

extension [UInt8]: ChunkStorage {
    package init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        try self.init(unsafeUninitializedCapacity: capacity) { buffer, count in
            count = try initializer(UnsafeMutableRawBufferPointer(buffer))
        }
    }
}
