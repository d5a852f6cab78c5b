/// A response body's chunks passed on as they are read, and kept on the side
/// up to a limit: when the body ends within it, `onEnd` gets the whole body
/// before the reader sees the end, so a send that returned has stored it.
///
/// The bytes are never held back from the reader; a body past the limit
/// stops being kept (its copy is dropped at once) and one that fails or is
/// left unread is never handed over.
struct CapturingChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    let body: ResponseBody
    let limit: Int
    let onEnd: @Sendable ([UInt8]) async -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator(), limit: limit, onEnd: onEnd)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: ResponseBody.Iterator
        let limit: Int
        let onEnd: @Sendable ([UInt8]) async -> Void
        /// The body so far, or `nil` once it passed the limit or was handed over.
        private var kept: [UInt8]? = []

        init(base: ResponseBody.Iterator, limit: Int, onEnd: @escaping @Sendable ([UInt8]) async -> Void) {
            self.base = base
            self.limit = limit
            self.onEnd = onEnd
        }

        mutating func next() async throws -> [UInt8]? {
            guard let chunk = try await base.next() else {
                if let kept {
                    self.kept = nil
                    await onEnd(kept)
                }
                return nil
            }
            if let count = kept?.count {
                if chunk.count <= limit - count { kept?.append(contentsOf: chunk) } else { kept = nil }
            }
            return chunk
        }
    }
}
