import Foundation
import HTTPTypes

/// The scheme, authority and path of a base URL, checked once.
struct RequestTarget {
    var scheme: String
    var authority: String
    /// The base URL's path, percent-encoded, as written.
    var path: String
    /// The base URL's query, percent-encoded, if any.
    var query: String?

    init(baseURL: URL) throws(RequestError) {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) is not an http or https URL")
        }
        guard let host = baseURL.host(percentEncoded: true), !host.isEmpty else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) has no host")
        }
        guard baseURL.user == nil, baseURL.password == nil else {
            // Credentials in URLs end up in logs; the Authorization header is the place for them.
            throw RequestError.invalidRequest("The base URL has a user name or password; send credentials with .authorization(username:password:) instead")
        }
        guard baseURL.fragment == nil else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) has a fragment, which is never sent to a server")
        }
        self.scheme = scheme
        let bracketedHost = host.contains(":" as Character) && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = try AuthorityPort.parse(url: baseURL.absoluteString)
        self.authority = port.map { "\(bracketedHost):\($0)" } ?? bracketedHost
        self.path = baseURL.path(percentEncoded: true)
        self.query = baseURL.query(percentEncoded: true)
    }

    /// The request target: the base path, `segments` appended each
    /// percent-encoded on its own, then the base query and `query`'s pieces.
    ///
    /// The base path keeps a trailing slash when nothing is appended
    /// (`https://h/v1/` asks for `/v1/`); appended segments are joined with
    /// one slash whatever the base ends with.
    func requestTarget(appending segments: [String], query: [String]) throws(RequestError) -> String {
        var path = self.path
        if !segments.isEmpty {
            while path.hasSuffix("/") { path.removeLast() }
            for (index, segment) in segments.enumerated() {
                path += "/" + (try PathSegment.encode(segment, position: index + 1))
            }
        }
        if path.isEmpty { path = "/" }
        let pieces = (self.query.map { [$0] } ?? []).filter { !$0.isEmpty } + query
        return pieces.isEmpty ? path : path + "?" + pieces.joined(separator: "&")
    }
}
