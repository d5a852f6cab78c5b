extension RetryMiddleware.Retry: CustomStringConvertible {
    /// The wait as a person reads it: `35 ms` under a second, `1.2 s` under a
    /// minute, `2 min 5 s` beyond (a jittered wait has far more digits than
    /// anyone waits by).
    public var delayDescription: String { Self.readable(delay) }

    /// The retry in a sentence: `attempt 2 in 35 ms: the server answered
    /// 503 Service Unavailable`.
    public var description: String { "attempt \(attempt) in \(delayDescription): \(reason)" }

    static func readable(_ duration: Duration) -> String {
        let milliseconds = max(0, (duration.inSeconds * 1000).rounded())
        if milliseconds < 1000 { return "\(Int(milliseconds)) ms" }
        let tenths = (milliseconds / 100).rounded()
        if tenths < 600 {
            let whole = Int(tenths) / 10, fraction = Int(tenths) % 10
            return fraction == 0 ? "\(whole) s" : "\(whole).\(fraction) s"
        }
        // Capped far above any wait, so the conversion to Int cannot trap.
        let seconds = Int(min((milliseconds / 1000).rounded(), 1e15))
        let minutes = seconds / 60, rest = seconds % 60
        return rest == 0 ? "\(minutes) min" : "\(minutes) min \(rest) s"
    }
}
