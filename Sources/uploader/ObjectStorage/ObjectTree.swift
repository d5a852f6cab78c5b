import UploaderItems

/// The regular files under the directory of `s3://BUCKET/PREFIX/ DIR
/// --recursive`, found before anything is sent by ``FileTreeWalk``:
/// symbolic links are followed (to files and to folders), and anything that
/// cannot be uploaded as it is — a link loop, a link to nothing, a FIFO,
/// socket or device, an unreadable folder, a name that is not UTF-8, an
/// empty tree — is bad input naming the path at fault, so a recursive upload
/// never stops half way through for a reason it could have seen first.
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
        // Every name is UTF-8 (the walk refuses others), so the walk's byte
        // order is the order of these strings' bytes.
        entries = try FileTreeWalk(root: root, prefix: [], for: .objectUpload).files.map { file throws(InputError) in
            Entry(relativePath: RawArgument.decode(file.name), path: RawArgument.decode(file.path), size: try file.size(root: root))
        }
    }
}
