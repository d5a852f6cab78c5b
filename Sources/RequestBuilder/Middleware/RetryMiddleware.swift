public import Foundation
import HTTPBody
import HTTPTypes

/// Sends a request again when a failure is likely to pass: the connection
/// failed or timed out, or the server answered 408, 429, 500, 502, 503 or 504.
///
/// Other 4xx statuses and decoding errors are never retried. A request is
/// retried only when its body can be read again (`RequestBody.isReplayable`)
/// and, unless ``retriesNonIdempotentRequests`` is set, only when its method
/// is idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE; RFC 9110 §9.2.2),
/// since a POST that failed mid-way may already have taken effect.
///
/// The wait before attempt *n* + 1 is the server's `Retry-After` when it
/// sends one (seconds or an HTTP date, RFC 9110 §10.2.3), otherwise
/// exponential backoff with jitter: a random time between half and all of
/// `initialBackoff × 2ⁿ⁻¹`, capped at `maximumBackoff`.
public struct RetryMiddleware: RequestMiddleware {
    /// How many attempts in all, the first included.
    public var maximumAttempts: Int
    /// The backoff before the second attempt; it doubles for each later one.
    public var initialBackoff: Duration
    /// The longest backoff between two attempts.
    public var maximumBackoff: Duration
    /// The longest `Retry-After` to wait for; a server asking for more gets
    /// its response passed on instead of a retry.
    public var maximumRetryAfter: Duration
    /// Whether POST, PATCH and other non-idempotent requests are retried too.
    public var retriesNonIdempotentRequests: Bool
    /// The statuses that are worth another attempt.
    public var retryableStatuses: Set<Int>

    /// Called before each wait for another attempt, with how long it waits
    /// and why: a command-line tool shows it, so a long `Retry-After` does
    /// not look like a hang.
    public var willRetry: @Sendable (Retry) -> Void

    /// Another attempt about to be made.
    public struct Retry: Sendable {
        /// The number of the attempt to come: 2 for the first retry.
        public let attempt: Int
        /// How long the middleware waits before it.
        public let delay: Duration
        /// Why, such as `the server answered 503 Service Unavailable with Retry-After: 30`.
        public let reason: String
    }

    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double

    /// The statuses retried by default: 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - maximumAttempts: How many attempts in all, the first included;
    ///     values below 1 count as 1.
    ///   - initialBackoff: The backoff before the second attempt; it doubles
    ///     for each later one.
    ///   - maximumBackoff: The longest backoff between two attempts.
    ///   - maximumRetryAfter: The longest `Retry-After` to wait for; a server
    ///     asking for more gets its response passed on instead of a retry.
    ///   - retriesNonIdempotentRequests: Whether POST, PATCH and other
    ///     non-idempotent requests are retried too.
    ///   - retryableStatuses: The statuses worth another attempt.
    ///   - sleep: Waits between attempts; inject one that returns at once in tests.
    ///   - now: The current time, for `Retry-After` dates.
    ///   - random: A number in `0..<1` for the jitter.
    ///   - willRetry: Told of each retry before its wait.
    public init(
        maximumAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(250),
        maximumBackoff: Duration = .seconds(30),
        maximumRetryAfter: Duration = .seconds(120),
        retriesNonIdempotentRequests: Bool = false,
        retryableStatuses: Set<Int> = RetryMiddleware.defaultRetryableStatuses,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        willRetry: @escaping @Sendable (Retry) -> Void = { _ in }
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumRetryAfter = maximumRetryAfter
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
        self.now = now
        self.random = random
        self.willRetry = willRetry
    }

