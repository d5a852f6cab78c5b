#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

extension FileTreeWalk {
    /// `problem` as the command of `purpose` reports it: a directory part
    /// names its item and says "a directory upload"; a recursive object
    /// upload quotes the path and says what to do about it. (The words are
    /// the contract's; `DirectoryUploadTests` and
    /// `UploaderRecursiveObjectStorageTests` pin them.)
    static func message(_ problem: Problem, root: String, for purpose: Purpose) -> InputError {
        let text: String
        switch (problem, purpose) {
        case (.unreadableRoot(let code), .directoryPart(let item)):
            text = "\(item): cannot read \(root.echoed): \(reason(code))"
        case (.unreadableRoot(let code), .objectUpload):
            text = "'\(root.echoed)': \(reason(code))"
        case (.rootNotDirectory, _):
            text = "'\(root.echoed)': is not a directory; --recursive uploads the files in a directory"
        case (.unreadable(let path, ELOOP, _), .directoryPart(let item)):
            text = "\(item): \(shown(path)) is a symbolic link that loops; a directory upload follows links, so it cannot send a loop"
        case (.unreadable(let path, ELOOP, _), .objectUpload):
            text = "'\(shown(path))': a symbolic link loop; remove the link or upload a folder without it"
        case (.unreadable(let path, ENOENT, _), .directoryPart(let item)):
            text = "\(item): \(shown(path)) is a symbolic link to nothing (its target does not exist)"
        case (.unreadable(let path, ENOENT, true), .objectUpload):
            text = "'\(shown(path))': a symbolic link to nothing; remove it or upload a folder without it"
        case (.unreadable(let path, let code, _), .directoryPart(let item)):
            text = "\(item): cannot read \(shown(path)): \(reason(code))"
        case (.unreadable(let path, let code, _), .objectUpload):
            text = "'\(shown(path))': \(reason(code))"
        case (.loop(let path), .directoryPart(let item)):
            text = "\(item): \(shown(path)) is a symbolic link to a directory it is inside, a loop a directory upload cannot send"
        case (.loop(let path), .objectUpload):
            text = "'\(shown(path))': a symbolic link loop (it leads back to a folder above it); remove the link or upload a folder without it"
        case (.specialFile(let path, let mode), .directoryPart(let item)):
            text = "\(item): \(shown(path)) is \(kind(of: mode) ?? "a special file"), not a regular file; a directory upload sends regular files only"
        case (.specialFile(let path, let mode), .objectUpload):
            text = "'\(shown(path))': is \(kind(of: mode) ?? "not a file or folder"), not a regular file; only regular files can be uploaded"
        case (.unreadableDirectory(let path, let code), .directoryPart(let item)):
            text = "\(item): cannot read the directory \(shown(path)): \(reason(code))"
        case (.unreadableDirectory(let path, let code), .objectUpload):
            text = "'\(shown(path))': \(reason(code))"
        case (.nameNotUTF8(let path), _):
            text = "'\(shown(path))': the name is not UTF-8, and an object's key must be; rename the file"
        case (.empty, .directoryPart(let item)):
            text = "\(item): the directory \(root.echoed) holds no files to send"
        case (.empty, .objectUpload):
            text = "'\(root.echoed)': holds no files to upload"
        }
        return InputError(.unusableFile, text)
    }

    /// A path as messages show it: decoded, escaped and cut as every echoed value is.
    private static func shown(_ path: [UInt8]) -> String {
        RawArgument.decode(path).echoed
    }

    /// `strerror(3)`'s sentence for `code`.
    private static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// `a FIFO`, `a socket`, `a character device`, `a block device`, or `nil`
    /// for another kind of file, which each purpose names its own way.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: nil
        }
    }
}
