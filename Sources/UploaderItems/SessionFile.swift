package import Foundation

/// A session file, as HTTPie's `--session` keeps one: the headers,
/// credentials (as the `Authorization` header) and cookies of earlier runs,
/// in JSON. It holds secrets, as ~/.netrc does; the uploader reads and
/// writes it 0600.
package struct SessionFile: Codable, Equatable {
    /// What the file is, so a file of something else is never taken for one.
    package struct Meta: Codable, Equatable {
        package var about: String
        package var help: String?
    }

    /// A header sent with every request of the session.
    package struct Header: Codable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            (self.name, self.value) = (name, value)
        }
    }

    /// A cookie, in HTTPie's fields and two more (`hostOnly`, `httpOnly`).
    package struct StoredCookie: Codable, Equatable {
        package var name: String
        package var value: String
        /// The host or domain; empty: the session's host, as HTTPie writes it.
        package var domain: String
        package var path: String
        package var secure: Bool
        /// Seconds since 1970, or `nil` for a session cookie.
        package var expires: Int64?
        package var hostOnly: Bool?
        package var httpOnly: Bool?

        package init(
            name: String, value: String, domain: String, path: String, secure: Bool,
            expires: Int64? = nil, hostOnly: Bool? = nil, httpOnly: Bool? = nil
        ) {
            (self.name, self.value, self.domain, self.path, self.secure) = (name, value, domain, path, secure)
            (self.expires, self.hostOnly, self.httpOnly) = (expires, hostOnly, httpOnly)
        }
    }

    package var meta: Meta
    package var headers: [Header]
    package var cookies: [StoredCookie]

    private enum CodingKeys: String, CodingKey {
        case meta = "__meta__", headers, cookies
    }

    /// What `__meta__.about` says in a session file of ours.
    package static let about = "uploader session file"
    /// The sessions read: ours, and HTTPie's (the same fields).
    package static let readable = [about, "HTTPie session file"]

    /// An empty session.
    package init(headers: [Header] = [], cookies: [StoredCookie] = []) {
        meta = Meta(about: Self.about, help: "uploader(1), --session; it holds credentials and cookies: keep it private, as ~/.netrc")
        self.headers = headers
        self.cookies = cookies
    }

    /// Why a text is not a session file this program can use.
    package enum Refusal: Error, Equatable {
        /// Not JSON with `__meta__`, `headers` and `cookies`, or a
        /// `__meta__.about` of another program: the reason, in words.
        case notASession(String)
        /// The cookie at this index (from 0) has an empty name, or a name
        /// or value a `Cookie` field cannot carry.
        case unsendableCookie(Int)
    }

    /// The session `text` holds, as this program or HTTPie wrote it.
    ///
    /// - Throws: ``Refusal`` for JSON that is not a session, a session of
    ///   another program, or a cookie that could not be sent as it is.
    package init(parsing text: String) throws(Refusal) {
        do {
            self = try JSONDecoder().decode(SessionFile.self, from: Data(text.utf8))
        } catch {
            throw .notASession("it is not JSON with __meta__, headers and cookies")
        }
        guard Self.readable.contains(meta.about) else {
            throw .notASession("its __meta__.about is '\(meta.about.echoed)'")
        }
        for (index, cookie) in cookies.enumerated()
        where cookie.name.isEmpty || [cookie.name, cookie.value].contains(where: Self.cannotBeSent) || cookie.name.contains("=" as Character) {
            throw .unsendableCookie(index)
        }
    }

    private static func cannotBeSent(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }
    }

    /// The file's bytes: indented JSON, keys sorted.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
