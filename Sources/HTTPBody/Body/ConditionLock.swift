#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable, on POSIX threads.
///
/// Foundation's `NSLock` and `NSCondition` would do, but on Linux they live
/// in the full Foundation (swift-corelibs-foundation), and a reference to
/// either links it, with CoreFoundation and ICU's data, into every program
/// using this package: tens of megabytes of binary, many more protocol
/// conformances for the runtime to search on each dynamic cast it has not
/// seen before, and more memory at start-up, for a tool like
/// `uploader` whose every other need FoundationEssentials meets.
///
/// `@unchecked Sendable`: the mutex and condition are meant to be shared;
/// they live at fixed addresses, allocated once and never moved.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the mutex held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the mutex until ``signal()`` wakes this thread, then takes it
    /// again; call with the mutex held, in a loop that checks what it waits for.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes one thread waiting in ``wait()``.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread waiting in ``wait()``.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
