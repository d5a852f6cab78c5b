#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import UploaderItems

/// Standard input read to its end before the request is built, so a body
/// or part from it has a length, as curl reads it for `-F f=@-`: it can be
/// retried and can follow a 307 or 308. Up to ``memoryLimit`` bytes stay in
/// memory; past that, everything goes to a private temporary file (mode
/// 0600) that is removed from its folder as soon as it is made, so no exit
/// path, a signal's included, leaves it behind: the open descriptor keeps
/// it until the process ends, and the body reads it through that.
enum StandardInputContent {
    /// All of it, in memory.
    case bytes([UInt8])
    /// All of it, in the unnamed file this path reaches through its descriptor.
    case file(FilePath)

    /// The most kept in memory.
    static let memoryLimit = 1 << 20

    /// The first bytes, for sniffing the content's type.
    var prefix: [UInt8] {
        switch self {
        case .bytes(let bytes):
            return Array(bytes.prefix(64 * 1024))
        case .file(let path):
            let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { return [] }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            return Array(buffer.prefix(max(0, count)))
        }
    }

    /// Whether there is nothing.
    var isEmpty: Bool {
        if case .bytes(let bytes) = self { return bytes.isEmpty }
        return false
    }

    /// What standard input is, as far as reading it goes.
    enum Source {
        /// A pipe, a socket or a regular file: what HTTPie reads as the body.
        case piped
        /// A terminal, `/dev/null` or another device (a closed input is
        /// `/dev/null` by then): never read, never waited on.
        case interactiveOrEmpty
    }

    /// What standard input is now.
    static var source: Source {
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0, isatty(STDIN_FILENO) == 0 else { return .interactiveOrEmpty }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK, S_IFREG: return .piped
        default: return .interactiveOrEmpty
        }
    }

    /// Whether bytes wait on standard input right now, without reading or
    /// waiting: a pipe's unread bytes, or a regular file's past the offset.
    static var hasWaitingBytes: Bool {
        var status = stat()
        guard source == .piped, fstat(STDIN_FILENO, &status) == 0 else { return false }
        if status.st_mode & S_IFMT == S_IFREG {
            return Int64(status.st_size) > Int64(lseek(STDIN_FILENO, 0, SEEK_CUR))
        }
        var waiting: Int32 = 0
        let asked = withUnsafeMutablePointer(to: &waiting) { ioctl(STDIN_FILENO, UInt(FIONREAD), $0) }
        return asked == 0 && waiting > 0
    }

    /// Reads standard input to its end.
    ///
    /// - Throws: ``InputError`` when it cannot be read or the temporary
    ///   file cannot be made or written, naming which.
    static func readAll() throws(InputError) -> StandardInputContent {
        var memory: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var spill: Int32?
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(.unusableFile, "cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            if spill == nil, memory.count + count <= memoryLimit {
                memory.append(contentsOf: chunk[..<count])
                continue
            }
            if spill == nil {
                let descriptor = try makeUnnamedFile()
                spill = descriptor
                try writeAll(memory, to: descriptor)
                memory = []
            }
            if let spill { try writeAll(Array(chunk[..<count]), to: spill) }
        }
        guard let spill else { return .bytes(memory) }
        #if os(Linux)
        return .file(FilePath("/proc/self/fd/\(spill)"))  // a new open of the file, with an offset of its own
        #else
        lseek(spill, 0, SEEK_SET)  // /dev/fd shares this descriptor's offset
        return .file(FilePath("/dev/fd/\(spill)"))
        #endif
    }

    /// A new file in the temporary folder, open for reading and writing and
    /// already removed from the folder.
    private static func makeUnnamedFile() throws(InputError) -> Int32 {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/uploader-stdin-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else {
            throw InputError(.unusableFile, "cannot keep standard input in \(folder) to send it with a length: \(String(cString: strerror(errno))) (--chunked sends it as it comes)")
        }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        return descriptor
    }

    /// Writes all of `bytes` to `descriptor`.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(InputError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw InputError(.unusableFile, "cannot keep standard input in a temporary file to send it with a length: \(String(cString: strerror(errno))) (--chunked sends it as it comes)")
            }
            offset += written
        }
    }
}
