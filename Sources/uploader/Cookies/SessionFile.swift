import Foundation
import RequestBuilder
import UploaderItems

/// A session file, as HTTPie's `--session` keeps one: the headers,
/// credentials (as the `Authorization` header) and cookies of earlier runs,
/// in JSON, 0600. It holds secrets, as ~/.netrc does.
struct SessionFile: Codable, Equatable {
    /// What the file is, so a file of something else is never taken for one.
    struct Meta: Codable, Equatable {
        var about: String
        var help: String?
    }

    /// A header sent with every request of the session.
    struct Header: Codable, Equatable {
        var name: String
        var value: String
    }

    /// A cookie, in HTTPie's fields and two more (`hostOnly`, `httpOnly`).
    struct StoredCookie: Codable, Equatable {
        var name: String
        var value: String
        /// The host or domain; empty: the session's host, as HTTPie writes it.
        var domain: String
        var path: String
        var secure: Bool
        /// Seconds since 1970, or `nil` for a session cookie.
        var expires: Int64?
        var hostOnly: Bool?
        var httpOnly: Bool?
    }

    var meta: Meta
    var headers: [Header]
    var cookies: [StoredCookie]

    private enum CodingKeys: String, CodingKey {
        case meta = "__meta__", headers, cookies
    }

    /// What `__meta__.about` says in a session file of ours.
    static let about = "uploader session file"
    /// The sessions read: ours, and HTTPie's (the same fields).
    static let readable = [about, "HTTPie session file"]

    /// An empty session.
    init(headers: [Header] = [], cookies: [StoredCookie] = []) {
        meta = Meta(about: Self.about, help: "uploader(1), --session; it holds credentials and cookies: keep it private, as ~/.netrc")
        self.headers = headers
        self.cookies = cookies
    }

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
        let session: SessionFile
        do {
            session = try JSONDecoder().decode(SessionFile.self, from: Data(text.utf8))
        } catch {
            throw notOurs(path, option: option, because: "it is not JSON with __meta__, headers and cookies")
        }
        guard readable.contains(session.meta.about) else {
            throw notOurs(path, option: option, because: "its __meta__.about is '\(session.meta.about.echoed)'")
        }
        for (index, cookie) in session.cookies.enumerated()
        where cookie.name.isEmpty || [cookie.name, cookie.value].contains(where: Self.cannotBeSent) || cookie.name.contains("=" as Character) {
            throw InputError(.unusableFile, "\(option): the session file \(path.echoed), cookie \(index + 1): its name is empty or its name or value holds ';', '=' or a control character, which cannot be sent")
        }
        return session
    }

    private static func notOurs(_ path: String, option: String, because reason: String) -> InputError {
        InputError(.unusableFile, "\(option): \(path.echoed) is not a session file (\(reason)); name another session, or move that file away")
    }

    private static func cannotBeSent(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }
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

    /// The file's bytes: indented JSON, keys sorted.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
