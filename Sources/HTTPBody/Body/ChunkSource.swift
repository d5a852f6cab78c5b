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
///
/// A source that can move past bytes without producing them (a file seeks, a
/// multipart form steps over its parts) also implements ``skip(_:)``: a body
/// sliced at an offset (``RequestBody/slice(_:)``, what a resumable upload
/// sends) then starts there without reading what comes before.
public protocol ChunkSource {
    /// Returns the next non-empty chunk of at most `maximumLength` bytes,
    /// written into a new `Storage`, or `nil` once the body has ended.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>?

    /// Moves past the next `count` bytes without producing them and returns
    /// how many it moved past: fewer only when the body ends first.
    ///
    /// The default reads the bytes and drops them, 1 MiB at a time: correct
    /// for every source, and as costly as reading them.
    mutating func skip(_ count: Int64) async throws -> Int64
}

extension ChunkSource {
    /// Reads the next `count` bytes and drops them; see ``ChunkSource/skip(_:)``.
    public mutating func skip(_ count: Int64) async throws -> Int64 {
        var left = max(0, count)
        while left > 0 {
            guard let dropped = try await nextChunk(maximumLength: Int(min(1024 * 1024, left))) else { break }
            left -= Int64(dropped.count)
        }
        return max(0, count) - left
    }

    /// Returns the next non-empty chunk as an array of bytes, or `nil` once
    /// the body has ended.
    public mutating func nextChunk(maximumLength: Int) async throws -> [UInt8]? {
        try await nextChunk(maximumLength: maximumLength, as: [UInt8].self)?.storage
    }
}
