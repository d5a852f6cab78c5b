public import Foundation

/// One HTTP cookie as a user agent stores it (RFC 6265, section 5.3): the
/// name and value a server set, the host or domain and path it is sent to,
/// when it expires and whether it needs `https`.
///
/// Cookies come from `Set-Cookie` fields (``init(setCookie:from:at:)``), a
/// curl cookie jar (``CookieJar/init(netscapeFormat:setCookieLinesFrom:at:)``) or your own code;
/// a ``CookieJar`` decides which are sent where.
///
/// ```swift
/// let cookie = Cookie(setCookie: "sid=31d4; Path=/; Secure; HttpOnly", from: url)
/// ```
public struct Cookie: Hashable, Sendable {
    /// The name, such as `sid`; never empty.
    public let name: String
    /// The value, possibly empty.
    public let value: String
    /// The host (a host-only cookie) or domain the cookie is sent to, in
    /// lower case, without a leading dot.
    public let domain: String
    /// Whether only ``domain`` itself gets the cookie (no `Domain` attribute
    /// was given), not the hosts under it.
    public let isHostOnly: Bool
    /// The path the cookie is sent under, such as `/` or `/docs`.
    public let path: String
    /// When the cookie expires, or `nil` for a session cookie, which lasts
    /// as long as the store that holds it. Whole seconds.
    public let expires: Date?
    /// Whether the cookie is sent over `https` only (`Secure`).
    public let isSecure: Bool
    /// Whether the cookie is for HTTP only, never for scripts (`HttpOnly`);
    /// an HTTP client sends it like any other.
    public let isHTTPOnly: Bool

    /// Creates a cookie from its parts.
    ///
    /// - Parameters:
    ///   - name: The name; a cookie with an empty name is never sent.
    ///   - value: The value.
    ///   - domain: The host or domain, in any case, with or without a leading dot.
    ///   - isHostOnly: Whether only `domain` itself gets the cookie.
    ///   - path: The path; one that does not begin with `/` is taken as `/`.
    ///   - expires: The expiry, rounded down to a whole second, or `nil` for a session cookie.
    ///   - isSecure: Whether the cookie needs `https`.
    ///   - isHTTPOnly: Whether the cookie is for HTTP only.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false
    ) {
        self.name = name
        self.value = value
        self.domain = CookieDomain.canonical(domain)
        self.isHostOnly = isHostOnly
        self.path = path.hasPrefix("/") ? path : "/"
        self.expires = expires.map { Date(timeIntervalSince1970: CookieDate.clampedSeconds($0.timeIntervalSince1970)) }
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
    }

    /// Whether the cookie has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        expires.map { $0 <= date } ?? false
    }

    /// Whether the cookie is sent with a request to `url` (RFC 6265,
    /// section 5.4): the host matches ``domain`` (exactly for a host-only
    /// cookie, as the domain or a name under it otherwise, never an IP
    /// address under a domain), the path is under ``path``, the scheme is
    /// `https` when ``isSecure``, and it has not expired at `date`.
    public func isSent(to url: URL, at date: Date = Date()) -> Bool {
        guard !name.isEmpty, !isExpired(at: date), let target = CookieTarget(url) else { return false }
        if isSecure, !target.isSecure { return false }
        let hostMatches = isHostOnly ? target.host.utf8.elementsEqual(domain.utf8) : CookieDomain.domainMatches(target.host, domain)
        return hostMatches && CookiePath.pathMatches(target.path, path)
    }

    /// `name=value`, as a `Cookie` field lists it.
    public var pair: String { "\(name)=\(value)" }

    /// Whether `other` is the same cookie for a store: the same name,
    /// domain and path (a newer one replaces an older one).
    func isSameSlot(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }
}

/// What a cookie rule needs of a request's URL: its host in lower case
/// (without brackets), its path, and whether it goes over `https`.
struct CookieTarget {
    let host: String
    let path: String
    let isSecure: Bool

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(percentEncoded: false), !host.isEmpty
        else { return nil }
        self.host = CookieDomain.canonical(host)
        let path = url.path(percentEncoded: true)
        self.path = path.isEmpty ? "/" : path
        isSecure = scheme == "https"
    }
}
