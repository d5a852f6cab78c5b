import Crypto
import Foundation
import RequestBuilder

/// A file of pseudo-random bytes in a fresh folder, and its SHA-256: what the
/// resumable clients upload and the servers must assemble exactly.
struct UploadFixture {
    let folder: URL
    let file: URL
    let size: Int
    let sha256: String

    /// Writes `size` bytes that differ throughout (xorshift), so a chunk sent
    /// twice or at the wrong offset changes the digest.
    init(size: Int, name: String = "payload.bin") throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "resumable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appending(path: name)
        self.size = size
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(size)
        var hash = SHA256()
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, 1 << 20)
            var block = [UInt8](repeating: 0, count: count)
            for index in stride(from: 0, to: count, by: 8) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                withUnsafeBytes(of: state) { word in
                    for offset in 0..<min(8, count - index) { block[index + offset] = word[offset] }
                }
            }
            hash.update(data: block)
            try handle.write(contentsOf: block)
            remaining -= count
        }
        try handle.close()
        sha256 = hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Retries after 50-100 ms: long enough for the server to read what a cut
/// connection had already delivered before it is asked for its offset (a
/// server counts only the bytes it has read; asked at once, it would report
/// fewer and those in its socket buffer would be sent again), short enough
/// to keep the tests quick.
func quickRetry(attempts: Int) -> RetryMiddleware {
    RetryMiddleware(maximumAttempts: attempts, initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(100))
}

/// The IETF test server's answer to a completed upload.
struct StoredAnswer: Decodable {
    let bytes: Int64
    let sha256: String
}

/// Collects what a callback is handed, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = LockedValues<Value>()
    func append(_ value: Value) { values.append(value) }
    var all: [Value] { values.all }
}

private final class LockedValues<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var all: [Value] { lock.withLock { storage } }
}
