import Crypto
public import Foundation

/// SHA-256 of a file read in pieces, as the test servers report digests.
public enum FileDigest {
    /// The file's SHA-256 in lowercase hex; with `skippingHead`, of what
    /// follows the first blank line (`\r\n\r\n`): the body of a request
    /// written by `--dry-run`.
    public static func sha256(of file: URL, skippingHead: Bool = false) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hash = SHA256()
        var inHead = skippingHead
        var tail: [UInt8] = []
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            var bytes = [UInt8](data)
            if inHead {
                let joined = tail + bytes
                if let end = joined.firstRange(of: [13, 10, 13, 10]) {
                    bytes = Array(joined[end.upperBound...])
                    inHead = false
                } else {
                    tail = Array(joined.suffix(3))
                    continue
                }
            }
            hash.update(data: bytes)
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
