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
/// The walk is ``FileTreeWalk``'s: symbolic links are followed, to files and
/// to directories; a link that loops (to itself, or to a directory it is
/// inside) and a special file (FIFO, socket, device) are refused, naming the
/// path, as is a directory with no file under it. The walk opens no file:
/// each is opened when it is sniffed and held until its part is sent, as
/// separate file parts are (within the descriptor budget; past it, opened
/// again by name when sent).
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

    /// For each of ``files``, its position in the order `listing` was given
    /// the paths.
    let listedPositions: [Int]

    /// Lists the files under `directory`, the path as typed (its bytes, see
    /// ``RawArgument``); `item` is the item as messages quote it. `listing`
    /// is given the paths to open as the walk finds them, a directory's at
    /// a time, so they can be opened while it goes on.
    ///
    /// - Throws: ``InputError`` naming the path at fault: a loop, a special
    ///   file, a link to nothing, a directory that cannot be read, or no file
    ///   at all.
    init(under directory: String, item: String, listing: ([[UInt8]]) -> Void = { _ in }) throws(InputError) {
        let prefix = Self.ownName(of: RawArgument.bytes(of: directory))
        let walk = try FileTreeWalk(root: directory, prefix: prefix, for: .directoryPart(item: item)) { found in
            listing(found.map(\.path))
        }
        files = walk.files.map { File(path: $0.path, filename: $0.name) }
        listedPositions = walk.listedPositions
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
}
