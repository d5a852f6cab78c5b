#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

/// Where the tool writes bytes: standard output, standard error, or the
/// `--output` file. Plain `write(2)` calls, so a large dry run or response
/// body goes out without buffering it.
final class OutputFile: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is immutable and write(2) is
    // thread-safe; the tool writes to each file from one task at a time.
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// How error messages name this destination.
    let name: String

    static let standardOutput = OutputFile(descriptor: STDOUT_FILENO, name: "standard output")
    static let standardError = OutputFile(descriptor: STDERR_FILENO, name: "standard error")

    private init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = false
    }

    /// Creates or truncates the file at `path`; `appending` opens it to
    /// add to what is there instead.
    init(path: String, appending: Bool = false) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC) | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, errno: errno) }
        self.descriptor = descriptor
        self.name = path
        self.ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Whether this is a terminal (decides the default for `--progress`).
    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Writes every byte, retrying short writes.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        var failure: Int32?
        bytes.withUnsafeBytes { buffer in
            guard var address = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = systemWrite(descriptor, address, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                address += written
                remaining -= written
            }
        }
        if let failure { throw OutputError(path: name, errno: failure) }
        if descriptor == STDOUT_FILENO { TerminalLine.wroteToStandardOutput(bytes) }
    }

    /// Writes text as UTF-8, ignoring failures (for messages on standard
    /// error, which first make room for their line: ``TerminalLine``).
    func writeText(_ text: String) {
        if descriptor == STDERR_FILENO { TerminalLine.makeRoom() }
        try? write(Array(text.utf8))
    }

    /// Flushes the file's data to disk (for `--output` files), reporting errors
    /// such as a full disk that buffered writes can hide.
    func synchronize() throws(OutputError) {
        guard ownsDescriptor else { return }
        if fsync(descriptor) != 0, errno != EINVAL { throw OutputError(path: name, errno: errno) }
    }
}

/// Writing the response or the dry-run request failed.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String {
        let reason = strerror(errno).map { String(cString: $0) } ?? "error \(errno)"
        return "cannot write to \(path.echoed): \(reason)"
    }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
