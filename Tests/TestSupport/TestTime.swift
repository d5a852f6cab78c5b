import Foundation

/// Wall-clock budgets for tests that wait for something to happen, or bound
/// how long it may take.
///
/// `TEST_TIME_SCALE` (a whole number, 1 when unset) multiplies every budget.
/// `Scripts/sanitize.sh` sets it: under AddressSanitizer or ThreadSanitizer,
/// with the whole suite sharing two cores, a test's next step can wait tens
/// of seconds for a thread, which says nothing about the code under test.
public enum TestTime {
    /// The factor from `TEST_TIME_SCALE`.
    public static let scale: Int = {
        let value = ProcessInfo.processInfo.environment["TEST_TIME_SCALE"].flatMap { Int($0) } ?? 1
        return max(1, value)
    }()

    /// `duration` times `scale`.
    public static func budget(_ duration: Duration) -> Duration {
        duration * scale
    }
}
