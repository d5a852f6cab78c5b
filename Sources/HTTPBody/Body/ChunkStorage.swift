/// Memory a body chunk is written into: `[UInt8]` for
/// ``RequestBody/chunks(maximumChunkSize:)``, a transport's own buffer type
/// when it reads a body with a ``ChunkReader`` to send without copying.
public protocol ChunkStorage {
    /// Creates storage with room for `capacity` bytes, of which `initializer`
    /// writes the first ones and returns how many.
    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows

    /// Calls `body` with the bytes held.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension ChunkStorage {
    /// Storage holding `bytes`: the array itself when `Self` is `[UInt8]`,
    /// otherwise a copy.
    public static func holding(_ bytes: [UInt8]) -> Self {
        if let same = bytes as? Self { return same }
        return Self(capacity: bytes.count) { buffer in
            bytes.withUnsafeBytes { source in buffer.copyMemory(from: source) }
            return bytes.count
        }
    }
}

extension [UInt8]: ChunkStorage {
    public init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        try self.init(unsafeUninitializedCapacity: capacity) { buffer, count in
            count = try initializer(UnsafeMutableRawBufferPointer(buffer))
        }
    }
}
