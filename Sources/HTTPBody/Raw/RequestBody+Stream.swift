extension RequestBody {
    /// A body read once from an async sequence of byte chunks, such as a
    /// network download or standard input.
    ///
    /// Such a body is not replayable: a retry cannot send it again.
    ///
    /// - Parameters:
    ///   - sequence: The chunks, in order. Empty chunks are skipped.
    ///   - length: The total byte count, if known; the stream must then produce
    ///     exactly that many bytes, or reading fails.
    ///   - contentType: The type to declare; `application/octet-stream` by default.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks,
        length: Int64? = nil,
        contentType: MediaType? = .octetStream
    ) -> RequestBody where Chunks.Element: Sequence<UInt8> {
        let taken = LockedValue(false)
        return RequestBody(contentType: contentType, length: length, isReplayable: false) {
            let alreadyTaken = taken.withLock { wasTaken in
                defer { wasTaken = true }
                return wasTaken
            }
            if alreadyTaken { throw RequestBodyError.alreadyConsumed }
            return StreamChunkSource(iterator: sequence.makeAsyncIterator(), declaredLength: length)
        }
    }
}

/// Passes a sequence's chunks through, splitting any larger than asked for.
struct StreamChunkSource<Iterator: AsyncIteratorProtocol>: ChunkSource where Iterator.Element: Sequence<UInt8> {
    var iterator: Iterator
    let declaredLength: Int64?
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var produced: Int64 = 0

    init(iterator: Iterator, declaredLength: Int64?) {
        self.iterator = iterator
        self.declaredLength = declaredLength
    }

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        try await nextBytes(maximumLength: maximumLength).map { BodyChunk(.holding($0)) }
    }

    private mutating func nextBytes(maximumLength: Int) async throws -> [UInt8]? {
        while pendingOffset == pending.count {
            guard let element = try await iterator.next() else {
                if let declaredLength, produced != declaredLength {
                    throw RequestBodyError.streamLengthMismatch(declared: declaredLength, actual: "\(produced) bytes")
                }
                return nil
            }
            pending = Array(element)
            pendingOffset = 0
        }
        let end = min(pending.count, pendingOffset + maximumLength)
        let chunk = pendingOffset == 0 && end == pending.count ? pending : Array(pending[pendingOffset..<end])
        pendingOffset = end
        produced += Int64(chunk.count)
        if let declaredLength, produced > declaredLength {
            throw RequestBodyError.streamLengthMismatch(declared: declaredLength, actual: "more")
        }
        return chunk
    }
}
