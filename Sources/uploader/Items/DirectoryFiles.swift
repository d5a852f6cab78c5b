#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

/// The regular files under a directory given as a file part with
/// `-r, --recursive` (`name@dir`), each with the filename a browser's
/// directory upload sends: its path relative to the directory's parent
/// (`dir/sub/file.ext`), in byte order of those paths.
///
/// Symbolic links are followed, to files and to directories; a link that
/// loops (to itself, or to a directory it is inside) and a special file
/// (FIFO, socket, device) are refused, naming the path, as is a directory
/// with no file under it. The walk only lists and `stat`s: no file is opened,
/// and one directory is open at a time (its names are read, then it is
/// closed before its subdirectories are walked), so a tree of any size costs
/// one descriptor. Files are opened one at a time later, as their parts are
/// sent.
struct DirectoryFiles {
    /// One file under the directory.
    struct File: Equatable {
        /// The path to open, byte for byte: the directory as typed, then the
        /// names below it.
        var path: [UInt8]
        /// The filename to send: the directory's own name, then the names
        /// below it, joined by `/`.
        var filename: [UInt8]
    }

    /// The files, in byte order of their filenames.
    let files: [File]

    /// Lists the files under `directory`, the path as typed (its bytes, see
    /// ``RawArgument``); `item` is the item as messages quote it.
    ///
    /// - Throws: ``InputError`` naming the path at fault: a loop, a special
    ///   file, a link to nothing, a directory that cannot be read, or no file
    ///   at all.
    init(under directory: String, item: String) throws(InputError) {
        let root = RawArgument.bytes(of: directory)
        var status = stat()
        guard Self.status(of: root, into: &status) == 0 else {
            throw InputError(.unusableFile, "\(item): cannot read \(directory.echoed): \(Self.reason(errno))")
        }
        var walk = Walk(item: item)
        try walk.visit(root, named: Self.ownName(of: root), ancestors: [FileID(status)])
        guard !walk.files.isEmpty else {
            throw InputError(.unusableFile, "\(item): the directory \(directory.echoed) holds no files to send")
        }
        files = walk.files.sorted { $0.filename.lexicographicallyPrecedes($1.filename) }
    }

    /// The name the directory is sent under: its last component as typed
    /// (`photos` for `trip/photos/`), or, for `.`, `..` and the like, the
    /// last component of its real path; the root has none.
    private static func ownName(of path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        var end = path.endIndex
        while end > path.startIndex, path[end - 1] == slash { end -= 1 }
        let start = path[..<end].lastIndex(of: slash).map { $0 + 1 } ?? path.startIndex
        let last = Array(path[start..<end])
        if !last.isEmpty, last != Array(".".utf8), last != Array("..".utf8) { return last }
        guard let resolved = (path + [0]).withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { realpath($0.baseAddress, nil) }
        }) else { return [] }
        defer { free(resolved) }
        let real = Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
        let realStart = real.lastIndex(of: slash).map { $0 + 1 } ?? real.startIndex
        return Array(real[realStart...])
    }

    /// `stat(2)` of a path given as bytes (links followed).
    fileprivate static func status(of path: [UInt8], into status: inout stat) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { stat($0, &status) } ?? -1 }
        }
    }

    fileprivate static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// A file's identity: its device and inode.
private struct FileID: Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// The walk's state: the files found so far.
private struct Walk {
    let item: String
    var files: [DirectoryFiles.File] = []

    /// Lists `path` (sent as `name`) and walks each subdirectory in turn;
    /// `ancestors` are the directories it is inside, itself included.
    mutating func visit(_ path: [UInt8], named name: [UInt8], ancestors: [FileID]) throws(InputError) {
        let slash = UInt8(ascii: "/")
        for entry in try names(in: path) {
            let childPath = (path.last == slash ? path : path + [slash]) + entry
            let childName = name.isEmpty ? entry : name + [slash] + entry
            var status = stat()
            guard DirectoryFiles.status(of: childPath, into: &status) == 0 else {
                let code = errno
                let shown = RawArgument.decode(childPath).echoed
                if code == ELOOP {
                    throw InputError(.unusableFile, "\(item): \(shown) is a symbolic link that loops; a directory upload follows links, so it cannot send a loop")
                }
                if code == ENOENT {
                    throw InputError(.unusableFile, "\(item): \(shown) is a symbolic link to nothing (its target does not exist)")
                }
                throw InputError(.unusableFile, "\(item): cannot read \(shown): \(DirectoryFiles.reason(code))")
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                files.append(.init(path: childPath, filename: childName))
            case S_IFDIR:
                let id = FileID(status)
                if ancestors.contains(id) {
                    throw InputError(.unusableFile, "\(item): \(RawArgument.decode(childPath).echoed) is a symbolic link to a directory it is inside, a loop a directory upload cannot send")
                }
                try visit(childPath, named: childName, ancestors: ancestors + [id])
            default:
                let kind = Self.kind(of: status.st_mode & S_IFMT)
                throw InputError(.unusableFile, "\(item): \(RawArgument.decode(childPath).echoed) is \(kind), not a regular file; a directory upload sends regular files only")
            }
        }
    }

    /// The names in a directory, `.` and `..` aside; the directory is closed
    /// before they are returned.
    private func names(in path: [UInt8]) throws(InputError) -> [[UInt8]] {
        let directory = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.flatMap { opendir($0) } }
        }
        guard let directory else {
            throw InputError(.unusableFile, "\(item): cannot read the directory \(RawArgument.decode(path).echoed): \(DirectoryFiles.reason(errno))")
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        return names
    }

    private static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}