    /// Sends the request, and again after a pause while the outcome is retryable.
    ///
    /// Once a response head has arrived the attempt is final unless its
    /// status is retryable: a failure while its body is read is never retried,
    /// since the server has answered and a POST may have taken effect.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        let mayRetry = (request.body?.isReplayable ?? true)
            && (retriesNonIdempotentRequests || Self.isIdempotent(request.head.method))
        var attempt = 1
        while true {
            let retry: Retry
            do {
                let response = try await next(request)
                guard mayRetry, attempt < maximumAttempts,
                      let wait = delay(after: response.head, attempt: attempt)
                else { return response }
                retry = Retry(attempt: attempt + 1, delay: wait, reason: "the server answered \(response.status.code) \(response.status.reasonPhrase)" + Self.retryAfterNote(response.head))
            } catch {
                guard mayRetry, attempt < maximumAttempts, let wait = delay(after: error, attempt: attempt) else { throw error }
                retry = Retry(attempt: attempt + 1, delay: wait, reason: (error as? RequestError)?.description ?? "\(error)")
            }
            // The response is out of scope here: its unread body was dropped,
            // so its connection is closed rather than held through the wait.
            willRetry(retry)
            try await sleep(retry.delay)
            attempt += 1
        }
    }

    /// Waits before attempt number `attempt` (2 for the first retry) when
    /// this middleware would retry after `error`, telling ``willRetry`` first,
    /// and returns whether it waited; `false` means the error is final.
    ///
    /// For code that repeats a step its own way, such as a resumable upload
    /// that asks the server for its offset and sends the rest: it follows the
    /// same rules as a retried request (which errors and statuses, backoff,
    /// `Retry-After`, ``maximumAttempts``), whatever the method.
    public func waitBeforeRetry(attempt: Int, after error: any Error) async throws -> Bool {
        guard attempt <= maximumAttempts, let wait = delay(after: error, attempt: attempt - 1) else { return false }
        willRetry(Retry(attempt: attempt, delay: wait, reason: (error as? RequestError)?.description ?? "\(error)"))
        try await sleep(wait)
        return true
    }

    /// Waits before attempt number `attempt` (2 for the first retry) after a
    /// failure the caller has judged worth repeating (such as an S3 error
    /// inside a `200`, which no status tells), telling ``willRetry`` first;
    /// returns `false`, without waiting, once ``maximumAttempts`` is reached.
    ///
    /// The pause is this middleware's backoff: ``initialBackoff`` doubled for
    /// each attempt, capped at ``maximumBackoff``, with jitter (half to all
    /// of it), so clients that failed together do not retry together.
    public func waitBeforeRetry(attempt: Int, reason: String) async throws -> Bool {
        guard attempt <= maximumAttempts else { return false }
        let wait = backoff(attempt: attempt - 1)
        willRetry(Retry(attempt: attempt, delay: wait, reason: reason))
        try await sleep(wait)
        return true
    }

    /// The pause before the next attempt after a failure, or `nil` if it is final.
    private func delay(after error: any Error, attempt: Int) -> Duration? {
        guard let error = error as? RequestError else { return nil }
        if error.isConnectionFailure { return backoff(attempt: attempt) }
        guard error.code == .unacceptableStatus, let response = error.response else { return nil }
        return delay(after: response.head, attempt: attempt)
    }

    /// The pause before the next attempt after a response, or `nil` if it is final.
    private func delay(after head: HTTPResponse, attempt: Int) -> Duration? {
        guard retryableStatuses.contains(head.status.code) else { return nil }
        if let value = head.headerFields[.retryAfter] {
            guard let requested = Self.retryAfter(value, now: now()) else { return backoff(attempt: attempt) }
            return requested <= maximumRetryAfter ? requested : nil
        }
        return backoff(attempt: attempt)
    }

    private static func retryAfterNote(_ head: HTTPResponse) -> String {
        head.headerFields[.retryAfter].map { " with Retry-After: \($0)" } ?? ""
    }

    private func backoff(attempt: Int) -> Duration {
        let exponent = min(attempt - 1, 30)
        // Compared before multiplying, so a large initial backoff cannot overflow.
        let factor = 1 << exponent
        let ceiling = initialBackoff > maximumBackoff / factor ? maximumBackoff : min(initialBackoff * factor, maximumBackoff)
        let fraction = 0.5 + 0.5 * min(max(random(), 0), 1)
        return ceiling * fraction
    }

    /// Whether a method may be repeated without changing the outcome (RFC 9110 §9.2.2).
    static func isIdempotent(_ method: HTTPRequest.Method) -> Bool {
        [.get, .head, .options, .trace, .put, .delete].contains(method)
    }

    /// Reads a `Retry-After` value: a number of seconds or an HTTP date.
    ///
    /// A date in the past means "now" (zero); text that is neither gives `nil`.
    public static func retryAfter(_ value: String, now: Date) -> Duration? {
        let text = String(value.trimmingOptionalWhitespace)
        if let seconds = Int(text) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        // Capped at a million years, so a date in year 999999999 cannot
        // overflow the conversion (it is far past any maximumRetryAfter).
        let interval = min(date.timeIntervalSince(now), 31_557_600_000_000)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded(.up))) : .zero
    }
}

extension RequestMiddleware where Self == RetryMiddleware {
    /// Retries connection failures and 408, 429, 5xx answers; see ``RetryMiddleware``.
    public static func retry(
        maximumAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(250),
        retriesNonIdempotentRequests: Bool = false
    ) -> RetryMiddleware {
        RetryMiddleware(
            maximumAttempts: maximumAttempts,
            initialBackoff: initialBackoff,
            retriesNonIdempotentRequests: retriesNonIdempotentRequests
        )
    }
}
