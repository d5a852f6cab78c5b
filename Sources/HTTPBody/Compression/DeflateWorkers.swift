/// Threads that deflate one body's blocks, pigz's way: the reader queues
/// blocks, each of `count` threads takes the oldest queued block as soon as
/// it is free, and outputs are collected in the order the blocks were queued.
///
/// A core is never left waiting for a slower neighbour: the reader keeps a
/// few blocks queued beyond the ones being deflated (``GzipChunkSource``
/// decides how many), so a thread that finishes early starts on the next
/// block at once, and it does so while the caller is still handing out
/// earlier output. The threads are the body's own, not Swift's cooperative
/// pool, because each block is milliseconds of deflate work that would
/// otherwise hold one of the pool's few threads, which the reader needs to
/// keep the queue filled.
///
/// The threads start when this object is made and end when it is released,
/// after the block each is deflating, if any; queued blocks are then dropped.
final class DeflateWorkers: Sendable {
    private let queue = Queue()

    /// Starts `count` threads (at least one), which wait for blocks.
    init(count: Int) {
        for number in 0..<max(1, count) {
            DetachedThread.start(named: "gzip \(number + 1)") { [queue] in queue.work() }
        }
    }

    deinit {
        queue.shutDown()
    }

    /// Queues a block; its output is the next one ``output(of:)`` returns
    /// after those of the blocks queued before it.
    func submit(_ block: GzipBlockReader.Block, index: Int) {
        queue.add(block, index: index)
    }

    /// The output of the block queued with `index`, once it is deflated.
    func output(of index: Int) async throws -> Deflater.Output {
        try await withCheckedThrowingContinuation { continuation in
            queue.deliver(index, to: continuation)
        }
    }
}

extension DeflateWorkers {
    /// The blocks waiting for a thread and the outputs waiting for the reader.
    ///
    /// `@unchecked Sendable` because every stored property is read and
    /// written only under `condition`'s lock.
    private final class Queue: @unchecked Sendable {
        private let condition = ConditionLock()
        /// Oldest first; a few at most, so taking from the front is cheap.
        private var blocks: [(index: Int, block: GzipBlockReader.Block)] = []
        private var outputs: [Int: Result<Deflater.Output, GzipError>] = [:]
        private var waiting: (index: Int, continuation: CheckedContinuation<Deflater.Output, any Error>)?
        private var isShutDown = false

        func add(_ block: GzipBlockReader.Block, index: Int) {
            condition.lock()
            blocks.append((index, block))
            condition.signal()
            condition.unlock()
        }

        /// Hands `index`'s output to `continuation` now if it is ready, or
        /// when the thread deflating it finishes.
        func deliver(_ index: Int, to continuation: CheckedContinuation<Deflater.Output, any Error>) {
            condition.lock()
            guard let output = outputs.removeValue(forKey: index) else {
                waiting = (index, continuation)
                condition.unlock()
                return
            }
            condition.unlock()
            continuation.resume(with: output.mapError { $0 })
        }

        func shutDown() {
            condition.lock()
            isShutDown = true
            blocks.removeAll()
            condition.broadcast()
            condition.unlock()
        }

        /// One thread's life: deflate the oldest queued block, hand over
        /// its output, repeat until shut down. Each thread has a compressor
        /// of its own, made for the first block that needs one.
        func work() {
            var deflater: BlockCompressor?
            while let (index, block) = take() {
                finish(index, with: Result { () throws(GzipError) in try Deflater.output(of: block, reusing: &deflater) })
            }
        }

        /// The oldest queued block, waiting for one; `nil` once shut down.
        private func take() -> (Int, GzipBlockReader.Block)? {
            condition.lock()
            defer { condition.unlock() }
            while blocks.isEmpty, !isShutDown { condition.wait() }
            guard !isShutDown else { return nil }
            return blocks.removeFirst()
        }

        private func finish(_ index: Int, with output: Result<Deflater.Output, GzipError>) {
            condition.lock()
            guard let waiting, waiting.index == index else {
                if !isShutDown { outputs[index] = output }
                condition.unlock()
                return
            }
            self.waiting = nil
            condition.unlock()
            waiting.continuation.resume(with: output.mapError { $0 })
        }
    }
}
