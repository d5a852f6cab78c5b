/// Reads a body front to back, in chunks of whatever storage the caller asks
/// for: the zero-copy way for a transport to send a ``RequestBody``.
///
/// The body's source is opened on the first read. The reader ends after the
/// last chunk and after the first error, so a failed source is never read
/// again half-way; every later read returns `nil`.
///
/// ```swift
/// var reader = ChunkReader(body)
/// while let chunk = try await reader.next(maximumLength: 512 * 1024, as: ByteBuffer.self) {
///     try await channel.write(chunk.storage)
/// }
/// ```
public struct ChunkReader {
    private enum State {
        case notStarted(@Sendable () throws -> any ChunkSource)
        case reading(any ChunkSource)
        case finished
    }

    private var state: State

    /// A reader of `body`; nothing is opened until the first read.
    public init(_ body: RequestBody) {
        state = .notStarted(body.makeSource)
    }

    /// The next non-empty chunk of at most `maximumLength` bytes, or `nil`
    /// once the body has ended or a read has failed.
    public mutating func next<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        var source: any ChunkSource
        switch state {
        case .finished:
            return nil
        case .notStarted(let makeSource):
            state = .finished  // a failure to open ends the body
            source = try makeSource()
        case .reading(let current):
            source = current
        }
        state = .finished  // a thrown error ends it too
        guard let chunk = try await source.nextChunk(maximumLength: max(1, maximumLength), as: Storage.self) else {
            return nil
        }
        state = .reading(source)
        return chunk
    }
}
