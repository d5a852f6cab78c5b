#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about a file on disk, taken from the file system without reading it.
package struct FileStatus: Sendable {
    /// The file's size in bytes.
    package let size: Int64

    /// Looks the file up; fails if it is missing, unreadable or not a regular file.
    package init(_ location: FileLocation) throws(RequestBodyError) {
        let path = location.description
        var info = stat()
        guard location.withCString({ stat($0, &info) }) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path) }
            throw .fileUnreadable(path, errno: code)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else { throw .notARegularFile(path, isDirectory: kind == S_IFDIR) }
        guard location.withCString({ access($0, R_OK) }) == 0 else { throw .fileUnreadable(path, errno: errno) }
        size = Int64(info.st_size)
    }
}
