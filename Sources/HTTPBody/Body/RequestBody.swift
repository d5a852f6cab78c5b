public import HTTPTypes

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
    public var contentEncoding: String?

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

    private let makeSource: @Sendable () throws -> any ChunkSource

    /// Creates a body from a factory of chunk sources; each read of the body
    /// calls the factory once.
    package init(
        contentType: MediaType?,
        contentEncoding: String? = nil,
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
        Chunks(makeSource: makeSource, maximumChunkSize: max(1, maximumChunkSize))
    }

    /// Starts a fresh read of the body for encoders that wrap another body.
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
        for try await chunk in chunks() {
            guard bytes.count + chunk.count <= limit else { throw RequestBodyError.tooLarge(limit: limit) }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    /// The fields that describe this body in a request head: `Content-Type`,
    /// `Content-Encoding` and, when the length is known, `Content-Length`.
    ///
    /// Transfer framing (`Transfer-Encoding: chunked`) is left to the HTTP/1.1
    /// layer, since HTTP/2 and HTTP/3 have none.
    public var headerFields: HTTPFields {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType.description }
        if let contentEncoding { fields[.contentEncoding] = contentEncoding }
        if let length { fields[.contentLength] = String(length) }
        return fields
    }
}

extension RequestBody {
    /// An async sequence of a body's chunks; see ``RequestBody/chunks(maximumChunkSize:)``.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = [UInt8]

        let makeSource: @Sendable () throws -> any ChunkSource
        let maximumChunkSize: Int

        public func makeAsyncIterator() -> Iterator {
            Iterator(makeSource: makeSource, maximumChunkSize: maximumChunkSize)
        }

        /// Reads chunks front to back. The first call to `next()` opens the source.
        public struct Iterator: AsyncIteratorProtocol {
            private var state: State
            private let maximumChunkSize: Int

            private enum State {
                case notStarted(@Sendable () throws -> any ChunkSource)
                case reading(any ChunkSource)
                case finished
            }

            init(makeSource: @escaping @Sendable () throws -> any ChunkSource, maximumChunkSize: Int) {
                self.state = .notStarted(makeSource)
                self.maximumChunkSize = maximumChunkSize
            }

            public mutating func next() async throws -> [UInt8]? {
                var source: any ChunkSource
                switch state {
                case .finished:
                    return nil
                case .notStarted(let makeSource):
                    state = .finished  // a failure to open ends the sequence
                    source = try makeSource()
                case .reading(let current):
                    source = current
                }
                state = .finished  // a thrown error ends the sequence too
                guard let chunk = try await source.nextChunk(maximumLength: maximumChunkSize) else {
                    return nil
                }
                state = .reading(source)
                return chunk
            }
        }
    }
}
