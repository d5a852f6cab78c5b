import HTTPBody
import NIOCore
import RequestBuilder

/// A body's chunks as `ByteBuffer`s, read as the connection asks for them,
/// reporting progress as each one is taken.
///
/// AsyncHTTPClient pauses this sequence when the channel stops being
/// writable, but it learns that on the channel's event loop, while the
/// sequence runs elsewhere: left alone, a reader faster than the socket hands
/// over chunk after chunk before the pause lands, tens of megabytes on a busy
/// machine. So when the client has a single event loop, which then carries
/// the connection, the iterator waits before handing over another chunk until
/// that loop has run everything queued on it, which includes the write of the
/// chunk before; any pause is then in place. With several loops it cannot
/// tell which one carries the connection, and waiting on all of them would
/// tie an upload to other connections' traffic, so it leaves the pacing to
/// AsyncHTTPClient alone.
struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let body: RequestBody
    let chunkSize: Int
    /// The loop that carries the connection, when the client has only one.
    let eventLoop: (any EventLoop)?
    let progress: @Sendable (UploadProgress) -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        private let chunks: ByteBufferChunks
        private var reader: ChunkReader
        private var sent: Int64 = 0
        private var isFirst = true

        init(chunks: ByteBufferChunks) {
            self.chunks = chunks
            self.reader = ChunkReader(chunks.body)
        }

        mutating func next() async throws -> ByteBuffer? {
            let read: BodyChunk<OutgoingBuffer>?
            do {
                read = try await reader.next(maximumLength: chunks.chunkSize, as: OutgoingBuffer.self)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw BodySourceError(underlying: error)
            }
            guard let chunk = read?.storage else { return nil }
            // Read while the loop writes the chunk before, then wait for it:
            // two chunks in memory at most, and the disk and socket overlap.
            if !isFirst { try await waitForEventLoop() }
            isFirst = false
            sent += Int64(chunk.buffer.readableBytes)
            chunks.progress(UploadProgress(bytesSent: sent, totalBytes: chunks.body.length))
            return chunk.buffer
        }

        /// Returns once the connection's loop has run the tasks queued on it so far.
        private func waitForEventLoop() async throws {
            try await chunks.eventLoop?.submit {}.get()
        }
    }
}

/// A failure of the request body's own source (a file that changed size, a
/// boundary found in the content), told apart from the connection's failures
/// so that it is reported as ``RequestError/Code/body`` and never retried.
struct BodySourceError: Error {
    let underlying: any Error
}
