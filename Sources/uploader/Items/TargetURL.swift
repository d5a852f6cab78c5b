import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import UploaderItems

/// The URL argument as the request will use it: `http`/`https` with a path,
/// as HTTPie reads it (`localhost:8080/up` means `http://localhost:8080/up`,
/// `:8080/up` means `http://localhost:8080/up`), and the credentials of its
/// userinfo, which go into `Authorization` rather than the URL.
struct TargetURL {
    /// The URL without userinfo.
    var url: URL
    /// `user:password` from `http://user:password@host/`, percent-decoded.
    var credentials: String?

    /// Reads the URL argument.
    ///
    /// - Throws: ``InputError`` for a scheme other than http(s), a raw space
    ///   or control character, a port outside 0-65535, or text that is not a
    ///   URL; the message shows the password as `***`.
    static func parse(_ text: String) throws(InputError) -> TargetURL {
        let shown = masked(text).echoed
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw InputError(.invalidURL, "'\(shown)': a URL cannot contain spaces or control characters; percent-encode them (a space is %20)")
        }
        var candidate = text
        if candidate.hasPrefix(":") { candidate = "localhost" + candidate }
        let lowered = candidate.lowercased()
        if !lowered.hasPrefix("http://"), !lowered.hasPrefix("https://") {
            if lowered.firstRange(of: "://") != nil {
                throw InputError(.invalidURL, "'\(shown)': only http:// and https:// URLs are supported")
            }
            candidate = "http://" + candidate
        }
        candidate = Self.escapingPathAndQuery(of: candidate)
        do {
            _ = try AuthorityPort.parse(url: candidate)
        } catch {
            throw InputError(.invalidURL, "'\(shown)': the port is not a number from 0 to 65535")
        }
        // The host as written (`encodedHost`): `host` decodes IDNA through
        // ICU, which opens its UTS #46 normalizer and loads its data on
        // every run, only for the host to be checked for emptiness.
        guard var components = URLComponents(string: candidate), let host = components.encodedHost, !host.isEmpty else {
            throw InputError(.invalidURL, "'\(shown)' is not a valid URL; percent-encode reserved characters (for example http://localhost:8080/upload)")
        }
        var credentials: String?
        if let user = components.user {
            credentials = user + ":" + (components.password ?? "")
            components.user = nil
            components.password = nil
        }
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }  // path is empty when its escapes are not UTF-8 (%FF)
        components.fragment = nil  // never sent, as curl and HTTPie leave it out
        guard let url = components.url else {
            throw InputError(.invalidURL, "'\(shown)' is not a valid URL; percent-encode reserved characters (for example http://localhost:8080/upload)")
        }
        return TargetURL(url: url, credentials: credentials)
    }

    /// The URL with the bytes its path and query may not hold as they are
    /// (non-ASCII text, `"`, `<`, `>` and the like) percent-encoded as
    /// UTF-8, and the escapes already there kept: `localhost:8080/ünï/a%20b`
    /// asks for `/%C3%BCn%C3%AF/a%20b`, as curl and HTTPie send it. A byte
    /// that is not UTF-8 is escaped as itself (`/\xff` asks for `/%FF`). The
    /// scheme and authority are left as they are.
    static func escapingPathAndQuery(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        guard let pathStart = url[afterScheme...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return url }
        return String(url[..<pathStart]) + ArgumentPercentEncoding.encodeKeepingEscapes(String(url[pathStart...]), allowing: .uriCharacters)
    }

    /// The text with the password of its userinfo replaced by `***`, so no
    /// message shows it: `http://ada:***@host/`.
    static func masked(_ text: String) -> String {
        let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        guard let at = text[start..<authorityEnd].lastIndex(of: "@"),
              let colon = text[start..<at].firstIndex(of: ":")
        else { return text }
        return String(text[...colon]) + "***" + String(text[at...])
    }
}
