#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread of its own that runs one closure and ends, for work that
/// must not hold one of Swift's few cooperative threads.
///
/// Foundation's `Thread` would do, but on Linux it lives in the full
/// Foundation, which a reference links into every program (see
/// ``ConditionLock``).
package enum DetachedThread {
    /// Starts a detached thread running `body`, named `name` (at most 15
    /// bytes show) for debuggers and `top -H`.
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, &attributes, run, start)
        // Foundation's Thread traps the same way: a process that cannot make
        // a thread has no resources left to report it with.
        precondition(result == 0, "cannot start the thread '\(name)': \(SystemErrorText.describe(result))")
    }

    /// What the new thread runs: names itself, then runs the closure.
    private static let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
        let name = Array(start.name.utf8.prefix(15))
        #if canImport(Darwin)
        _ = pthread_setname_np(String(decoding: name, as: UTF8.self))
        #elseif os(Linux)
        // pthread_setname_np is not in the Glibc module; the kernel reads
        // a thread's name from this file all the same.
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if file >= 0 {
            _ = name.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
        }
        #endif
        start.body()
        return nil
    }

    /// The closure and the name, carried to the new thread.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
