#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processor time the calling thread spends in a synchronous piece of
/// work, user and system together: what a test can bound where the wall
/// clock would also count the time other tests held the cores (a full run
/// on two cores beside a build stretches wall time many times over).
public enum ProcessorTime {
    /// Runs `work` on the calling thread and returns its result with the
    /// thread's processor time it took.
    public static func measure<Value>(_ work: () throws -> Value) rethrows -> (value: Value, time: Duration) {
        let start = now()
        let value = try work()
        return (value, now() - start)
    }

    private static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
