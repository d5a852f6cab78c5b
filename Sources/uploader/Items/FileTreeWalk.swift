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
/// directory is open at a time (its names are read and its entries
/// `stat`ed relative to it, then it is closed before its subdirectories are
/// walked), so a tree of any size costs one descriptor. An entry is
/// `stat`ed once, by its name in the open directory (no walk of the whole
/// path); a directory part's regular files, which the directory's own
/// listing names as such, not at all: each is measured when it is opened.
struct FileTreeWalk {
    /// What the files are for, which decides the words of each message.
    enum Purpose {
        /// The parts of a directory given as a file item with `-r`; `item`
        /// is the item as messages quote it.
        case directoryPart(item: String)
        /// The objects of `s3://BUCKET/PREFIX/ DIR --recursive`: the root
        /// must be a directory, and every name UTF-8 (as a key must be).
        case objectUpload

        /// Whether each file's size is read as it is listed: an object
        /// upload's sizes are its plan; a directory part's files are
        /// measured when they are opened.
        var measuresFiles: Bool {
            if case .objectUpload = self { true } else { false }
        }
    }

    /// One regular file under the directory.
    struct File {
        /// The path to open, byte for byte: the directory as typed, then the names below it.
        var path: [UInt8]
        /// The names below the directory joined by `/`, after the prefix the walk was given.
        var name: [UInt8]
        /// The file's size when it was listed; `nil` for a directory part's
        /// file, which the walk does not `stat` (``Purpose/measuresFiles``).
        var size: Int64?

        /// The size as listed, or else `stat`ed now (an object upload's walk
        /// lists every size, ``Purpose/measuresFiles``).
        ///
        /// - Throws: ``InputError`` naming the file, as the walk would.
        func size(root: String) throws(InputError) -> Int64 {
            if let size { return size }
            guard let status = FileTreeWalk.status(of: path) else {
                throw FileTreeWalk.message(.unreadable(path: path, errno: errno, isLink: false), root: root, for: .objectUpload)
            }
            return Int64(status.st_size)
        }
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

    /// For each of ``files``, its position in the order the walk listed
    /// them (the order `listing` was given them).
    let listedPositions: [Int]

