/// The moment by which one attempt of a request must be over: connected,
/// its body sent, the response head and the whole response body received,
/// as curl's `--max-time` bounds a transfer. Both transports enforce it.
///
/// A client library's own timeouts are narrower (AsyncHTTPClient's deadline
/// ends when the head arrives, URLSession's `timeoutInterval` counts idle
/// time between bytes): alone, they let a server that sends a head and then
/// nothing, or one byte a second, hold the caller forever.
package struct RequestDeadline: Sendable {
    /// The longest timeout that sets a deadline; a longer one (up to
    /// `Duration`'s range) means no limit, where converting it to a clock's
    /// instant or to nanoseconds would overflow.
    static let longestTimeout = Duration.seconds(1_000_000_000)

    private let request: PreparedRequest
    private let instant: ContinuousClock.Instant

    /// The deadline of an attempt of `request` starting now, or `nil` when
    /// the request has no timeout (or one too long to mean anything).
    package init?(_ request: PreparedRequest) {
        guard let timeout = request.timeout, timeout < Self.longestTimeout else { return nil }
        self.request = request
        self.instant = .now + max(.zero, timeout)
    }

    /// The error of an attempt that ran past its deadline, naming the request and the limit.
    package var error: RequestError {
        .timedOut(request, after: request.timeout)
    }

    /// Runs `operation` (one step of the attempt), cancelling it and throwing
    /// ``RequestError/Code/timedOut`` once the deadline passes; a step begun
    /// after the deadline fails at once.
    ///
    /// The operation must end promptly when cancelled (both transports'
    /// steps do: cancelling closes the connection); its result or error is
    /// then dropped. Cancelling the calling task cancels the operation,
    /// which reports that itself.
    package func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard ContinuousClock.now < instant else { throw error }
        let instant = self.instant
        return try await withThrowingTaskGroup(of: Step<Value>.self) { group in
            group.addTask { .finished(try await operation()) }
            group.addTask {
                do {
                    try await Task.sleep(until: instant, clock: .continuous)
                    return .deadlinePassed
                } catch {
                    return .cancelled
                }
            }
            defer { group.cancelAll() }
            while let step = try await group.next() {
                switch step {
                case .finished(let value):
                    return value
                case .deadlinePassed:
                    throw error
                case .cancelled:
                    // The caller cancelled: the operation says so in its own error.
                    continue
                }
            }
            throw error  // not reached: the operation always ends with a step
        }
    }

    private enum Step<Value: Sendable>: Sendable {
        case finished(Value)
        case deadlinePassed
        case cancelled
    }
}
