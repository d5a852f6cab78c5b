import Foundation
import RequestBuilder
import UploaderItems

/// Where a session file is, reading it from disk, and its cookies as a
/// ``CookieJar``; the file's format is ``SessionFile``'s.
extension SessionFile {
    /// The file `--session NAME|PATH` names for a request to `url`: a PATH
    /// (any value with a `/`, `~/` for the home folder) as it is; a NAME
    /// as HTTPie lays them out, `<config>/uploader/sessions/<host>[_<port>]/<NAME>.json`,
    /// `<config>` being `$XDG_CONFIG_HOME`, else `~/.config`.
    static func path(for argument: String, option: String, url: URL, environment: [String: String]) throws(InputError) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        if argument.contains("/" as Character) {
            return argument.hasPrefix("~/") ? home + argument.dropFirst() : argument
        }
        guard !argument.isEmpty, argument != ".", argument != "..",
              argument.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)) })
        else {
            throw InputError(.conflictingInput, "\(option) '\(argument.echoed)': a session name is letters, digits, '_', '.' and '-'; give a path with a / for a file elsewhere")
        }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        var host = url.host(percentEncoded: true) ?? "localhost"
        if host.contains(":" as Character) { host = "[\(host)]" }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        return "\(config)/uploader/sessions/\(authority.replacing(":", with: "_"))/\(argument).json"
    }

    /// The session at `path`, or `nil` when there is none yet.
    ///
    /// - Throws: ``InputError`` naming the file when it cannot be read or
    ///   is not a session file.
    static func load(path: String, option: String) throws(InputError) -> SessionFile? {
        let text: String
        do {
            text = try PrivateFile.text(at: path)
        } catch {
            switch error {
            case .missing: return nil
            case .unreadable(let reason):
                throw InputError(.unusableFile, "\(option): the session file \(path.echoed) cannot be read: \(reason)")
            case .tooLarge:
                throw InputError(.unusableFile, "\(option): the session file \(path.echoed) is larger than 16 MiB; it is not a session file")
            }
        }
        do {
            return try SessionFile(parsing: text)
        } catch {
            switch error {
            case .notASession(let reason):
                throw InputError(.unusableFile, "\(option): \(path.echoed) is not a session file (\(reason)); name another session, or move that file away")
            case .unsendableCookie(let index):
                throw InputError(.unusableFile, "\(option): the session file \(path.echoed), cookie \(index + 1): its name is empty or its name or value holds ';', '=' or a control character, which cannot be sent")
            }
        }
    }

    /// The session's cookies; one with an empty domain is `host`'s alone.
    func jar(host: String) -> CookieJar {
        CookieJar(cookies.map { stored in
            Cookie(
                name: stored.name, value: stored.value, domain: stored.domain.isEmpty ? host : stored.domain,
                isHostOnly: stored.domain.isEmpty || (stored.hostOnly ?? !stored.domain.hasPrefix(".")),
                path: stored.path, expires: stored.expires.map { Date(timeIntervalSince1970: Double($0)) },
                isSecure: stored.secure, isHTTPOnly: stored.httpOnly ?? false
            )
        })
    }

    /// `jar`'s cookies as the file keeps them.
    static func stored(_ jar: CookieJar) -> [StoredCookie] {
        jar.cookies.map { cookie in
            StoredCookie(
                name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path, secure: cookie.isSecure,
                expires: cookie.expires.map { Int64($0.timeIntervalSince1970) }, hostOnly: cookie.isHostOnly, httpOnly: cookie.isHTTPOnly
            )
        }
    }
}
