public import Foundation
import HTTPBody
import HTTPTypes
public import Logging

/// Sends a request again when a failure is likely to pass: the connection
/// failed, was reset or timed out, or the server answered 408, 425, 429 or
/// 5xx (``RequestError/isTransient``).
///
/// Permanent failures are never retried: other 4xx statuses, an unknown
/// host, an untrusted certificate, a proxy's `407`, a failed credential
/// refresh, a body that failed, decoding errors. A request is
/// retried only when its body can be read again (`RequestBody.isReplayable`)
/// and, unless ``retriesNonIdempotentRequests`` is set, only when its method
/// is idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE; RFC 9110 §9.2.2),
/// since a POST that failed mid-way may already have taken effect.
///
/// The wait before attempt *n* + 1 is the server's `Retry-After` when it
/// sends one (seconds or an HTTP date, RFC 9110 §10.2.3), otherwise
/// exponential backoff with jitter: a random time between half and all of
/// `initialBackoff × 2ⁿ⁻¹`, capped at `maximumBackoff`; with
/// ``maximumTotalTime`` no wait that would end past it is taken.
///
/// The same rules pace every repeated step of the package, through
/// ``run(_:again:)``: this middleware's attempts, a resumable upload's
/// resumes and an S3 client's requests.
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
    /// How long all the attempts of one operation may take together, the
    /// first included, as curl's `--retry-max-time`; `nil`, the default,
    /// for no limit but ``maximumAttempts``.
    ///
    /// The time runs from the first attempt of the outermost
    /// ``run(_:again:)`` in progress, so the loops nested in one operation
    /// (a resumable upload's steps, an S3 upload's requests and the
    /// middleware under them) share one budget. No retry starts, and no
    /// wait is taken, that would end past it, and a retried attempt's
    /// request is given what is left as its timeout (a first attempt keeps
    /// its own, as curl's does).
    public var maximumTotalTime: Duration?
    /// Told once, at debug level, when a request comes that this middleware
    /// can never repeat; a no-op logger by default.
    public var logger: Logger

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

    let sleep: @Sendable (Duration) async throws -> Void
    let now: @Sendable () -> Date
    let random: @Sendable () -> Double
    /// Whether ``logger`` was told of a request that is never repeated.
    private let inapplicableNoted = OnceFlag()

    /// The statuses retried by default: 408 Request Timeout, 425 Too Early,
    /// 429 Too Many Requests and every 5xx.
    public static let defaultRetryableStatuses: Set<Int> = Set([408, 425, 429]).union(500...599)

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
    ///   - maximumTotalTime: How long all the attempts of one operation may
    ///     take together; `nil` for no limit.
    ///   - logger: Told once when a request can never be repeated.
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
        maximumTotalTime: Duration? = nil,
        logger: Logger = Logger(label: "RequestBuilder", factory: { _ in SwiftLogNoOpLogHandler() }),
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
        self.maximumTotalTime = maximumTotalTime
        self.logger = logger
        self.sleep = sleep
        self.now = now
        self.random = random
        self.willRetry = willRetry
    }

    /// Sends the request, and again after a pause while the outcome is
    /// retryable, through ``run(_:again:)``.
    ///
    /// Once a response head has arrived the attempt is final unless its
    /// status is retryable: a failure while its body is read is never retried,
    /// since the server has answered and a POST may have taken effect. A
    /// request this middleware can never repeat (a POST without
    /// ``retriesNonIdempotentRequests``, a body read once) is sent once, and
    /// ``logger`` is told so at debug level, once per middleware.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        if let obstacle = obstacle(to: request) {
            if await inapplicableNoted.claim() {
                logger.debug("\(request.describedTarget) is sent once, without retries: \(obstacle)")
            }
            return try await next(request)
        }
        // A response repeated is out of scope once `again` has judged it: its
        // unread body is dropped, so its connection is closed rather than
        // held through the wait.
        return try await run({ attempt in try await next(attempt.bounding(request)) }, again: { repetition(after: $0.head) })
    }

    /// Why this middleware can never repeat `request`, or `nil` if it may.
    private func obstacle(to request: PreparedRequest) -> String? {
        if request.body?.isReplayable == false {
            return "its body can be read only once"
        }
        if !retriesNonIdempotentRequests, !Self.isIdempotent(request.head.method) {
            return "\(request.head.method.rawValue) is not idempotent and retriesNonIdempotentRequests is off"
        }
        return nil
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
