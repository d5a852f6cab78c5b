import NIOCore

extension TimeAmount {
    /// The duration in nanoseconds, or the nearest `TimeAmount` when it does
    /// not fit (about 292 years either way): a huge timeout means "no
    /// timeout", never a trap on overflow.
    init(saturating duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else {
            self = .nanoseconds(seconds < 0 ? .min : .max)
            return
        }
        let (total, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        self = .nanoseconds(sumOverflow ? (seconds < 0 ? .min : .max) : total)
    }
}
