// Streams a file body through RequestBody's chunk interface and writes the
// bytes to standard output, then reports the byte count and throughput on
// standard error. Peak memory stays at about one chunk whatever the file size:
//
//     swift build -c release --product stream-file-body
//     /usr/bin/time -v .build/release/stream-file-body BIGFILE > /dev/null
//
// With `--gzip` the body is gzip-compressed on the way (`| gzip -dc` restores it).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPBody

var arguments = Array(CommandLine.arguments.dropFirst())
let gzip = arguments.contains("--gzip")
arguments.removeAll { $0 == "--gzip" }
guard arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: stream-file-body [--gzip] FILE\n".utf8))
    exit(64)
}

/// Writes all of `chunk` to standard output, retrying short writes.
func writeToStandardOutput(_ chunk: [UInt8]) throws {
    try chunk.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = write(1, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }
}

do {
    var body = try RequestBody.file(at: URL(filePath: arguments[0]))
    if gzip { body = body.gzipped() }
    let clock = ContinuousClock()
    let start = clock.now
    var total: Int64 = 0
    var chunks = 0
    for try await chunk in body.chunks() {
        try writeToStandardOutput(chunk)
        total += Int64(chunk.count)
        chunks += 1
    }
    let elapsed = start.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let mebibytesPerSecond = Double(total) / 1_048_576 / max(seconds, 1e-9)
    let summary = "\(total) bytes in \(chunks) chunks, \(String(format: "%.3f", seconds)) s, \(String(format: "%.0f", mebibytesPerSecond)) MiB/s\n"
    FileHandle.standardError.write(Data(summary.utf8))
} catch {
    FileHandle.standardError.write(Data("stream-file-body: \(error)\n".utf8))
    exit(1)
}
