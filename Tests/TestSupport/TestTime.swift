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

    /// How long a test waits for something that must happen (a server's
    /// first line, a request's arrival, bytes flowing, an exchange ending):
    /// a guard that turns a hang into a failure, never a speed check.
    /// Ten minutes, scaled: in full runs on two cores beside other builds
    /// (load averages near 30), a 0.5 s connect timeout was seen to end
    /// after 396 s and a local server's first line to take minutes, which
    /// says nothing about the code under test. Where it passes, nothing
    /// waits for it.
    public static var liveness: Duration { budget(.seconds(600)) }

    /// `duration` times `scale`.
    public static func budget(_ duration: Duration) -> Duration {
        duration * scale
    }
}
