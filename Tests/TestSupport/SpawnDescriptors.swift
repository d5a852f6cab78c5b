#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// What a child process started by a test inherits: its three standard
/// streams and nothing else, and signals as a new process has them.
///
/// Without this a child keeps every descriptor of the test process that is
/// not close-on-exec, such as another test's server socket: that connection
/// then stays open as long as the child runs, and the other test sees a
/// client that never closes, or a reset where it expected a refusal.
public enum SpawnDescriptors {
    #if canImport(Glibc)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// which Swift's Glibc module does not declare (it is a GNU extension).
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        // RTLD_DEFAULT is a null handle in glibc.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Closes every descriptor above standard error in the child, between
    /// fork and exec (after the actions added before it, such as `dup2`s
    /// onto the standard streams).
    public static func closeAboveStandardError(in actions: inout posix_spawn_file_actions_t) {
        // Older glibc: the child inherits what is not close-on-exec.
        _ = addCloseFrom?(&actions, STDERR_FILENO + 1)
    }
    #else
    /// Does nothing where the extension is missing.
    public static func closeAboveStandardError(in actions: inout posix_spawn_file_actions_t) {}
    #endif

    /// Spawn attributes that give the child an empty signal mask and
    /// default handlers. A child otherwise inherits the mask of the test
    /// thread that spawned it, where SIGCHLD is blocked: a shell that runs a
    /// command in the background and `wait`s for it then never wakes.
    /// Destroy the result with `posix_spawnattr_destroy`.
    public static func cleanSignalAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGCHLD, SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }
}
