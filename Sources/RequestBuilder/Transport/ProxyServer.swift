import Foundation
import HTTPBody

/// An HTTP forward proxy, reached over plain HTTP. `AsyncHTTPClientTransport`
/// opens a `CONNECT` tunnel through it for every target, `http://` ones
/// included (AsyncHTTPClient never sends absolute-form requests), so the
/// proxy must allow `CONNECT` to the target's port. Credentials in its URL
/// are sent as `Proxy-Authorization: Basic` and never shown: the
/// ``description`` writes them `user:***@`.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or IP address (IPv6 without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name for `Proxy-Authorization`, if any.
    public var username: String?
    /// The password for `Proxy-Authorization`, if any.
    public var password: String?

    /// Creates a proxy from its parts.
    ///
    /// - Parameters:
    ///   - host: The host name or IP address.
    ///   - port: The port.
    ///   - username: A user name for `Proxy-Authorization: Basic`.
    ///   - password: Its password.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Parses a proxy URL as curl does: `http://[user:pass@]host[:port]`,
    /// the scheme optional (`host:3128` means `http://host:3128`), the port
    /// 1080 when absent; user and password percent-decoded.
    ///
    /// - Parameter url: The proxy's URL, as given to `--proxy` or in `https_proxy`.
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) for
    ///   a scheme other than `http`, a missing host or a bad port, naming the URL
    ///   (its password hidden).
    public init(url: String) throws {
        let text = String(url.trimmingOptionalWhitespace)
        let withScheme = text.firstRange(of: "://") != nil ? text : "http://\(text)"
        let shown = Self.redacted(withScheme)
        guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased() else {
            throw RequestError.invalidRequest("proxy \(shown) is not a valid URL")
        }
        guard scheme == "http" else {
            throw RequestError.invalidRequest("proxy \(shown): only http:// proxies are supported, not \(scheme)://")
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
            password: components.percentEncodedPassword.map(Self.percentDecoded)
        )
    }

    /// `host:port`, as error messages name the proxy.
    public var authority: String {
        host.contains(":" as Character) ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `http://user:***@host:port`, the password never shown.
    public var description: String {
        guard let username else { return "http://\(authority)" }
        return "http://\(username)\(password == nil ? "" : ":***")@\(authority)"
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
