extension RequestBody {
    /// The body's bytes in `range` as a body of their own: what a resumable
    /// upload sends when it continues from the offset a server holds, or
    /// sends in parts.
    ///
    /// ```swift
    /// let rest = try body.slice(serverOffset..<body.length!)
    /// ```
    ///
    /// Each read of the slice reads this body afresh and starts at
    /// `range.lowerBound` through its source's ``ChunkSource/skip(_:)``: a
    /// file seeks there, a multipart form steps over the parts before it and
    /// seeks into the file part that holds the offset, bytes in memory index;
    /// a source of your own without `skip` produces the bytes before and drops
    /// them. A multipart form with a caller-chosen boundary reads back only
    /// the boundary's length before the offset, so an occurrence that
    /// straddles the offset is still found.
    /// The slice has no content type or encoding of its own: the protocol
    /// that sends it says what its bytes are.
    ///
    /// - Throws: ``RequestBodyError`` (``RequestBodyError/Code/notSliceable``)
    ///   when the body can be read only once, its length is not known until
    ///   it is read (a stream, a gzip-compressed body), or `range` is not
    ///   within it.
    public func slice(_ range: Range<Int64>) throws(RequestBodyError) -> RequestBody {
        guard isReplayable else {
            throw .notSliceable("it is read once (a stream), so the bytes before the offset cannot be produced again")
        }
        guard let length else {
            throw .notSliceable("its length is not known until it is read (a stream or a compressed body)")
        }
        guard range.lowerBound >= 0, range.upperBound <= length else {
            throw .notSliceable("the range \(range.lowerBound)..<\(range.upperBound) is not within its \(length) bytes")
        }
        let makeWhole = makeSource
        var slice = RequestBody(contentType: nil, length: range.upperBound - range.lowerBound, isReplayable: true) {
            SliceChunkSource(whole: try makeWhole(), range: range)
        }
        slice.filesRead = filesRead
        return slice
    }
}

/// Produces the bytes of another source within a range: moves past those
/// before it once, then stops at its end.
struct SliceChunkSource: ChunkSource {
    var whole: any ChunkSource
    var toSkip: Int64
    var remaining: Int64

    init(whole: any ChunkSource, range: Range<Int64>) {
        self.whole = whole
        self.toSkip = range.lowerBound
        self.remaining = range.upperBound - range.lowerBound
    }

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        try await skipToStart()
        guard remaining > 0 else { return nil }
        guard let chunk = try await whole.nextChunk(maximumLength: Int(min(Int64(maximumLength), remaining)), as: Storage.self) else {
            throw RequestBodyError.notSliceable("it ended \(remaining) bytes before the end of the slice")
        }
        remaining -= Int64(chunk.storage.withUnsafeBytes(\.count))
        return chunk
    }

    private mutating func skipToStart() async throws {
        guard toSkip > 0 else { return }
        let wanted = toSkip
        toSkip = 0
        let skipped = try await whole.skip(wanted)
        guard skipped == wanted else {
            throw RequestBodyError.notSliceable("it ended \(wanted - skipped) bytes before the start of the slice")
        }
    }

    mutating func skip(_ count: Int64) async throws -> Int64 {
        try await skipToStart()
        let step = try await whole.skip(min(max(0, count), remaining))
        remaining -= step
        return step
    }
}
