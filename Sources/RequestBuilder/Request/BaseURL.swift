import Foundation
import HTTPTypes

/// The scheme, authority and target of a builder's base URL, checked once.
struct BaseURL {
    var scheme: String
    var authority: String
    /// The base URL's path and query, percent-encoded, as written.
    var target: RequestTarget

    /// Checks `baseURL`; a message names it as `redaction` shows it.
    init(_ baseURL: URL, redaction: LoggingMiddleware.Redaction) throws(RequestError) {
        let shown = redaction.redacted(baseURL).debugDescription
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw RequestError.invalidRequest("The base URL \(shown) is not an http or https URL")
        }
        guard let host = baseURL.host(percentEncoded: true), !host.isEmpty else {
            throw RequestError.invalidRequest("The base URL \(shown) has no host")
        }
        guard baseURL.user == nil, baseURL.password == nil else {
            // Credentials in URLs end up in logs; the Authorization header is the place for them.
            throw RequestError.invalidRequest("The base URL has a user name or password; send credentials with .authorization(username:password:) instead")
        }
        guard baseURL.fragment == nil else {
            throw RequestError.invalidRequest("The base URL \(shown) has a fragment, which is never sent to a server")
        }
        self.scheme = scheme
        let bracketedHost = host.contains(":" as Character) && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = try AuthorityPort.parse(url: baseURL.absoluteString)
        self.authority = port.map { "\(bracketedHost):\($0)" } ?? bracketedHost
        self.target = RequestTarget(path: baseURL.path(percentEncoded: true), query: baseURL.query(percentEncoded: true))
    }
}
