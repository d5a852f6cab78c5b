#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under ThreadSanitizer (`swift test
/// --sanitize=thread`, as `Scripts/sanitize.sh` runs it), so are the
/// processes it starts from the same build.
public enum ThreadSanitizer {
    /// True when the sanitizer's runtime is linked in: its entry point is found.
    public static let isActive = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
}
