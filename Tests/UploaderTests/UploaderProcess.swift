import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `uploader` executable as a user would: a subprocess with
/// real arguments, standard input, output and error.
struct UploaderProcess {
    struct Result {
        var status: Int32
        var standardOutput: [UInt8]
        var standardError: String

        var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The executable `swift build` put next to the test bundle.
    static let executable: URL = {
        let bundleDirectory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let besideBundle = bundleDirectory.appending(path: "uploader")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appending(path: ".build/debug/uploader")
    }()

    /// Runs `uploader` with the arguments; `shell` wraps it as `sh -c` for `ulimit` and pipes.
    static func run(
        _ arguments: [String],
        standardInput: [UInt8]? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await run(process, standardInput: standardInput)
    }

    /// Runs a shell command line in which `$UPLOADER` names the executable.
    static func runShell(_ commandLine: String, currentDirectory: URL? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", commandLine]
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.environment = ProcessInfo.processInfo.environment.merging(["UPLOADER": executable.path]) { $1 }
        return try await run(process, standardInput: nil)
    }

    /// Runs the process on GCD threads: waiting and pipe reads block, and
    /// blocking Swift's small cooperative pool (2 threads here) would stall
    /// every other test.
    private static func run(_ process: Process, standardInput: [UInt8]?) async throws -> Result {
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input
        let box = ProcessBox(process)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try box.process.run()
                    let group = DispatchGroup()
                    let collected = CollectedOutput()
                    group.enter()
                    DispatchQueue.global().async {
                        collected.output = readToEnd(output.fileHandleForReading.fileDescriptor)
                        group.leave()
                    }
                    group.enter()
                    DispatchQueue.global().async {
                        collected.error = readToEnd(error.fileHandleForReading.fileDescriptor)
                        group.leave()
                    }
                    if let standardInput {
                        try? input.fileHandleForWriting.write(contentsOf: Data(standardInput))
                    }
                    try? input.fileHandleForWriting.close()
                    group.wait()
                    box.process.waitUntilExit()
                    continuation.resume(returning: Result(
                        status: box.process.terminationStatus,
                        standardOutput: collected.output,
                        standardError: String(decoding: collected.error, as: UTF8.self)
                    ))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Hands a `Process` to a GCD thread; only that thread touches it afterwards.
private final class ProcessBox: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}

/// What the reader threads collect; each field is written by one thread and
/// read after `DispatchGroup.wait()`, which orders the accesses.
private final class CollectedOutput: @unchecked Sendable {
    var output: [UInt8] = []
    var error: [UInt8] = []
}

/// Reads a pipe to its end with plain `read(2)`, retrying when a signal (a
/// child process exiting) interrupts it. Foundation's `readDataToEndOfFile()`
/// traps on that interruption instead.
private func readToEnd(_ descriptor: Int32) -> [UInt8] {
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
