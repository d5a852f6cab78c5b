#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

/// The regular files under the directory of `s3://BUCKET/PREFIX/ DIR
/// --recursive`, found before anything is sent:
/// symbolic links are followed (to files and to folders), and anything that
/// cannot be uploaded as it is — a link loop, a link to nothing, a FIFO,
/// socket or device, an unreadable folder, an empty tree — is bad input
/// naming the path at fault, so a recursive upload never stops half way
/// through for a reason it could have seen first.
struct ObjectTree {
    /// One file: its path relative to the directory (`/`-separated, as an
    /// object key's tail), the path to open, and its size when listed.
    struct Entry: Sendable {
        let relativePath: String
        let path: String
        let size: Int64
    }

    /// The files, in byte order of their relative paths.
    let entries: [Entry]

    /// Lists `root`, which must be a directory (`root` is as typed; a name
    /// that is not UTF-8 is taken byte for byte).
    init(root: String) throws(InputError) {
        var info = stat()
        guard Self.status(of: root, into: &info) == 0 else {
            throw InputError(.unusableFile, "'\(root.echoed)': \(Self.reason(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw InputError(.unusableFile, "'\(root.echoed)': is not a directory; --recursive uploads the files in a directory")
        }
        var found: [Entry] = []
        try Self.walk(folder: root, relative: "", ancestors: [Identity(info)], into: &found)
        guard !found.isEmpty else {
            throw InputError(.unusableFile, "'\(root.echoed)': holds no files to upload")
        }
        entries = found.sorted { Array($0.relativePath.utf8).lexicographicallyPrecedes(Array($1.relativePath.utf8)) }
    }

    /// A folder's device and inode: seen again among its own ancestors, it is a loop.
    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
        }
    }

    private static func walk(folder: String, relative: String, ancestors: [Identity], into found: inout [Entry]) throws(InputError) {
        for name in try names(in: folder) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard status(of: path, into: &info) == 0 else {
                let code = errno
                var link = stat()
                if code == ELOOP {
                    throw InputError(.unusableFile, "'\(path.echoed)': a symbolic link loop; remove the link or upload a folder without it")
                }
                if lstatus(of: path, into: &link) == 0, link.st_mode & S_IFMT == S_IFLNK, code == ENOENT {
                    throw InputError(.unusableFile, "'\(path.echoed)': a symbolic link to nothing; remove it or upload a folder without it")
                }
                throw InputError(.unusableFile, "'\(path.echoed)': \(reason(code))")
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard !RawArgument.hasEscapedBytes(relativePath) else {
                    throw InputError(.unusableFile, "'\(path.echoed)': the name is not UTF-8, and an object's key must be; rename the file")
                }
                found.append(Entry(relativePath: relativePath, path: path, size: Int64(info.st_size)))
            case S_IFDIR:
                let identity = Identity(info)
                if ancestors.contains(identity) {
                    throw InputError(.unusableFile, "'\(path.echoed)': a symbolic link loop (it leads back to a folder above it); remove the link or upload a folder without it")
                }
                try walk(folder: path, relative: relativePath, ancestors: ancestors + [identity], into: &found)
            default:
                throw InputError(.unusableFile, "'\(path.echoed)': is \(kind(info.st_mode)), not a regular file; only regular files can be uploaded")
            }
        }
    }

    /// The names in a folder, `.` and `..` left out.
    private static func names(in folder: String) throws(InputError) -> [String] {
        let bytes = RawArgument.bytes(of: folder).map { CChar(bitPattern: $0) } + [0]
        guard let directory = bytes.withUnsafeBufferPointer({ $0.baseAddress.flatMap { opendir($0) } }) else {
            throw InputError(.unusableFile, "'\(folder.echoed)': \(reason(errno))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                RawArgument.decode(raw.prefix { $0 != 0 })
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `stat(2)` (links followed) of a path, byte for byte.
    private static func status(of path: String, into info: inout stat) -> Int32 {
        let bytes = RawArgument.bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { stat($0, &info) } ?? -1 }
    }

    /// `lstat(2)`: the link itself.
    private static func lstatus(of path: String, into info: inout stat) -> Int32 {
        let bytes = RawArgument.bytes(of: path).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { lstat($0, &info) } ?? -1 }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a file or folder"
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
