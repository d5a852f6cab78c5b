/// The body of an HTTP request: its bytes, read in chunks, and what a server
/// needs to know about them before they arrive.
///
/// Every encoder in this module produces a `RequestBody`. The bytes are never
/// held in memory all at once unless they started there: a file body reads its
/// file a chunk at a time, so a 10 GB upload costs one chunk of memory.
///
/// ```swift
/// let body = try RequestBody.file(at: URL(filePath: "photo.jpg"))
/// for try await chunk in body.chunks() {
///     try sink.write(chunk)
/// }
/// ```
public struct RequestBody: Sendable {
    /// The `Content-Type` to send, if any.
    public var contentType: MediaType?

    /// The `Content-Encoding` applied to the bytes, such as `gzip`, if any.
    /// Set by the encoder that applied it (``gzipped(level:)``), never by
    /// hand: a label that disagreed with the bytes would corrupt the upload.
    public private(set) var contentEncoding: String?

    /// The exact number of bytes, when it is known before reading them.
    ///
    /// A body of known length is sent with `Content-Length`; one of unknown
    /// length (a stream, a compressed body) with chunked transfer encoding.
    public let length: Int64?

    /// Whether ``chunks(maximumChunkSize:)`` can be read more than once, which
    /// a retry needs. Bodies from memory and files are; streams are not.
    public let isReplayable: Bool

    /// The file the body's bytes are, unchanged, when it is a file body:
    /// a transport may hand the path to a system API (URLSession's upload
    /// from a file) instead of reading the chunks itself.
    package var file: FileLocation?

    /// Every file the body reads, in the order it reads them, with the size
    /// each had when the body was made.
    package var filesRead: [BodyFile] = []

    /// Where each file's content ends, in bytes from the start of the body,
    /// in the order the files are read: what a progress display counts the
    /// files sent by. Empty where those places are not known (a compressed
    /// body, or a stream of unknown length before a file).
    package var fileEnds: [Int64] = []

    /// Makes a fresh source for each read of the body.
    let makeSource: @Sendable () throws -> any ChunkSource

    /// Creates a body whose bytes come from a ``ChunkSource`` of your own:
    /// each read of the body calls `makeSource` once.
    ///
    /// - Parameters:
    ///   - contentType: The type to declare, if any.
    ///   - length: The exact byte count, when known before reading; the
    ///     source must then produce exactly that many bytes.
    ///   - isReplayable: Whether `makeSource` can be called again for a
    ///     retry, giving the same bytes.
    ///   - makeSource: Opens a new read of the bytes; an error it throws
    ///     fails the read.
    public init(
        contentType: MediaType?,
        length: Int64?,
        isReplayable: Bool,
        makeSource: @escaping @Sendable () throws -> any ChunkSource
    ) {
        self.init(contentType: contentType, contentEncoding: nil, length: length, isReplayable: isReplayable, makeSource: makeSource)
    }

    /// A body whose bytes carry `contentEncoding`, for the encoders that apply one.
    package init(
        contentType: MediaType?,
        contentEncoding: String?,
        length: Int64?,
        isReplayable: Bool,
        makeSource: @escaping @Sendable () throws -> any ChunkSource
    ) {
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.length = length
        self.isReplayable = isReplayable
        self.makeSource = makeSource
    }

    /// The chunk size used when a caller does not choose one: 256 KiB, large
    /// enough that per-chunk costs vanish next to copying, small enough to stay
    /// in cache.
    public static let defaultChunkSize = 256 * 1024

    /// The body's bytes as a sequence of non-empty chunks of at most
    /// `maximumChunkSize` bytes each.
    ///
    /// Reading a body that is not replayable a second time fails with
    /// ``RequestBodyError/Code/alreadyConsumed``.
    public func chunks(maximumChunkSize: Int = RequestBody.defaultChunkSize) -> Chunks {
        Chunks(body: self, maximumChunkSize: max(1, maximumChunkSize))
    }

    /// Starts a fresh read of the body, for encoders that wrap another body.
    package func makeChunkSource() throws -> any ChunkSource {
        try makeSource()
    }

    /// Reads the whole body into memory.
    ///
    /// Meant for small bodies and tests; it fails with
    /// ``RequestBodyError/Code/tooLarge`` rather than grow past `limit` bytes.
    public func collect(upTo limit: Int = 64 * 1024 * 1024) async throws -> [UInt8] {
        if let length, length > Int64(limit) {
            throw RequestBodyError.tooLarge(limit: limit)
        }
        var bytes: [UInt8] = []
        if let length { bytes.reserveCapacity(Int(length)) }
        return try await chunks().collectBytes(into: bytes, upTo: limit) { RequestBodyError.tooLarge(limit: limit) }
    }
}

extension RequestBody {
    /// An async sequence of a body's chunks; see ``RequestBody/chunks(maximumChunkSize:)``.
    public struct Chunks: AsyncSequence, Sendable {
        /// Each element is one chunk of bytes.
        public typealias Element = [UInt8]

        let body: RequestBody
        let maximumChunkSize: Int

        /// Starts reading the chunks from the beginning.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: ChunkReader(body), maximumChunkSize: maximumChunkSize)
        }

        /// Reads chunks front to back. The first call to `next()` opens the source.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: ChunkReader
            let maximumChunkSize: Int

            /// The next chunk, or `nil` after the last.
            public mutating func next() async throws -> [UInt8]? {
                try await reader.next(maximumLength: maximumChunkSize, as: [UInt8].self)?.storage
            }
        }
    }
}
