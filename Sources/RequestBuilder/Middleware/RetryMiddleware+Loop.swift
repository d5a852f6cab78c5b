import HTTPBody
import HTTPTypes

extension RetryMiddleware {
    /// One attempt of an operation that ``RetryMiddleware/run(_:again:)`` repeats.
    public struct Attempt: Sendable {
        /// The attempt's number: 1 for the first, 2 for the first retry.
        public let number: Int
        /// When the policy's ``RetryMiddleware/maximumTotalTime`` (or an
        /// enclosing loop's) runs out, or `nil` without one.
        public let deadline: ContinuousClock.Instant?

        /// `request` as this attempt sends it: a retried attempt's timeout
        /// is at most what is left of the budget, so the operation ends
        /// within it; a first attempt, or one without a budget, keeps the
        /// request's own.
        public func bounding(_ request: PreparedRequest) -> PreparedRequest {
            guard number > 1, let deadline else { return request }
            let left = max(deadline - .now, .milliseconds(1))
            return request.updating(timeout: min(request.timeout ?? left, left))
        }
    }

    /// Why a value an attempt returned is worth another attempt.
    public struct Repetition: Sendable {
        /// Why, as ``RetryMiddleware/Retry/reason`` tells it.
        public var reason: String
        /// The wait the server asked for (its `Retry-After`), or `nil` for
        /// the policy's backoff.
        public var requestedDelay: Duration?

        /// Creates a repetition.
        public init(reason: String, requestedDelay: Duration? = nil) {
            self.reason = reason
            self.requestedDelay = requestedDelay
        }
    }

    /// Runs `attempt` until it gives a value `again` does not ask to
    /// repeat, or throws a failure that is permanent, or the policy gives
    /// up; returns that value or throws that failure (the last one).
    ///
    /// This is the one retry loop of the package: this middleware's
    /// attempts, a resumable upload's resumes and an S3 client's requests
    /// all run in it. A thrown ``RequestError`` is retried when it is
    /// ``RequestError/isTransient`` (an unacceptable status: when it is in
    /// ``retryableStatuses``, after its `Retry-After`); any other error is
    /// final. The policy gives up after ``maximumAttempts``, when the wait
    /// would end past ``maximumTotalTime``, or when the task is cancelled.
    /// ``willRetry`` is told of each retry before its wait.
    ///
    /// - Parameters:
    ///   - attempt: Makes one attempt; send its request through
    ///     ``Attempt/bounding(_:)`` so a retry ends within the budget.
    ///   - again: Whether a value that was returned is worth another
    ///     attempt (a retryable status, an error inside a `200`); `nil` to
    ///     return it. A value repeated is dropped before the wait.
    public func run<Value>(
        _ attempt: (Attempt) async throws -> Value,
        again: (Value) -> Repetition? = { _ in nil }
    ) async throws -> Value {
        try await withinBudget {
            let deadline = Self.budgetDeadline
            var number = 1
            while true {
                let retry: Retry
                do {
                    let value = try await attempt(Attempt(number: number, deadline: deadline))
                    guard let repetition = again(value),
                          let wait = wait(for: repetition, after: number),
                          admits(after: number, wait: wait, deadline: deadline)
                    else { return value }
                    retry = Retry(attempt: number + 1, delay: wait, reason: repetition.reason)
                } catch {
                    guard let (wait, reason) = judge(error, after: number),
                          admits(after: number, wait: wait, deadline: deadline)
                    else { throw error }
                    retry = Retry(attempt: number + 1, delay: wait, reason: reason)
                }
                willRetry(retry)
                try await sleep(retry.delay)
                number += 1
            }
        }
    }

    /// Runs `body` with this policy's ``maximumTotalTime`` counting from
    /// now, unless an enclosing budget ends sooner: every loop run inside
    /// (in this task and its child tasks) shares it.
    package func withinBudget<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        let inherited = Self.budgetDeadline
        guard let maximumTotalTime else { return try await body() }
        let own = ContinuousClock.now + maximumTotalTime
        return try await Self.$budgetDeadline.withValue(inherited.map { min($0, own) } ?? own, operation: body)
    }

    /// The end of the budget of the operation in progress, set by the
    /// outermost ``withinBudget(_:)`` and narrowed by inner ones.
    @TaskLocal static var budgetDeadline: ContinuousClock.Instant?

    /// Whether another attempt may follow attempt `number` after `wait`.
    private func admits(after number: Int, wait: Duration, deadline: ContinuousClock.Instant?) -> Bool {
        guard number < maximumAttempts, !Task.isCancelled else { return false }
        guard let deadline else { return true }
        return ContinuousClock.now + wait < deadline
    }

    /// The wait before another attempt after `error`, and why, or `nil`
    /// when the failure is permanent.
    private func judge(_ error: any Error, after number: Int) -> (Duration, String)? {
        guard let error = error as? RequestError else { return nil }
        if error.code == .unacceptableStatus {
            guard let response = error.response, let repetition = repetition(after: response.head) else { return nil }
            guard let wait = wait(for: repetition, after: number) else { return nil }
            return (wait, error.description)
        }
        return error.isTransient ? (backoff(attempt: number), error.description) : nil
    }

    /// The wait `repetition` calls for after attempt `number`: the server's
    /// `Retry-After`, or `nil` when it asks for more than
    /// ``maximumRetryAfter``; the backoff when it asks for nothing.
    private func wait(for repetition: Repetition, after number: Int) -> Duration? {
        guard let requested = repetition.requestedDelay else { return backoff(attempt: number) }
        return requested <= maximumRetryAfter ? requested : nil
    }

    /// Whether a response is worth another attempt: its status is in
    /// ``retryableStatuses``, with the wait its `Retry-After` asks for (the
    /// backoff when it has none or one that cannot be read).
    func repetition(after head: HTTPResponse) -> Repetition? {
        guard retryableStatuses.contains(head.status.code) else { return nil }
        var reason = "the server answered \(head.status.code) \(head.status.reasonPhrase)"
        guard let value = head.headerFields[.retryAfter] else { return Repetition(reason: reason) }
        reason += " with Retry-After: \(value)"
        return Repetition(reason: reason, requestedDelay: Self.retryAfter(value, now: now()))
    }

    /// The backoff after attempt `number`: `initialBackoff × 2ⁿ⁻¹`, capped
    /// at `maximumBackoff`, with jitter (half to all of it), so clients that
    /// failed together do not retry together.
    private func backoff(attempt number: Int) -> Duration {
        let exponent = min(number - 1, 30)
        // Compared before multiplying, so a large initial backoff cannot overflow.
        let factor = 1 << exponent
        let ceiling = initialBackoff > maximumBackoff / factor ? maximumBackoff : min(initialBackoff * factor, maximumBackoff)
        let fraction = 0.5 + 0.5 * min(max(random(), 0), 1)
        return ceiling * fraction
    }
}
