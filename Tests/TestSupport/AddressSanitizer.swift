#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under AddressSanitizer (`swift test
/// --sanitize=address`, as `Scripts/sanitize.sh` runs it), so are the
/// processes it starts from the same build. Its quarantine keeps freed
/// memory resident (256 MiB by default), so a bound on a process's resident
/// set says nothing under it.
public enum AddressSanitizer {
    /// True when the sanitizer's runtime is linked in: its entry point is found.
    public static let isActive = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
}
