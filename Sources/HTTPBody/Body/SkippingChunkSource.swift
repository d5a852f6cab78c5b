/// A source that can move past bytes without producing them: a file seeks
/// where any other source would read and discard. What a body sliced at an
/// offset uses to start there at the cost of a system call.
protocol SkippingChunkSource: ChunkSource {
    /// Moves past the next `count` bytes at most and returns how many it
    /// moved past: fewer only when the body ends first.
    mutating func skip(_ count: Int64) async throws -> Int64
}
