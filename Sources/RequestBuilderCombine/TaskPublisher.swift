#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import RequestBuilder

/// A publisher whose every subscription runs `operation` in a task of its
/// own, started by the first demand and cancelled with the subscription.
///
/// A subscription made on the main queue (main-actor code: a view, Swift 6
/// top-level code) is delivered to on the main queue, since Swift 6 stops
/// the program when a main-actor closure runs anywhere else; any other is
/// delivered to on the task's thread.
///
/// `operation` may offer values on the way (progress reports); one the
/// subscriber has no demand for waits, replaced by a newer offer, so a slow
/// subscriber skips stale reports but still gets the latest. It returns the
/// last value, which waits for demand after them; then the publisher
/// finishes. An error it throws ends the publisher as a `RequestError`.
struct TaskPublisher<Output: Sendable>: Publisher {
    typealias Failure = RequestError
    typealias Operation = @Sendable (_ offer: @escaping @Sendable (Output) -> Void) async throws -> Output

    let operation: Operation

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == RequestError {
        subscriber.receive(subscription: TaskSubscription(downstream: subscriber, operation: operation))
    }
}

/// One subscriber's run of a ``TaskPublisher``'s operation.
///
/// The subscriber is held as `AnySubscriber`, so the task that runs the
/// operation captures no metatype but the output's.
///
/// `@unchecked Sendable`: every stored property is read and written under
/// `lock`. The subscriber is called outside the lock (it may call back
/// `request` or `cancel`), by one thread at a time: whoever finds
/// `isDelivering` unset delivers everything that is due, and the others
/// leave their values to it.
private final class TaskSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<Output, RequestError>

    private let lock = NSLock()
    /// `nil` once cancelled or completed: nothing more is sent.
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    /// Taken by the first demand, which starts the task.
    private var operation: TaskPublisher<Output>.Operation?
    private var task: Task<Void, Never>?
    /// The newest offered value not sent yet.
    private var offered: Output?
    /// The last value, sent after `offered`.
    private var last: Output?
    private var failure: RequestError?
    private var isDelivering = false
    /// Whether the subscriber subscribed on the main queue, so is sent
    /// everything there; set once, before the task starts.
    private let deliversOnMainQueue: Bool

    init(downstream: some Subscriber<Output, RequestError>, operation: @escaping TaskPublisher<Output>.Operation) {
        self.downstream = AnySubscriber(downstream)
        self.operation = operation
        deliversOnMainQueue = MainQueue.isCurrent
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        if let operation {
            self.operation = nil
            task = Task { await self.run(operation) }
        }
        lock.unlock()
        deliver()
    }

    func cancel() {
        lock.lock()
        downstream = nil
        operation = nil
        offered = nil
        last = nil
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    private func run(_ operation: TaskPublisher<Output>.Operation) async {
        do {
            let value = try await operation { [weak self] value in self?.hold { $0.offered = value } }
            hold { $0.last = value }
        } catch {
            let failure = error as? RequestError ?? RequestError(code: .transport, description: "\(error)", underlying: error)
            hold { $0.failure = failure }
        }
    }

    /// Records something to send under the lock, then sends what is due,
    /// on the main queue for a subscriber that subscribed there.
    private func hold(_ update: (TaskSubscription) -> Void) {
        lock.lock()
        update(self)
        lock.unlock()
        if deliversOnMainQueue, !MainQueue.isCurrent {
            DispatchQueue.main.async { self.deliver() }
        } else {
            deliver()
        }
    }

    /// Sends what is due: a failure at once, values as demand allows, the
    /// offered one before the last; then finishes after the last.
    private func deliver() {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        while let downstream {
            if let failure {
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: .failure(failure))
                lock.lock()
            } else if demand > .none, let value = offered ?? last {
                demand -= 1
                let isLast = offered == nil
                offered = nil
                if isLast { self.downstream = nil; last = nil }
                lock.unlock()
                let more = downstream.receive(value)
                if isLast { downstream.receive(completion: .finished) }
                lock.lock()
                demand += more
            } else {
                break
            }
        }
        isDelivering = false
        lock.unlock()
    }
}
