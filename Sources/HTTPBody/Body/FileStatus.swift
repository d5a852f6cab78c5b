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

    /// When the file's contents last changed, as seconds and nanoseconds
    /// since 1970: with the size, what tells a file was rewritten.
    package let modificationTime: (seconds: Int64, nanoseconds: Int64)

    /// When the file's status last changed (a write, chmod or rename), as
    /// seconds and nanoseconds since 1970: unlike the modification time, it
    /// cannot be set back by `touch -d` or a copy that keeps times.
    package let changeTime: (seconds: Int64, nanoseconds: Int64)

    /// The file's device and inode: a file replaced by another of the same
    /// name (an editor's save, `mv`) has another.
    package let fileID: (device: UInt64, inode: UInt64)

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
        #if canImport(Darwin)
        modificationTime = (Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
        changeTime = (Int64(info.st_ctimespec.tv_sec), Int64(info.st_ctimespec.tv_nsec))
        #else
        modificationTime = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        changeTime = (Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))
        #endif
        fileID = (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Whether `path` names a directory (links followed); `nil` when nothing
    /// is there. (FileManager's `fileExists(atPath:isDirectory:)` takes an
    /// `ObjCBool`, a type of the whole of Foundation on Linux.)
    package static func isDirectory(atPath path: String) -> Bool? {
        isDirectory(at: FileLocation(bytes: Array(path.utf8)))
    }

    /// Whether `location` names a directory (links followed), its bytes as
    /// they are (not UTF-8 included); `nil` when nothing is there.
    package static func isDirectory(at location: FileLocation) -> Bool? {
        var info = stat()
        guard location.withCString({ stat($0, &info) }) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}
