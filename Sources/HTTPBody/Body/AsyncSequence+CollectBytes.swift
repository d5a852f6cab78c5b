extension AsyncSequence where Element == [UInt8] {
    /// The chunks joined in memory, failing with `tooLarge()` as soon as they
    /// would pass `limit` bytes: the one loop behind every `collect(upTo:)`
    /// (a request body's, a serialized request's, a response body's).
    ///
    /// - Parameters:
    ///   - output: Where the bytes go, with any capacity already reserved.
    ///   - limit: The most bytes `output` may hold.
    ///   - tooLarge: The error thrown when a chunk would take `output` past `limit`.
    package func collectBytes<Output: RangeReplaceableCollection<UInt8>>(
        into output: Output, upTo limit: Int, tooLarge: () -> some Error
    ) async throws -> Output {
        var output = output
        for try await chunk in self {
            // `output.count` never passes `limit`, so this cannot overflow.
            guard chunk.count <= limit - output.count else { throw tooLarge() }
            output.append(contentsOf: chunk)
        }
        return output
    }
}
