public import Foundation
import Crypto

/// A file of pseudo-random bytes in a fresh folder, and its SHA-256: what the
/// resumable clients upload and the servers must assemble exactly.
public struct UploadFixture: Sendable {
    /// The fresh folder the file is in.
    public let folder: URL
    /// The file.
    public let file: URL
    /// Its size in bytes.
    public let size: Int
    /// Its SHA-256, lowercase hex, as the test servers report digests.
    public let sha256: String

    /// Writes `size` bytes that differ throughout (xorshift), so a chunk sent
    /// twice or at the wrong offset changes the digest.
    public init(size: Int, name: String = "payload.bin") throws {
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

    /// Deletes the folder.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
