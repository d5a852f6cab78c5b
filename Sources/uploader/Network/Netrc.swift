import Foundation
import HTTPBody
import UploaderItems

/// A `.netrc` file, read as curl reads it (`--netrc`, `--netrc-file`):
/// whitespace-separated tokens; the keywords `machine`, `default`, `login`,
/// `password`, `account` and `macdef` in any case; an entry (`machine NAME`
/// or `default`) runs to the next `machine`, `default` or `macdef`; a
/// `macdef` line and the lines after it, to the next empty line, are a
/// macro and never read; a value in double quotes may hold spaces and the
/// escapes `\"`, `\\`, `\n`, `\r` and `\t`.
///
/// Comments: a line whose first non-blank character is `#` is left out, as
/// every curl leaves it out; so is the rest of a line from a token that
/// starts with `#` where a keyword is expected (curl 7.x and 8.x before
/// 8.16), so a note after an entry never supplies a login. Where a value is
/// expected (`password #x`), the token is the value, as curl 8.16 reads it.
struct Netrc {
    struct Entry: Equatable {
        /// The host, lower-cased; `nil` for `default`.
        var machine: String?
        var login: String?
        var password: String?
    }

    /// The entries, in the file's order.
    var entries: [Entry]

    /// A quoted value that never ends: curl's "syntax error" in the file.
    struct SyntaxError: Error, Equatable {
        /// The 1-based line the value starts on.
        var line: Int
    }

    /// The entries of `text`.
    init(parsing text: String) throws(SyntaxError) {
        var entries: [Entry] = []
        var lexer = Lexer(text)
        while let token = try lexer.next(expectingValue: false) {
            switch token.keyword {
            case "machine":
                let name = try lexer.next(expectingValue: true)
                entries.append(Entry(machine: name?.text.lowercased() ?? ""))
            case "default":
                entries.append(Entry(machine: nil))
            case "login", "password":
                let value = try lexer.next(expectingValue: true)?.text
                guard !entries.isEmpty, let value else { continue }
                if token.keyword == "login" { entries[entries.count - 1].login = value } else { entries[entries.count - 1].password = value }
            case "account":
                _ = try lexer.next(expectingValue: true)
            case "macdef":
                // A macro ends the entry before it; its lines are never read.
                entries.append(Entry(machine: ""))
                lexer.skipToEmptyLine()
            default:
                break  // a token curl does not know: skipped, as curl skips it
            }
        }
        // The placeholders that ended an entry at a macro match no host.
        self.entries = entries.filter { $0.machine != "" }
    }

    /// The first entry, in the file's order, that is `host`'s or `default`
    /// and holds a login or a password, as curl chooses.
    func entry(forHost host: String) -> Entry? {
        let host = host.lowercased()
        return entries.first { ($0.machine == nil || $0.machine == host) && ($0.login != nil || $0.password != nil) }
    }

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
