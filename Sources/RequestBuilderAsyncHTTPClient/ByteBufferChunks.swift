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
/// machine. So the iterator waits before handing over another chunk until
/// the event loops have run everything queued on them, which includes the
/// write of the chunk before; any pause is then in place, and at most two
/// chunks are in memory: one being written, one being read.
///
/// Each chunk is read into the memory of the one handed over two chunks
/// before, once the connection is done with it (`OutgoingBuffer.recycled`):
/// a new 512 KiB buffer per chunk cost a `malloc`, and the kernel a page
/// fault and a zeroed page per 4 KiB whenever `malloc` had given the memory
/// back. Still at
/// most two chunks per request, but the older one is kept, written, until
/// the next read instead of freed: 512 KiB more per request between reads
/// (1.5 MiB at the peak of 4 parts at once). A pool shared by all requests,
/// which also served each request's first two chunks, cut the faults to
/// 6,000 but kept its buffers while small files were sent: 2-4 MiB more at
/// the peak of the recursive S3 upload, whose goal is 0.5x boto3's.
///
/// AsyncHTTPClient does not say which loop carries the connection (the pool
/// may reuse one on any loop of the client's group), so the iterator waits
/// on every loop of the group, all at once. An idle loop answers in
/// microseconds; a loop busy with other connections delays this upload by
/// the work already queued on it, never by more.
struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let body: RequestBody
    let chunkSize: Int
    /// The client's event loops, one of which carries the connection.
    let eventLoops: [any EventLoop]
    let progress: @Sendable (UploadProgress) -> Void
    /// The gate the body waits at before its first byte, when the request
    /// asks for `100 Continue`.
    var gate: ContinueGate? = nil
    /// Whether the connection seals the chunks in TLS records (`https`):
    /// each is then read a little shorter (`OutgoingBuffer.readLength`).
    var sealedInTLSRecords = false

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        private let chunks: ByteBufferChunks
        private var reader: ChunkReader
        private var sent: Int64 = 0
        private var isFirst = true
        /// The last two chunks handed over, the older first: the older one's
        /// memory is read into next.
        private var handedOver: (older: ByteBuffer?, newer: ByteBuffer?)
        /// Where the older chunk is put for `OutgoingBuffer` to take.
        private let spare = LockedValue<ByteBuffer?>(nil)

        init(chunks: ByteBufferChunks) {
            self.chunks = chunks
            self.reader = ChunkReader(chunks.body)
        }

        mutating func next() async throws -> ByteBuffer? {
            if isFirst, let gate = chunks.gate {
                try await gate.waitForPermission()
            }
            let length = OutgoingBuffer.readLength(forChunkSize: chunks.chunkSize, inTLSRecords: chunks.sealedInTLSRecords)
            guard var chunk = try await read(maximumLength: length) else {
                handedOver = (nil, nil)
                return nil
            }
            // A body may end a chunk early (a multipart body does wherever its
            // bytes turn from worth compressing to not, for gzip's sake), and
            // each chunk costs a hop to the event loop and a wait for it: one
            // per part for a form of 10,000 small files. So short chunks are
            // gathered into one of up to `length` bytes, at the price of
            // copying the later ones once, at most one chunk's worth. Only a
            // body read from memory or disk (replayable): a stream's next
            // element may be far off (a live feed, a pipe), and what it has
            // given must go out now, not wait for the chunk to fill.
            if chunk.readableBytes < length, chunks.body.isReplayable {
                chunk.reserveCapacity(length)
                while chunk.readableBytes < length,
                    var more = try await read(maximumLength: length - chunk.readableBytes)
                {
                    chunk.writeBuffer(&more)
                }
            }
            // Read while the loop writes the chunk before, then wait for it:
            // two chunks in memory at most, and the disk and socket overlap.
            if !isFirst { try await waitForEventLoops() }
            isFirst = false
            sent += Int64(chunk.readableBytes)
            chunks.progress(UploadProgress(bytesSent: sent, totalBytes: chunks.body.length))
            handedOver = (handedOver.newer, chunk)
            return chunk
        }

        /// The body's next chunk, or `nil` once it has ended; a failure of the
        /// body's own source is told apart from cancellation.
        private mutating func read(maximumLength: Int) async throws -> ByteBuffer? {
            // By now the connection has usually written the older chunk. It is
            // moved into the box, not copied: referenced once, it is read into in place.
            spare.withLock { $0 = handedOver.older.take() }
            defer { spare.withLock { $0 = nil } }
            do {
                return try await OutgoingBuffer.$recycled.withValue(spare) {
                    try await reader.next(maximumLength: maximumLength, as: OutgoingBuffer.self)?.storage.buffer
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw BodySourceError(underlying: error)
            }
        }

        /// Returns once every loop has run the tasks queued on it so far.
        private func waitForEventLoops() async throws {
            // Submitted to all before waiting on any, so the loops drain side by side.
            let drained = chunks.eventLoops.map { $0.submit {} }
            for loop in drained {
                try await loop.get()
            }
        }
    }
}

/// A failure of the request body's own source (a file that changed size, a
/// boundary found in the content), told apart from the connection's failures
/// so that it is reported as ``RequestError/Code/body`` and never retried.
struct BodySourceError: Error {
    let underlying: any Error
}
