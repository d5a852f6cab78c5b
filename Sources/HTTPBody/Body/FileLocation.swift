package import Foundation
package import SystemPackage

/// Where a file is, as the file system names it: bytes, which on Linux need
/// not be UTF-8.
///
/// Foundation's `URL` on Linux replaces bytes that are not UTF-8 with U+FFFD,
/// so a file named `\xff\xfe.txt` could neither be opened nor named on the
/// wire through it; a `FilePath` keeps the bytes.
package struct FileLocation: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    package let bytes: [UInt8]

    /// The path of a `file:` URL.
    package init(_ url: URL) {
        bytes = Array(url.path(percentEncoded: false).utf8)
    }

    /// The path whose bytes are `bytes` (no NUL).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The path, byte for byte.
    package init(_ path: FilePath) {
        bytes = path.withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// The path for messages: bytes that are not UTF-8 shown as U+FFFD.
    package var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The last path component, byte for byte (no Unicode normalisation).
    package var baseName: [UInt8] {
        var end = bytes.endIndex
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return Array(bytes[start..<end])
    }

    /// The last path component as text, for a sniffer to read its extension:
    /// bytes that are not UTF-8 shown as U+FFFD.
    package var baseNameText: String { String(decoding: baseName, as: UTF8.self) }

    /// Calls `body` with the path as a C string, for `open(2)` and `stat(2)`.
    package func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
