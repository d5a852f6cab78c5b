public import Foundation
import HTTPBody
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server running as a child process for the length of a test: it reports
/// its port on the first line of its standard output, and exits when its
/// standard input closes, which this side holds open. If the test process
/// dies, the kernel closes that pipe and the child goes too.
///
/// Started with `posix_spawn` rather than Foundation's `Process`, for the
/// reasons `UploaderProcess` gives (memory corrupted now and then in a busy
/// test process, reads that trap on `EINTR`). Its standard input and output
/// are socket pairs made close-on-exec atomically (`SOCK_CLOEXEC`; Swift's
/// Glibc has no `pipe2`), so no child spawned by a concurrent test inherits
/// this one's standard input and keeps it alive.
///
/// `@unchecked Sendable`: the pid and descriptors are fixed after `init`, and
/// the output buffer and the stopped flag are only touched under `state`.
public final class ServerProcess: @unchecked Sendable {
    /// The port from the first line (`listening HOST:PORT`).
    public private(set) var port = 0
    /// The child's standard error: a file with no name (unlinked once the
    /// child has it), so no run leaves it behind, whether the server is
    /// stopped, shared by a suite until exit, or the test process is killed.
    /// Read for failure messages through this descriptor.
    private let log: Int32
    /// A folder of the child's that `stop()` removes, if any.
    private let folderToRemove: URL?
    private let name: String
    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let state = LockedValue<(buffer: [UInt8], stopped: Bool)>(([], false))

    /// Spawns `executable` with `arguments` and waits, up to `timeout`, for
    /// its port line; `stop()` removes `folderToRemove` once the child is gone.
    public static func start(
        name: String,
        executable: String,
        arguments: [String],
        removingOnStop folderToRemove: URL? = nil,
        timeout: Duration = .seconds(600)
    ) async throws -> ServerProcess {
        let process = try ServerProcess(name: name, executable: executable, arguments: arguments, folderToRemove: folderToRemove)
        do {
            let line = try await process.readLine(timeout: timeout)
            guard line.hasPrefix("listening "), let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
                throw TestHTTPServerError(description: "\(name) printed '\(line)' instead of 'listening HOST:PORT'\(process.logExcerpt)")
            }
            process.port = port
            return process
        } catch {
            process.stop()
            throw error
        }
    }

    /// Spawns a child that serves no port but answers lines on its standard
    /// input (a signing oracle): talk to it with `send(line:)` and `readLine`.
    public static func startFilter(name: String, executable: String, arguments: [String]) throws -> ServerProcess {
        try ServerProcess(name: name, executable: executable, arguments: arguments, folderToRemove: nil)
    }

    private init(name: String, executable: String, arguments: [String], folderToRemove: URL?) throws {
        self.name = name
        self.folderToRemove = folderToRemove
        let logFile = FileManager.default.temporaryDirectory.appending(path: "\(name)-\(UUID().uuidString).log")
        let stdin = try Self.makePipe()
        let stdout = try Self.makePipe()
        let log = open(logFile.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard log >= 0 else {
            [stdin.read, stdin.write, stdout.read, stdout.write].forEach { _ = close($0) }
            throw TestHTTPServerError(description: "cannot create \(logFile.path): \(String(cString: strerror(errno)))")
        }
        // This descriptor, and the child's copy of it, keep the file open: the
        // name is not needed past here.
        unlink(logFile.path)
        defer {
            _ = close(stdin.read)
            _ = close(stdout.write)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, log, STDERR_FILENO)
        // Everything else the test process has open stays out of the child: a
        // listening socket it inherited would outlive the test server that owns
        // it, and a test expecting "connection refused" on that port would get
        // its connection queued and then reset (seen in HostileServerTests).
        SpawnDescriptors.closeAboveStandardError(in: &actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        var attributes = SpawnDescriptors.cleanSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            _ = close(stdin.write)
            _ = close(stdout.read)
            _ = close(log)
            throw TestHTTPServerError(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.log = log
        input = stdin.write
        output = stdout.read
    }

    deinit {
        stop()
        _ = close(log)  // here, not in stop(): logExcerpt may still read it after a stop
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(filePath: "/")
    }

    /// Writes one line to the child's standard input.
    public func send(line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw TestHTTPServerError(description: "cannot write to \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// The next line of the child's standard output, without its newline.
    public func readLine(timeout: Duration = .seconds(600)) async throws -> String {
        let deadline = ContinuousClock.now + TestTime.budget(timeout)
        // Polls block: on a thread of their own, neither one of Swift's two
        // cooperative ones nor a GCD one (Dispatch adds threads for blocked
        // work only slowly on Linux, so a full run's waits would queue).
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try self.blockingReadLine(until: deadline) })
            }.start()
        }
    }

    /// Sends SIGTERM, waits up to five seconds for the child to exit, then
    /// sends SIGKILL; closing its standard input first tells it the same.
    /// Then removes the folder given to `start`, if any.
    public func stop() {
        let alreadyStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !alreadyStopped else { return }
        _ = close(input)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(10_000)
        }
        _ = close(output)
        if let folderToRemove { try? FileManager.default.removeItem(at: folderToRemove) }
    }

    /// The last lines of the child's standard error, to append to a failure.
    public var logExcerpt: String {
        // Only the end is shown, so only the last 64 KiB are read.
        var status = stat()
        guard fstat(log, &status) == 0 else { return "" }
        var offset = max(0, status.st_size - 64 * 1024)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(log, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
            offset += off_t(count)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.isEmpty else { return "" }
        return "; its standard error ends with:\n" + text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    private func blockingReadLine(until deadline: ContinuousClock.Instant) throws -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let line: String? = state.withLock { state in
                guard let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                defer { state.buffer.removeSubrange(...newline) }
                return String(decoding: state.buffer[..<newline], as: UTF8.self)
            }
            if let line { return line }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw TestHTTPServerError(description: "\(name) printed no line in time\(logExcerpt)")
            }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left / .milliseconds(1), 1000))
            let ready = poll(&descriptor, 1, max(milliseconds, 1))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw TestHTTPServerError(description: "\(name) closed its output (exited?)\(logExcerpt)")
            }
            state.withLock { $0.buffer.append(contentsOf: chunk[..<count]) }
        }
    }


    /// A one-way channel: the child reads or writes one end, this process the other.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        #else
        // No SOCK_CLOEXEC here: a concurrent spawn may inherit these ends for a moment.
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0
            && fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        #endif
        guard made else {
            throw TestHTTPServerError(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }
}
