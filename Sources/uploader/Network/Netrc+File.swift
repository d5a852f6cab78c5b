import Foundation
import HTTPBody
import UploaderItems

/// The netrc file as `--netrc`, `--netrc-file` and `--netrc-optional` find
/// and read it; what it says is ``Netrc``'s to parse.
extension Netrc {
    /// The file `--netrc` reads: `$NETRC` when set and not empty, else `~/.netrc`.
    static func path(environment: [String: String]) -> String {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home.hasSuffix("/") ? home + ".netrc" : home + "/.netrc"
    }

    /// The most a netrc file may hold: a few lines a host, comments included.
    static let maximumSize = 1024 * 1024

    /// The file at `path`; `nil` when there is none and `required` is false
    /// (curl then sends no credentials), an error naming it when it cannot
    /// be read, is missing and `required`, or has a quote that never ends.
    /// `option` is the option that named the file, as messages name it.
    static func load(path: String, option: String = "--netrc", required: Bool = false) throws(InputError) -> Netrc? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno
            if !required, reason == ENOENT || reason == ENOTDIR { return nil }
            throw InputError(.unusableFile, "\(option): the file \(path.echoed) cannot be read: \(SystemErrorText.describe(reason))")
        }
        defer { close(descriptor) }
        // read(2) rather than FileHandle, which on Linux would link the whole
        // of Foundation (see ResumeStore).
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                // A folder opens, and fails here with EISDIR ("Is a directory").
                throw InputError(.unusableFile, "\(option): the file \(path.echoed) cannot be read: \(SystemErrorText.describe(errno))")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            // A pipe or device may never end (NETRC=/dev/zero); curl stops at 128 KiB.
            guard bytes.count <= maximumSize else {
                throw InputError(.unusableFile, "\(option): the file \(path.echoed) is larger than 1 MiB, too large for a netrc file")
            }
        }
        do {
            return try Netrc(parsing: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw InputError(.unusableFile, "\(option): the file \(path.echoed) has a quoted value on line \(error.line) that never ends (a \" is missing)")
        }
    }
}
