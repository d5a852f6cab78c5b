import RequestBuilder

extension RetryMiddleware {
    /// `--retry N`'s rules: up to N more attempts after connection failures,
    /// timeouts, 408, 425, 429 and 5xx (never a permanent failure), within
    /// `--retry-max-time` (`budget`), each wait noted on standard error,
    /// terminal or not (as curl warns), so a log shows why a run took longer.
    static func command(retries: Int, within budget: Duration?, bar: ProgressBar?) -> RetryMiddleware {
        let attempts = retries + 1
        return RetryMiddleware(
            maximumAttempts: attempts,
            retriesNonIdempotentRequests: true,  // --retry asks for it, as curl's does
            maximumTotalTime: budget,
            willRetry: { retry in
                bar?.clear()  // the message takes the bar's line; the next attempt draws it again
                Diagnostics.report("\(retry.reason); retrying in \(retry.delay.waitDescription) (attempt \(retry.attempt) of \(attempts))")
            }
        )
    }
}
