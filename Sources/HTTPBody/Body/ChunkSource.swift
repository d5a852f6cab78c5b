/// A producer of a body's bytes, front to back: one instance per read of a body.
///
/// Implementations fill each chunk with as many bytes as they have, up to the
/// maximum, so that consumers see few, large chunks.
package protocol ChunkSource {
    /// Returns the next non-empty chunk of at most `maximumLength` bytes, or
    /// `nil` once the body has ended.
    mutating func nextChunk(maximumLength: Int) async throws -> [UInt8]?

    /// Returns the next non-empty chunk written into storage of the caller's
    /// type, or `nil` once the body has ended.
    ///
    /// Sources that produce their bytes in place (files, multipart forms)
    /// write them straight into the new storage, so a transport that sends
    /// from its own buffer type gets every byte copied once, from the kernel
    /// into the buffer it writes to the socket. Others copy their chunk.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> Storage?

    /// Whether the bytes of the chunk most recently returned are worth
    /// compressing: `false` for JPEG, zip and other already-compressed data,
    /// so a gzip stream can store them instead of deflating them again.
    var lastChunkIsCompressible: Bool { get }
}

extension ChunkSource {
    package var lastChunkIsCompressible: Bool { true }

    package mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> Storage? {
        guard let chunk = try await nextChunk(maximumLength: maximumLength) else { return nil }
        if let chunk = chunk as? Storage { return chunk }  // an array asked for as an array
        return Storage(copying: chunk)
    }
}
