/// A producer of a body's bytes, front to back: one instance per read of a
/// body. Conform to it, and make a body with
/// ``RequestBody/init(contentType:length:isReplayable:makeSource:)``, to send
/// bytes from a source of your own.
///
/// The one requirement writes each chunk into storage of the caller's type:
/// a transport that sends from its own buffers (AsyncHTTPClient's
/// `ByteBuffer`) gets the bytes of a file or a multipart form copied once,
/// from the kernel into the buffer it writes to the socket. A source that
/// already holds an array hands it over with ``ChunkStorage/holding(_:)``.
public protocol ChunkSource {
    /// Returns the next non-empty chunk of at most `maximumLength` bytes,
    /// written into a new `Storage`, or `nil` once the body has ended.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>?
}

extension ChunkSource {
    /// Returns the next non-empty chunk as an array of bytes, or `nil` once
    /// the body has ended.
    public mutating func nextChunk(maximumLength: Int) async throws -> [UInt8]? {
        try await nextChunk(maximumLength: maximumLength, as: [UInt8].self)?.storage
    }
}
