public import Foundation

/// The scheme, host and port of a URL (RFC 6454, section 4): the party a
/// request is sent to, which decides whether credentials may follow it.
///
/// A redirect or a server-given `Location` that leaves the origin is another
/// party: the fields ``PreparedRequest/redaction`` names as credentials
/// (`Authorization`, `Cookie`, `Proxy-Authorization`, `X-Api-Key`… by
/// default) are not sent there (``RedirectMiddleware``; resumable uploads' continuation requests).
/// The default port counts as written: `https://h/` and `https://h:443/` are
/// one origin; `http://h/` and `https://h/` are two.
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lower-cased, such as `https`.
    public let scheme: String
    /// The host, lower-cased, without brackets around an IPv6 address.
    public let host: String
    /// The port, the scheme's default when the URL names none
    /// (80 for `http`, 443 for `https`), `nil` for other schemes without one.
    public let port: Int?

    /// The origin of `url`.
    public init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host(percentEncoded: false)?.lowercased() ?? ""
        port = url.port ?? Self.defaultPort(scheme: scheme)
    }

    /// The scheme's default port: 80 for `http`, 443 for `https`.
    static func defaultPort(scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// `scheme://host:port`, such as `https://example.com:443`.
    public var description: String {
        let host = self.host.contains(":" as Character) ? "[\(self.host)]" : self.host
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
