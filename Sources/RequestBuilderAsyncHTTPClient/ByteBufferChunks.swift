import HTTPBody
import NIOCore
import RequestBuilder

/// A body's chunks as `ByteBuffer`s, read no faster than the connection
/// writes them, reporting progress as each one is taken.
///
/// AsyncHTTPClient pauses this sequence when the channel stops being
/// writable, but it learns that on the channel's event loop, while the
/// sequence runs elsewhere: left alone, a reader faster than the socket hands
/// over chunk after chunk before the pause lands, tens of megabytes on a busy
/// machine. So before handing over another chunk, the iterator waits until
/// the client's event loops have run everything queued on them, which includes
/// the write of the chunk before; any pause is then in place.
struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let body: RequestBody
    let chunkSize: Int
    /// The loops of the client's group: the connection's is one of them.
    let eventLoops: [any EventLoop]
    let progress: @Sendable (UploadProgress) -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        private enum State {
            case notStarted
            case reading(any ChunkSource)
            case finished
        }

        private let chunks: ByteBufferChunks
        private var state = State.notStarted
        private var sent: Int64 = 0

        init(chunks: ByteBufferChunks) {
            self.chunks = chunks
        }

        mutating func next() async throws -> ByteBuffer? {
            var source: any ChunkSource
            let isFirst: Bool
            switch state {
            case .finished:
                return nil
            case .notStarted:
                state = .finished  // a failure to open ends the body
                source = try chunks.body.makeChunkSource()
                isFirst = true
            case .reading(let current):
                state = .finished  // a thrown error ends the body too
                source = current
                isFirst = false
            }
            guard let chunk = try await source.nextChunk(maximumLength: chunks.chunkSize, as: OutgoingBuffer.self) else {
                return nil
            }
            // Read while the loop writes the chunk before, then wait for it:
            // two chunks in memory at most, and the disk and socket overlap.
            if !isFirst { try await waitForEventLoops() }
            state = .reading(source)
            sent += Int64(chunk.buffer.readableBytes)
            chunks.progress(UploadProgress(bytesSent: sent, totalBytes: chunks.body.length))
            return chunk.buffer
        }

        /// Returns once every loop has run the tasks queued on it so far.
        private func waitForEventLoops() async throws {
            let passes = chunks.eventLoops.map { $0.submit {} }
            for pass in passes {
                try await pass.get()
            }
        }
    }
}
