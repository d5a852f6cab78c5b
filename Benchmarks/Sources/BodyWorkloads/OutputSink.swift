#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a workload's bytes go: a file descriptor (standard output, so the
/// caller picks `/dev/null` or a pipe), or nowhere at all.
public struct OutputSink: Sendable {
    private let descriptor: Int32?

    /// Bytes are counted and dropped without a system call.
    public static let discard = OutputSink(descriptor: nil)
    /// Bytes are written to standard output.
    public static let standardOutput = OutputSink(descriptor: 1)

    /// Writes all of `bytes`, retrying short writes and interrupted calls.
    public func write(_ bytes: [UInt8]) throws(WorkloadError) {
        guard let descriptor else { return }
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw WorkloadError("write to the output failed (errno \(failure))") }
    }
}

/// The C library's `write(2)`, named apart from ``OutputSink/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
