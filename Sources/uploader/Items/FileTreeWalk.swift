#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

/// The one walk of a directory tree, behind a directory part (`-r`,
/// ``DirectoryFiles``) and `s3://… DIR --recursive` (``ObjectTree``): the
/// regular files under a directory, found before anything is sent, in byte
/// order of their names.
///
/// Symbolic links are followed, to files and to directories. What the walk
/// cannot go past — a link loop, a link to nothing, a FIFO, socket or
/// device, an unreadable entry or directory, a tree with no file — is bad
/// input naming the path at fault, worded for the ``Purpose`` of the walk
/// (`FileTreeWalk+Messages.swift`; the messages are part of the CLI's
/// contract). The walk only lists and `stat`s: no file is opened, and one
/// directory is open at a time (its names are read, then it is closed
/// before its subdirectories are walked), so a tree of any size costs one
/// descriptor.
struct FileTreeWalk {
    /// What the files are for, which decides the words of each message.
    enum Purpose {
        /// The parts of a directory given as a file item with `-r`; `item`
        /// is the item as messages quote it.
        case directoryPart(item: String)
        /// The objects of `s3://BUCKET/PREFIX/ DIR --recursive`: the root
        /// must be a directory, and every name UTF-8 (as a key must be).
        case objectUpload
    }

    /// One regular file under the directory.
    struct File {
        /// The path to open, byte for byte: the directory as typed, then the names below it.
        var path: [UInt8]
        /// The names below the directory joined by `/`, after the prefix the walk was given.
        var name: [UInt8]
        /// The file's size when it was listed.
        var size: Int64
    }

    /// Why the walk stopped, naming the path at fault (bytes, as opened).
    enum Problem {
        /// The directory itself could not be `stat`ed (`errno`).
        case unreadableRoot(errno: Int32)
        /// The directory itself is not one (only an object upload asks).
        case rootNotDirectory
        /// `stat(2)` of an entry failed with `errno` (`ELOOP` for a link that
        /// loops); `isLink` when the entry itself is a symbolic link (so
        /// `ENOENT` means a link to nothing).
        case unreadable(path: [UInt8], errno: Int32, isLink: Bool)
        /// A directory that is one of its own ancestors: a link back up the tree.
        case loop(path: [UInt8])
        /// Not a regular file or a directory; `mode` is its `S_IFMT` bits.
        case specialFile(path: [UInt8], mode: mode_t)
        /// A directory that could not be opened or read.
        case unreadableDirectory(path: [UInt8], errno: Int32)
        /// A file whose name is not UTF-8, where a name must be.
        case nameNotUTF8(path: [UInt8])
        /// No file under the directory.
        case empty
    }

    /// The files found, in byte order of their names.
    let files: [File]

    /// Walks `root` (as typed; a name that is not UTF-8 is taken byte for
    /// byte); each file's name starts with `prefix` (and `/`, unless
    /// `prefix` is empty).
    ///
    /// - Throws: ``InputError`` naming the path at fault, worded for `purpose`.
    init(root: String, prefix: [UInt8], for purpose: Purpose) throws(InputError) {
        let rootBytes = RawArgument.bytes(of: root)
        guard let status = Self.status(of: rootBytes) else {
            throw Self.message(.unreadableRoot(errno: errno), root: root, for: purpose)
        }
        if case .objectUpload = purpose, status.st_mode & S_IFMT != S_IFDIR {
            throw Self.message(.rootNotDirectory, root: root, for: purpose)
        }
        var walk = Walk(purpose: purpose)
        do throws(Problem) {
            try walk.visit(rootBytes, named: prefix, ancestors: [FileID(status)])
        } catch {
            throw Self.message(error, root: root, for: purpose)
        }
        guard !walk.files.isEmpty else {
            throw Self.message(.empty, root: root, for: purpose)
        }
        files = walk.files.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// `stat(2)` of a path given as bytes (links followed); `nil` with `errno` set when it fails.
    static func status(of path: [UInt8]) -> stat? {
        var status = stat()
        let result = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { stat($0, &status) } ?? -1 }
        }
        return result == 0 ? status : nil
    }
}

extension FileTreeWalk.Problem: Error {}

/// A file's identity: its device and inode; a directory seen again among its
/// own ancestors is a loop.
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
    let purpose: FileTreeWalk.Purpose
    var files: [FileTreeWalk.File] = []

    /// Lists `path` (its files named under `name`) and walks each
    /// subdirectory in turn; `ancestors` are the directories it is inside,
    /// itself included.
    mutating func visit(_ path: [UInt8], named name: [UInt8], ancestors: [FileID]) throws(FileTreeWalk.Problem) {
        let slash = UInt8(ascii: "/")
        for entry in try Self.names(in: path) {
            let childPath = (path.last == slash ? path : path + [slash]) + entry
            let childName = name.isEmpty ? entry : name + [slash] + entry
            guard let status = FileTreeWalk.status(of: childPath) else {
                let code = errno
                throw .unreadable(path: childPath, errno: code, isLink: Self.isLink(childPath))
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                // An object's key is UTF-8: such a file is refused where the walk meets it.
                if case .objectUpload = purpose, RawArgument.hasEscapedBytes(RawArgument.decode(childName)) {
                    throw .nameNotUTF8(path: childPath)
                }
                files.append(FileTreeWalk.File(path: childPath, name: childName, size: Int64(status.st_size)))
            case S_IFDIR:
                let id = FileID(status)
                if ancestors.contains(id) { throw .loop(path: childPath) }
                try visit(childPath, named: childName, ancestors: ancestors + [id])
            default:
                throw .specialFile(path: childPath, mode: status.st_mode & S_IFMT)
            }
        }
    }

    /// The names in a directory, `.` and `..` aside; the directory is closed
    /// before they are returned.
    private static func names(in path: [UInt8]) throws(FileTreeWalk.Problem) -> [[UInt8]] {
        let directory = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.flatMap { opendir($0) } }
        }
        guard let directory else {
            throw .unreadableDirectory(path: path, errno: errno)
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

    /// Whether `path` is itself a symbolic link (`lstat(2)`).
    private static func isLink(_ path: [UInt8]) -> Bool {
        var status = stat()
        let result = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { lstat($0, &status) } ?? -1 }
        }
        return result == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}
