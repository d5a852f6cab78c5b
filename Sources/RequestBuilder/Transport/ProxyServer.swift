import Foundation
import HTTPBody

/// A proxy: an HTTP forward proxy reached over plain HTTP, or a SOCKS5 one.
///
/// Through an HTTP proxy, `AsyncHTTPClientTransport` sends an `http://`
/// target's request to the proxy in absolute form (`POST
/// http://host:port/path HTTP/1.1`), as curl does, and opens a `CONNECT`
/// tunnel for an `https://` target, which stock squid and tinyproxy allow
/// to port 443 only. Credentials in its URL are sent as
/// `Proxy-Authorization: Basic` and never shown: the ``description``
/// writes them `user:***@`. Through a SOCKS5 proxy, every target goes
/// through the proxy's `CONNECT` command, the target's name resolved by
/// the proxy (see ``Kind``).
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How a proxy is spoken to: the scheme of its URL.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Scheme: String, Hashable {
            case http, socks5, socks5h
        }

        private let base: Scheme

        /// An HTTP forward proxy (`http://`).
        public static let http = Kind(base: .http)
        /// A SOCKS5 proxy (`socks5://`). AsyncHTTPClient hands the proxy the
        /// target's name, never an address it resolved, so the proxy
        /// resolves it, as with ``socks5h``; curl resolves it locally.
        public static let socks5 = Kind(base: .socks5)
        /// A SOCKS5 proxy that resolves the target's name (`socks5h://`).
        public static let socks5h = Kind(base: .socks5h)

        /// Whether the proxy speaks SOCKS5 rather than HTTP.
        public var isSOCKS: Bool { base != .http }

        /// The scheme of the proxy's URL: `http`, `socks5` or `socks5h`.
        public var description: String { base.rawValue }

        /// The kind a proxy URL's scheme names, or `nil` for a scheme that
        /// names none the transports speak.
        init?(scheme: String) {
            guard let base = Scheme(rawValue: scheme) else { return nil }
            self.base = base
        }

        private init(base: Scheme) {
            self.base = base
        }
    }

    /// The proxy's host name or IP address (IPv6 without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name for `Proxy-Authorization`, if any.
    public var username: String?
    /// The password for `Proxy-Authorization`, if any.
    public var password: String?
    /// How the proxy is spoken to; ``Kind/http`` unless its URL says otherwise.
    public var kind: Kind = .http

    /// Creates a proxy from its parts.
    ///
    /// - Parameters:
    ///   - host: The host name or IP address.
    ///   - port: The port.
    ///   - username: A user name for `Proxy-Authorization: Basic`.
    ///   - password: Its password.
    ///   - kind: How it is spoken to: HTTP unless given.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil, kind: Kind = .http) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.kind = kind
    }

    /// Parses a proxy URL as curl does: `http://[user:pass@]host[:port]`,
    /// `socks5://` or `socks5h://`, the scheme optional (`host:3128` means
    /// `http://host:3128`), the port 1080 when absent; user and password
    /// percent-decoded.
    ///
    /// - Parameter url: The proxy's URL, as given to `--proxy` or in `https_proxy`.
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) for
    ///   a scheme other than `http`, `socks5` and `socks5h`, a missing host or a bad port, naming the URL
    ///   (its password hidden).
    public init(url: String) throws {
        let text = String(url.trimmingOptionalWhitespace)
        let withScheme = text.firstRange(of: "://") != nil ? text : "http://\(text)"
        let shown = Self.redacted(withScheme)
        guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased() else {
            throw RequestError.invalidRequest("proxy \(shown) is not a valid URL")
        }
        guard let kind = Kind(scheme: scheme) else {
            throw RequestError.invalidRequest("proxy \(shown): only http://, socks5:// and socks5h:// proxies are supported, not \(scheme)://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw RequestError.invalidRequest("proxy \(shown) has no host")
        }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else {
            throw RequestError.invalidRequest("proxy \(shown) has port \(port), outside 1-65535")
        }
        self.init(
            host: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host,
            port: port,
            username: components.percentEncodedUser.map(Self.percentDecoded),
            password: components.percentEncodedPassword.map(Self.percentDecoded),
            kind: kind
        )
    }

    /// `host:port`, as error messages name the proxy.
    public var authority: String {
        host.contains(":" as Character) ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `http://user:***@host:port` (or `socks5://…`), the password never shown.
    public var description: String {
        guard let username else { return "\(kind)://\(authority)" }
        return "\(kind)://\(username)\(password == nil ? "" : ":***")@\(authority)"
    }

    /// `text` with its escapes decoded, or as it is when they do not make
    /// UTF-8. (Foundation's `removingPercentEncoding` would link the whole
    /// of it on Linux.)
    private static func percentDecoded(_ text: String) -> String {
        String(validating: PercentEncoding.decode(text.utf8), as: UTF8.self) ?? text
    }

    /// A proxy URL with any password replaced by `***`.
    private static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://"),
              let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else { return url }
        let userinfo = url[schemeEnd.upperBound..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}
