#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import UploaderItems

/// Where the response body (or a dry run's request) will go, checked before
/// anything is sent and opened only when there is something to write.
///
/// As in curl, `-o FILE` is created or truncated when the response head
/// arrives: a run that fails before that (bad input, a refused connection, a
/// timeout, a signal) leaves an existing file as it was.
enum OutputTarget: Equatable {
    case standardOutput
    case file(path: String)

    /// The target for `-o PATH` (`-` or none: standard output), refused when
    /// it is a directory, its folder does not exist, or it is one of the
    /// request's own input files (same device and inode), which truncating
    /// would empty before it is sent.
    init(path: String?, inputPaths: [String]) throws(InputError) {
        guard let path, path != "-" else {
            self = .standardOutput
            return
        }
        var status = stat()
        if Self.status(of: path, into: &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw InputError(.invalidOutput, "-o '\(path.echoed)': is a directory; name a file to write the response to")
            }
            for input in inputPaths {
                var inputStatus = stat()
                if Self.status(of: input, into: &inputStatus) == 0, inputStatus.st_dev == status.st_dev, inputStatus.st_ino == status.st_ino {
                    throw InputError(.invalidOutput, "-o '\(path.echoed)': is also an input of this request ('\(input.echoed)'); writing the response there would empty it before it is sent")
                }
            }
        } else if errno == ENOENT {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            var folderStatus = stat()
            if stat(folder.isEmpty ? "/" : folder, &folderStatus) != 0 || folderStatus.st_mode & S_IFMT != S_IFDIR {
                throw InputError(.invalidOutput, "-o '\(path.echoed)': the folder '\(folder.echoed)' does not exist")
            }
        }
        self = .file(path: path)
    }

    /// `stat(2)` of the path an argument names, byte for byte.
    private static func status(of argument: String, into status: inout stat) -> Int32 {
        let bytes = RawArgument.bytes(of: argument).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { stat($0, &status) } ?? -1 }
    }

    /// Opens the target for writing: creates or truncates the file now.
    func open(appending: Bool = false) throws(OutputError) -> OutputFile {
        switch self {
        case .standardOutput: .standardOutput
        case .file(let path): try OutputFile(path: path, appending: appending)
        }
    }
}