    /// Walks `root` (as typed; a name that is not UTF-8 is taken byte for
    /// byte); each file's name starts with `prefix` (and `/`, unless
    /// `prefix` is empty). `listing` is given the files as they are found,
    /// a directory's at a time, before its subdirectories are walked (and
    /// before the walk is known to succeed), so their use can start while
    /// the walk goes on.
    ///
    /// - Throws: ``InputError`` naming the path at fault, worded for `purpose`.
    init(root: String, prefix: [UInt8], for purpose: Purpose, listing: (ArraySlice<File>) -> Void = { _ in }) throws(InputError) {
        let rootBytes = RawArgument.bytes(of: root)
        guard let status = Self.status(of: rootBytes) else {
            throw Self.message(.unreadableRoot(errno: errno), root: root, for: purpose)
        }
        if case .objectUpload = purpose, status.st_mode & S_IFMT != S_IFDIR {
            throw Self.message(.rootNotDirectory, root: root, for: purpose)
        }
        var walk = Walk(purpose: purpose)
        do throws(Problem) {
            try walk.visit(rootBytes, named: prefix, ancestors: [FileID(status)], listing: listing)
        } catch {
            throw Self.message(error, root: root, for: purpose)
        }
        guard !walk.files.isEmpty else {
            throw Self.message(.empty, root: root, for: purpose)
        }
        let listed = walk.files
        listedPositions = listed.indices.sorted { listed[$0].name.lexicographicallyPrecedes(listed[$1].name) }
        files = listedPositions.map { listed[$0] }
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

/// The walk's state: the files found so far, and how many of them were
/// handed to the listing.
private struct Walk {
    let purpose: FileTreeWalk.Purpose
    var files: [FileTreeWalk.File] = []
    var listedCount = 0

    /// Lists `path` (its files named under `name`), hands `listing` its
    /// files, then walks each subdirectory in turn; `ancestors` are the
    /// directories it is inside, itself included.
    mutating func visit(
        _ path: [UInt8], named name: [UInt8], ancestors: [FileID], listing: (ArraySlice<FileTreeWalk.File>) -> Void
    ) throws(FileTreeWalk.Problem) {
        let slash = UInt8(ascii: "/")
        var subdirectories: [(path: [UInt8], name: [UInt8], id: FileID)] = []
        for entry in try Self.entries(in: path, measuringFiles: purpose.measuresFiles) {
            let childPath = (path.last == slash ? path : path + [slash]) + entry.name
            let childName = name.isEmpty ? entry.name : name + [slash] + entry.name
            let status: stat
            switch entry.kind {
            case .regularFile:
                try append(childPath, named: childName, size: nil)
                continue
            case .unreadable(let code, let isLink):
                throw .unreadable(path: childPath, errno: code, isLink: isLink)
            case .status(let entryStatus):
                status = entryStatus
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                try append(childPath, named: childName, size: Int64(status.st_size))
            case S_IFDIR:
                let id = FileID(status)
                if ancestors.contains(id) { throw .loop(path: childPath) }
                subdirectories.append((childPath, childName, id))
            default:
                throw .specialFile(path: childPath, mode: status.st_mode & S_IFMT)
            }
        }
        list(to: listing)
        for subdirectory in subdirectories {
            try visit(subdirectory.path, named: subdirectory.name, ancestors: ancestors + [subdirectory.id], listing: listing)
        }
    }

    /// Hands `listing` the files found since it was last given any.
    private mutating func list(to listing: (ArraySlice<FileTreeWalk.File>) -> Void) {
        guard listedCount < files.count else { return }
        listing(files[listedCount...])
        listedCount = files.count
    }

    /// Records a regular file.
    private mutating func append(_ path: [UInt8], named name: [UInt8], size: Int64?) throws(FileTreeWalk.Problem) {
        // An object's key is UTF-8: such a file is refused where the walk meets it.
        if case .objectUpload = purpose, RawArgument.hasEscapedBytes(RawArgument.decode(name)) {
            throw .nameNotUTF8(path: path)
        }
        files.append(FileTreeWalk.File(path: path, name: name, size: size))
    }

    /// One name in a directory, and what the walk knows of it.
    private struct Entry {
        /// What the walk knows of the entry.
        enum Kind {
            /// A regular file by the directory's own listing (`d_type`),
            /// not `stat`ed: asked for where sizes are not.
            case regularFile
            /// Its `stat` (links followed).
            case status(stat)
            /// `stat` failed with `errno`; `isLink` when the entry itself
            /// is a symbolic link.
            case unreadable(errno: Int32, isLink: Bool)
        }

        let name: [UInt8]
        let kind: Kind
    }

    /// The entries of a directory, `.` and `..` aside, each `stat`ed by its
    /// name relative to the open directory (a regular file only when
    /// `measuringFiles`); the directory is closed before they are returned.
    private static func entries(in path: [UInt8], measuringFiles: Bool) throws(FileTreeWalk.Problem) -> [Entry] {
        let directory = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.flatMap { opendir($0) } }
        }
        guard let directory else {
            throw .unreadableDirectory(path: path, errno: errno)
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            if entry.pointee.d_type == UInt8(DT_REG), !measuringFiles {
                entries.append(Entry(name: name, kind: .regularFile))
            } else if let status = status(of: name, in: descriptor, flags: 0) {
                entries.append(Entry(name: name, kind: .status(status)))
            } else {
                let code = errno
                let isLink = status(of: name, in: descriptor, flags: AT_SYMLINK_NOFOLLOW).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
                entries.append(Entry(name: name, kind: .unreadable(errno: code, isLink: isLink)))
            }
        }
        return entries
    }

    /// `fstatat(2)` of `name` in the open directory `descriptor` (`flags`:
    /// `AT_SYMLINK_NOFOLLOW` for the entry itself, else links followed);
    /// `nil` with `errno` set when it fails.
    private static func status(of name: [UInt8], in descriptor: Int32, flags: Int32) -> stat? {
        var status = stat()
        let result = (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { fstatat(descriptor, $0, &status, flags) } ?? -1 }
        }
        return result == 0 ? status : nil
    }
}
