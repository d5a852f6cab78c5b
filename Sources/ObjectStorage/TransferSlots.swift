import HTTPBody

/// A fixed number of places for requests in flight, shared by every upload
/// of an ``S3Client`` and its copies (``S3Client/maximumConcurrentRequests``).
///
/// A request that carries a file's bytes holds its buffers (a chunk being
/// hashed, the chunks the connection is writing) only while it holds a slot,
/// so the memory of many uploads at once is bounded by the slots, not by
/// uploads × parts. A task that holds a slot takes no second one for the
/// requests it sends (a part's hashing and its sending are one slot). Waiters
/// are served in the order they came; one cancelled while it waits leaves
/// the queue at once with `CancellationError`.
final class TransferSlots: @unchecked Sendable {
    // @unchecked Sendable: `free`, `waiters` and `nextTicket` are only
    // touched with `lock` held.
    private let lock = ConditionLock()
    private var free: Int
    private var waiters: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextTicket: UInt64 = 0

    /// The number of slots.
    let count: Int

    init(count: Int) {
        self.count = max(1, count)
        free = self.count
    }

    /// The slots whose slot the current task holds.
    @TaskLocal private static var holder: TransferSlots?

    /// Runs `body` holding a slot, waiting for one first unless the task
    /// already holds one of these.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it
    ///   waits; what `body` throws.
    func withSlot<Result>(_ body: () async throws -> Result) async throws -> Result {
        if Self.holder === self {
            return try await body()
        }
        try await acquire()
        defer { release() }
        return try await Self.$holder.withValue(self) {
            try await body()
        }
    }

    private func acquire() async throws {
        let ticket = lock.withLock {
            nextTicket += 1
            return nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                // Checked with the lock held: a cancellation handler that
                // runs before the waiter is queued finds it cancelled here.
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if free > 0 {
                    free -= 1
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiters.append((ticket, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            guard let index = waiters.firstIndex(where: { $0.ticket == ticket }) else {
                lock.unlock()
                return
            }
            let waiter = waiters.remove(at: index)
            lock.unlock()
            waiter.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the slot to the longest waiter, else frees it.
    private func release() {
        lock.lock()
        guard !waiters.isEmpty else {
            free += 1
            lock.unlock()
            return
        }
        let waiter = waiters.removeFirst()
        lock.unlock()
        waiter.continuation.resume()
    }
}
