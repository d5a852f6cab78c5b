#if canImport(FoundationNetworking)
import Foundation
import HTTPBody

/// A request body as the `InputStream` URLSession reads from `httpBodyStream`,
/// fed chunk by chunk from the body's own chunks: at most two chunks are held
/// at a time, whatever the body's size.
///
/// swift-corelibs-foundation reads a body stream synchronously on the
/// session's queue (`read` from libcurl's read callback, never pausing the
/// transfer), so `read` blocks until the producing task hands over the next
/// chunk. Every `Stream` member URLSession touches is overridden here, so
/// none reaches Foundation's abstract implementations (which trap), and a
/// failure reading the body aborts the transfer instead of ending it early
/// as if the body were complete: ``failure`` then says why.
///
/// The stream's state lives in ``BodyPipe``: `InputStream` cannot be
/// `Sendable`, and the producing task and the cancellation handler need it.
final class BodyInputStream: InputStream {
    let pipe: BodyPipe

    init(_ body: RequestBody) {
        pipe = BodyPipe(body)
        super.init(data: Data())
    }

    override func open() { pipe.open() }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        pipe.read(buffer, maxLength: len)
    }

    override var hasBytesAvailable: Bool { pipe.hasBytesAvailable }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }

    override func close() { pipe.close() }

    override var streamStatus: Stream.Status { pipe.status }

    override var streamError: (any Error)? { pipe.failure }

    override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}

/// The state behind a ``BodyInputStream``: chunks handed from the producing
/// task to URLSession's reads.
///
/// `@unchecked Sendable`: all mutable state is read and written under `condition`.
final class BodyPipe: @unchecked Sendable {
    /// Chunks read ahead of the one being sent.
    private static let readAhead = 2

    private let body: RequestBody
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var offset = 0
    private var ended = false
    private var closed = false
    private var error: (any Error)?
    private var status_: Stream.Status = .notOpen
    private var producer: Task<Void, Never>?
    /// The producer waiting for room in ``queue``; resumed with `false` once closed.
    private var waitingProducer: CheckedContinuation<Bool, Never>?

    init(_ body: RequestBody) {
        self.body = body
    }

    /// The error that ended reading the body, if one did.
    var failure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return error
    }

    func open() {
        condition.lock()
        defer { condition.unlock() }
        // Opened again (a redirect resending the body): the first reading
        // has been consumed, so fail rather than send a short body.
        guard status_ == .notOpen else {
            if error == nil { error = StreamReopened() }
            status_ = .error
            return
        }
        status_ = .open
        let body = self.body
        // Not on the cooperative pool: URLSession's queue waits in `read`
        // for this task, and tasks blocked on that queue (`resume`, a new
        // task) may hold every cooperative thread.
        producer = Task(executorPreference: BodyProducerExecutor.shared) { [weak self] in
            do {
                for try await chunk in body.chunks() where !chunk.isEmpty {
                    guard let self, await self.hand(chunk) else { return }
                }
                self?.end(with: nil)
            } catch {
                self?.end(with: error)
            }
        }
    }

    /// Queues a chunk for `read`, suspending while the queue is full;
    /// returns `false` once the stream is closed.
    private func hand(_ chunk: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            guard !closed else { return continuation.resume(returning: false) }
            queue.append(chunk)
            condition.broadcast()
            if queue.count <= Self.readAhead {
                continuation.resume(returning: true)
            } else {
                waitingProducer = continuation
            }
        }
    }

    private func end(with failure: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        if let failure, error == nil { error = failure }
        condition.broadcast()
    }

    /// Fails the next `read`: URLSession asked to rewind the body (libcurl
    /// resending it), and what it has read is gone.
    func refuseRewind() {
        condition.lock()
        defer { condition.unlock() }
        if error == nil { error = StreamReopened() }
        condition.broadcast()
    }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, !ended, !closed, error == nil {
            condition.wait()
        }
        if error != nil || closed {
            status_ = .error
            return -1
        }
        guard let chunk = queue.first else {
            status_ = .atEnd
            return 0
        }
        let count = min(len, chunk.count - offset)
        chunk.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            buffer.update(from: base + offset, count: count)
        }
        offset += count
        if offset == chunk.count {
            queue.removeFirst()
            offset = 0
            waitingProducer?.resume(returning: true)
            waitingProducer = nil
        }
        return count
    }

    var hasBytesAvailable: Bool {
        condition.lock()
        defer { condition.unlock() }
        // Until the end is read: `read` waits for a chunk on its way. A
        // closed or failed stream still has "bytes": URLSession takes `false`
        // for the end of the body and would frame a cut-off body as whole;
        // `read` returns -1 instead, which aborts the transfer.
        return status_ != .atEnd
    }

    /// Stops the producer and wakes a waiting `read`, which then fails.
    func close() {
        condition.lock()
        closed = true
        if status_ == .open { status_ = .closed }
        queue.removeAll()
        waitingProducer?.resume(returning: false)
        waitingProducer = nil
        let producer = self.producer
        condition.broadcast()
        condition.unlock()
        producer?.cancel()
    }

    var status: Stream.Status {
        condition.lock()
        defer { condition.unlock() }
        return status_
    }
}

/// Runs the tasks that read bodies for ``BodyInputStream`` on a dispatch
/// queue of their own, apart from the cooperative pool.
final class BodyProducerExecutor: TaskExecutor {
    static let shared = BodyProducerExecutor()

    private let queue = DispatchQueue(label: "RequestBuilderURLSession.BodyProducer", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// The body stream was opened a second time, as a redirect resending the body would.
struct StreamReopened: Error, CustomStringConvertible {
    var description: String { "URLSession asked to send the body a second time (a redirect?); it is sent only once" }
}
#endif
