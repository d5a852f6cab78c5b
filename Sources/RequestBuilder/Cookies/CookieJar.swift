public import Foundation

/// A set of cookies with RFC 6265's rules for taking them from responses
/// and choosing the ones a request gets: a value, so it can be copied,
/// compared, saved (``netscapeFormat``) and held by any ``CookieStore``.
///
/// ```swift
/// var jar = CookieJar()
/// jar.receive(setCookie: "sid=31d4; Path=/", from: URL(string: "https://example.com/login")!)
/// jar.cookieField(for: URL(string: "https://example.com/account")!)  // "sid=31d4"
/// ```
///
/// Memory: the cookies themselves, at most ``maximumCookies`` of them and
/// ``maximumCookiesPerDomain`` for one domain (the oldest go first), each
/// at most 4 KiB of name and value, as RFC 6265 section 6.1 allows.
public struct CookieJar: Hashable, Sendable {
    /// The cookies, oldest first (a cookie that replaced another keeps the
    /// other's place, as RFC 6265 keeps its creation time).
    public private(set) var cookies: [Cookie]

    /// The most cookies a jar holds: 3000, RFC 6265's minimum for a user agent.
    public static let maximumCookies = 3000
    /// The most cookies a jar holds for one domain: 50, RFC 6265's minimum.
    public static let maximumCookiesPerDomain = 50

    /// A jar holding `cookies`, as ``insert(_:at:)`` would take them one by
    /// one (a later cookie for the same name, domain and path replaces an
    /// earlier one; expired ones are dropped).
    public init(_ cookies: [Cookie] = [], at date: Date = Date()) {
        self.cookies = []
        for cookie in cookies { insert(cookie, at: date) }
    }

    /// Stores `cookie`, replacing the one with the same name, domain and
    /// path; an expired cookie removes that one and is not stored.
    public mutating func insert(_ cookie: Cookie, at date: Date = Date()) {
        let index = cookies.firstIndex { $0.isSameSlot(as: cookie) }
        if cookie.isExpired(at: date) || cookie.name.isEmpty {
            if let index { cookies.remove(at: index) }
            return
        }
        if let index {
            cookies[index] = cookie
            return
        }
        cookies.append(cookie)
        let sameDomain = cookies.indices.filter { cookies[$0].domain == cookie.domain }
        if sameDomain.count > Self.maximumCookiesPerDomain || cookies.count > Self.maximumCookies {
            removeExpired(at: date)
        }
        if let oldest = cookies.firstIndex(where: { $0.domain == cookie.domain }),
           cookies.lazy.filter({ $0.domain == cookie.domain }).count > Self.maximumCookiesPerDomain {
            cookies.remove(at: oldest)
        }
        if cookies.count > Self.maximumCookies { cookies.removeFirst() }
    }

    /// Takes the cookie a `Set-Cookie` field of a response to `url` sets
    /// (``Cookie/init(setCookie:from:at:)``) and returns it, or `nil` when
    /// the field is ignored. A response over `http` cannot replace a
    /// `Secure` cookie (RFC 6265bis, section 5.6, step 16).
    @discardableResult
    public mutating func receive(setCookie: String, from url: URL, at date: Date = Date()) -> Cookie? {
        guard let cookie = Cookie(setCookie: setCookie, from: url, at: date), let target = CookieTarget(url) else { return nil }
        if !target.isSecure, cookies.contains(where: { old in
            old.isSecure && old.name == cookie.name
                && (CookieDomain.domainMatches(old.domain, cookie.domain) || CookieDomain.domainMatches(cookie.domain, old.domain))
                && CookiePath.pathMatches(cookie.path, old.path)
        }) {
            return nil
        }
        insert(cookie, at: date)
        return cookie
    }

    /// The cookies a request to `url` gets at `date`, in the order RFC 6265
    /// section 5.4 gives them: longer paths first, then older first.
    public func cookies(for url: URL, at date: Date = Date()) -> [Cookie] {
        cookies.enumerated()
            .filter { $0.element.isSent(to: url, at: date) }
            .sorted { a, b in
                let (pathA, pathB) = (a.element.path.utf8.count, b.element.path.utf8.count)
                return pathA != pathB ? pathA > pathB : a.offset < b.offset
            }
            .map(\.element)
    }

    /// The `Cookie` field's value for a request to `url` at `date`
    /// (`a=1; b=2`), or `nil` when no cookie is sent there.
    public func cookieField(for url: URL, at date: Date = Date()) -> String? {
        let pairs = cookies(for: url, at: date).map(\.pair)
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// Removes the cookies expired at `date`.
    public mutating func removeExpired(at date: Date = Date()) {
        cookies.removeAll { $0.isExpired(at: date) }
    }

    /// Removes the session cookies (those without an expiry), as a browser
    /// does when it ends and curl's `--junk-session-cookies` does.
    public mutating func removeSessionCookies() {
        cookies.removeAll { $0.expires == nil }
    }
}
