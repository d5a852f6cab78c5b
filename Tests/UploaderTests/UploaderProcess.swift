import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `uploader` executable as a user would: a subprocess with
/// real arguments, standard input, output and error.
///
/// Processes are started with `posix_spawn` rather than Foundation's
/// `Process`: on Linux, `Process` launched from several threads of a busy
/// test process corrupted memory now and then (seen as crashes in unrelated
/// tests), and its pipe reads trap on `EINTR`.
struct UploaderProcess {
    struct Result {
        var status: Int32
        var standardOutput: [UInt8]
        var standardError: String

        var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The executable `swift build` put next to the test bundle, or the one
    /// `UPLOADER_TEST_EXECUTABLE` names: the CLI's suites then check a
    /// build made otherwise, such as the one `Scripts/build-uploader.sh`
    /// installs (`UPLOADER_TEST_EXECUTABLE=$(Scripts/build-uploader.sh)
    /// swift test --filter Uploader`).
    static let executable: URL = {
        if let configured = ProcessInfo.processInfo.environment["UPLOADER_TEST_EXECUTABLE"], !configured.isEmpty {
            return URL(filePath: configured)
        }
        let bundleDirectory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let besideBundle = bundleDirectory.appending(path: "uploader")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appending(path: ".build/debug/uploader")
    }()

    /// Runs `uploader` with the arguments.
    static func run(
        _ arguments: [String],
        standardInput: [UInt8]? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) async throws -> Result {
        try await spawn(executable.path, arguments, standardInput: standardInput, environment: environment, currentDirectory: currentDirectory)
    }

    /// Runs `uploader` with the arguments under a limit of processor time
    /// (`prlimit --cpu`): past it the kernel ends the process (SIGXCPU, then
    /// SIGKILL), so a result with status 0 proves it used less. Processor
    /// time, unlike the wall clock, does not grow when other work shares the
    /// cores, so a bound on it holds on a busy machine.
    static func run(_ arguments: [String], processorSecondsAtMost seconds: Int) async throws -> Result {
        try await spawn("/usr/bin/prlimit", ["--cpu=\(seconds)", "--", executable.path] + arguments, standardInput: nil, environment: [:], currentDirectory: nil)
    }

    /// Runs a shell command line in which `$UPLOADER` names the executable.
    static func runShell(_ commandLine: String, currentDirectory: URL? = nil) async throws -> Result {
        try await spawn("/bin/sh", ["-c", commandLine], standardInput: nil, environment: ["UPLOADER": executable.path], currentDirectory: currentDirectory)
    }

    /// Spawns on a thread of its own: waiting and pipe reads block, and
    /// blocking Swift's small cooperative pool (2 threads here) would stall
    /// other tests. Not on a GCD queue either: on Linux, Dispatch's global
    /// queues add threads for blocked work only slowly, and with many
    /// uploaders running at once (a full run) every test waited behind them.
    private static func spawn(
        _ path: String,
        _ arguments: [String],
        standardInput: [UInt8]?,
        environment: [String: String],
        currentDirectory: URL?
    ) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let directory = currentDirectory?.path(percentEncoded: false)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result {
                    try Spawner(path: path, arguments: arguments, environment: environment, directory: directory)
                        .run(standardInput: standardInput ?? [])
                })
            }
            thread.start()
        }
    }
}

/// Why a subprocess could not be started.
struct SpawnError: Error, CustomStringConvertible {
    let description: String
}

/// One `posix_spawn` with its three standard streams on pipes.
private struct Spawner {
    let path: String
    let arguments: [String]
    let environment: [String: String]
    let directory: String?

    /// Serializes pipe creation and spawning, so a child started by one test
    /// never inherits the pipe of another before it is marked close-on-exec.
    private static let spawnLock = NSLock()

    /// Input up to this size is written before the child starts: well
    /// within the 64 KiB a Linux pipe buffers, so the write never blocks.
    private static let bufferedInputLimit = 16 * 1024

    func run(standardInput: [UInt8]) throws -> UploaderProcess.Result {
        // posix_spawn has no portable "change directory" action: let sh do it.
        var path = self.path
        var arguments = self.arguments
        if let directory {
            arguments = ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, path] + arguments
            path = "/bin/sh"
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        Self.spawnLock.lock()
        let input: (read: Int32, write: Int32)
        let output: (read: Int32, write: Int32)
        let error: (read: Int32, write: Int32)
        var pid = pid_t()
        var spawned: Int32 = 0
        do {
            defer { Self.spawnLock.unlock() }
            input = try Self.makePipe()
            output = try Self.makePipe()
            error = try Self.makePipe()
            // Input that fits the pipe's buffer is in it before the child
            // starts, as `printf … | uploader` usually has it: a check for
            // waiting bytes then never races the write on a loaded machine.
            if standardInput.count <= Self.bufferedInputLimit {
                Self.writeAll(standardInput, to: input.write)
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, input.read, STDIN_FILENO)
            posix_spawn_file_actions_adddup2(&actions, output.write, STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, error.write, STDERR_FILENO)
            SpawnDescriptors.closeAboveStandardError(in: &actions)
            var attributes = SpawnDescriptors.cleanSignalAttributes()
            defer { posix_spawnattr_destroy(&attributes) }
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        close(input.read)
        close(output.write)
        close(error.write)
        guard spawned == 0 else {
            close(input.write)
            close(output.read)
            close(error.read)
            throw SpawnError(description: "cannot run \(path): \(String(cString: strerror(spawned)))")
        }

        let group = DispatchGroup()
        let collected = CollectedOutput()
        // Each pipe read on a thread of its own, for the reason given at `spawn`.
        group.enter()
        Thread {
            collected.output = Self.readToEnd(output.read)
            group.leave()
        }.start()
        group.enter()
        Thread {
            collected.error = Self.readToEnd(error.read)
            group.leave()
        }.start()
        if standardInput.count > Self.bufferedInputLimit {
            Self.writeAll(standardInput, to: input.write)
        }
        close(input.write)
        group.wait()
        close(output.read)
        close(error.read)

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return UploaderProcess.Result(
            status: exitStatus,
            standardOutput: collected.output,
            standardError: String(decoding: collected.error, as: UTF8.self)
        )
    }

    /// A pipe whose ends are closed in every other child (close-on-exec), so
    /// a process spawned by a concurrent test cannot hold this one open.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw SpawnError(description: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }  // the child closed its input early
                offset += written
            }
        }
    }

    /// Reads to the end, retrying when a signal interrupts the read.
    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: buffer[..<count])
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }
}

/// What the reader threads collect; each field is written by one thread and
/// read after `DispatchGroup.wait()`, which orders the accesses.
private final class CollectedOutput: @unchecked Sendable {
    var output: [UInt8] = []
    var error: [UInt8] = []
}

/// A scratch folder of input files, removed when the test ends.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "uploader-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appending(path: name)
        try Data(bytes).write(to: file)
        return file.path
    }

    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }
}
