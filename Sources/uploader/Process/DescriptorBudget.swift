#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the process may open the files an exchange needs, checked before
/// the event loop is made: SwiftNIO stops the process (a fatal error, not a
/// thrown one) when it cannot create the loop's descriptors, and a socket or
/// resolver file refused later shows as a false "DNS error".
enum DescriptorBudget {
    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// The event loop (epoll, eventfd, timerfd), the resolver's files while
    /// it looks a name up, the file being sent and `-o`, with room to spare.
    static let baseline = 10

    /// A one-line message when fewer than `baseline + connections` more
    /// descriptors can be opened, else `nil`. Probes by opening them (dup of
    /// standard error, which is always open) and closing them again.
    static func shortfall(connections: Int) -> String? {
        let needed = baseline + connections
        var opened: [Int32] = []
        opened.reserveCapacity(needed)
        defer { for descriptor in opened { _ = close(descriptor) } }
        for _ in 0..<needed {
            let descriptor = dup(STDERR_FILENO)
            guard descriptor >= 0 else {
                guard errno == EMFILE || errno == ENFILE else { return nil }
                var limit = rlimit()
                let shown = getrlimit(resource, &limit) == 0 ? " (the limit is \(limit.rlim_cur), 'ulimit -n')" : ""
                return "too many open files\(shown): the upload needs \(needed) more than are open; raise the limit and run it again"
            }
            opened.append(descriptor)
        }
        return nil
    }
}
