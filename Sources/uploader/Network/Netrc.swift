import Foundation
import HTTPBody
import UploaderItems

/// A `.netrc` file, read as curl reads it (`--netrc`): whitespace-separated
/// tokens, `machine NAME` then `login` and `password` for it, `default` for
/// any other host, `account` skipped, `macdef` skipped to the next empty
/// line, and a value in double quotes (with `\"` and `\\`) may hold spaces.
struct Netrc {
    struct Entry: Equatable {
        /// The host, lower-cased; `nil` for `default`.
        var machine: String?
        var login: String?
        var password: String?
    }

    var entries: [Entry]

    /// The entries of `text`.
    init(parsing text: String) {
        var entries: [Entry] = []
        var tokens = Self.tokens(of: text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                entries.append(Entry(machine: tokens.popFirst()?.lowercased()))
            case "default":
                entries.append(Entry(machine: nil))
            case "login":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].login = value }
            case "password":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].password = value }
            case "account":
                _ = tokens.popFirst()
            default:
                break  // a token curl does not know, or macdef's name (its body was dropped)
            }
        }
        self.entries = entries
    }

    /// The first entry for `host`, else the `default` entry, as curl chooses.
    func entry(forHost host: String) -> Entry? {
        let host = host.lowercased()
        return entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
    }

    /// The file `--netrc` reads: `$NETRC` when set and not empty, else `~/.netrc`.
    static func path(environment: [String: String]) -> String {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home.hasSuffix("/") ? home + ".netrc" : home + "/.netrc"
    }

    /// The most a netrc file may hold: a few lines a host, comments included.
    static let maximumSize = 1024 * 1024

    /// The file at `path`; `nil` when there is none (curl then sends no
    /// credentials), an error naming it when it cannot be read.
    static func load(path: String) throws(InputError) -> Netrc? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno
            if reason == ENOENT || reason == ENOTDIR { return nil }
            throw InputError(.unusableFile, "--netrc: the file \(path.echoed) cannot be read: \(SystemErrorText.describe(reason))")
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
                throw InputError(.unusableFile, "--netrc: the file \(path.echoed) cannot be read: \(SystemErrorText.describe(errno))")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            // A pipe or device may never end (NETRC=/dev/zero); curl stops at 128 KiB.
            guard bytes.count <= maximumSize else {
                throw InputError(.unusableFile, "--netrc: the file \(path.echoed) is larger than 1 MiB, too large for a netrc file")
            }
        }
        return Netrc(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// The tokens of `text`, `macdef` bodies left out.
    private static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            let before = tokens.count
            var current = ""
            var inToken = false
            var quoted = false
            var escaped = false
            for character in line {
                if quoted {
                    if escaped {
                        current.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quoted = false
                    } else {
                        current.append(character)
                    }
                } else if character == " " || character == "\t" || character == "\r" {
                    if inToken { tokens.append(current) }
                    (current, inToken) = ("", false)
                } else if character == "\"" && !inToken {
                    (quoted, inToken) = (true, true)
                } else {
                    current.append(character)
                    inToken = true
                }
            }
            if inToken { tokens.append(current) }
            // macdef NAME: the macro's lines run to the next empty line.
            if tokens[before...].contains("macdef") {
                while let next = lines.first, next.contains(where: { $0 != " " && $0 != "\t" }) {
                    lines.removeFirst()
                }
            }
        }
        return tokens
    }
}
