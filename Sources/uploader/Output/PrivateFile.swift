import Foundation
import HTTPBody
import SystemPackage

/// Files that may hold secrets (resume state, a cookie jar, a session):
/// written 0600 from their first byte and replaced in one step, read with a
/// bound so a device or a pipe that never ends cannot fill memory.
enum PrivateFile {
    /// Why a file could not be read.
    enum Failure: Error {
        /// There is no such file, with the system's words for it.
        case missing(String)
        /// The system refused, with its reason (a folder, no permission).
        case unreadable(String)
        /// The file is larger than the bound.
        case tooLarge
    }

    /// The most a cookie jar or session file may hold.
    static let maximumSize = 16 * 1024 * 1024

    /// The file's bytes as text (invalid UTF-8 replaced), at most `limit`
    /// bytes; a path with no file at its end, or a file where a folder
    /// should be on the way, is `missing`.
    static func text(at path: String, limit: Int = maximumSize) throws(Failure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = SystemErrorText.describe(errno)
            throw errno == ENOENT || errno == ENOTDIR ? .missing(reason) : .unreadable(reason)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            // A folder opens, and fails here with EISDIR ("Is a directory").
            guard count >= 0 else { throw .unreadable(SystemErrorText.describe(errno)) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<count]
            guard bytes.count <= limit else { throw .tooLarge }
        }
    }

    /// Creates `folder` and the folders above it that are missing, each
    /// 0700 (they hold secrets).
    static func createFolder(_ folder: String) -> String? {
        var path = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o700) != 0, errno != EEXIST else { continue }
            return "\(path): \(SystemErrorText.describe(errno))"
        }
        return nil
    }

    /// Writes `data` as the file at `path`, 0600, in one step: written
    /// beside it under a name no other run uses, flushed, then renamed, so
    /// a crash leaves the old file or the new one and no reader ever sees
    /// it half written or readable by others. The temporary file is
    /// removed when a step fails.
    static func write(_ data: Data, to path: String) throws {
        let file = URL(filePath: path)
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(file.lastPathComponent).\(getpid()).\(UInt64.random(in: 0 ... .max)).partial")
        // A descriptor rather than FileHandle, which on Linux would link the
        // whole of Foundation (see `ConditionLock` in HTTPBody). Exclusive:
        // the name is this writer's alone.
        let handle = try FileDescriptor.open(
            FilePath(temporary.path), .writeOnly, options: [.create, .exclusiveCreate], permissions: FilePermissions(rawValue: 0o600)
        )
        do {
            try handle.closeAfter {
                _ = try data.withUnsafeBytes { try handle.writeAll($0) }
                guard fsync(handle.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
            guard rename(temporary.path, path) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            // A full disk must not leave empty or half-written files behind.
            unlink(temporary.path)
            throw error
        }
    }
}
