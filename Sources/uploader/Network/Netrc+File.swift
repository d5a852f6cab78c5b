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
        let text: String
        do {
            text = try PrivateFile.text(at: path, limit: maximumSize)
        } catch {
            switch error {
            case .missing where !required: return nil
            case .missing(let reason), .unreadable(let reason): throw InputError(.unusableFile, "\(option): the file \(path.echoed) cannot be read: \(reason)")
            // A pipe or device may never end (NETRC=/dev/zero); curl stops at 128 KiB.
            case .tooLarge: throw InputError(.unusableFile, "\(option): the file \(path.echoed) is larger than 1 MiB, too large for a netrc file")
            }
        }
        do {
            return try Netrc(parsing: text)
        } catch {
            throw InputError(.unusableFile, "\(option): the file \(path.echoed) has a quoted value on line \(error.line) that never ends (a \" is missing)")
        }
    }
}
