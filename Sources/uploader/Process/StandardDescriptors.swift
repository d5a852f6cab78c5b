#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error, made safe to use when the tool was
/// started with one of them closed (`uploader … <&- >&-`).
enum StandardDescriptors {
    /// Opens `/dev/null` onto each of descriptors 0, 1 and 2 that is closed,
    /// as Unix tools do; call it before anything else opens a file.
    ///
    /// Otherwise the next file opened takes the free number: an event loop's
    /// eventfd became "standard output", and the response went into it.
    static func openClosedOnes() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number, which is this one.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
        }
    }
}
