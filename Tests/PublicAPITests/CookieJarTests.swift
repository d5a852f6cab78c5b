import Foundation
import RequestBuilder
import Testing

/// RFC 6265's rules as a ``CookieJar`` keeps them, through the public API,
/// at a fixed time so expiry is reproducible.
@Suite struct CookieJarTests {
    /// 2026-01-01 00:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    static func jar(_ fields: [String], from url: String) throws -> CookieJar {
        var jar = CookieJar()
        for field in fields { jar.receive(setCookie: field, from: try Self.url(url), at: now) }
        return jar
    }

    @Test(arguments: [
        "Sun, 06 Nov 2033 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-33 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 2033",  // asctime
        "Sun, 06-Nov-2033 08:49:37 GMT",  // Netscape's original
        "6 Nov 2033 08:49:37",  // any order RFC 6265 reads
    ])
    func expiresIsReadInEveryDateForm(date: String) throws {
        let cookie = try #require(Cookie(setCookie: "a=1; Expires=\(date)", from: Self.url("http://example.com/"), at: Self.now))
        #expect(cookie.expires == Date(timeIntervalSince1970: 2_014_879_777))
    }

    @Test func anUnreadableExpiresIsIgnoredAndMaxAgeWinsOverExpires() throws {
        let session = try #require(Cookie(setCookie: "a=1; Expires=next tuesday", from: Self.url("http://example.com/"), at: Self.now))
        #expect(session.expires == nil)
        let aged = try #require(Cookie(setCookie: "a=1; Max-Age=60; Expires=Sun, 06 Nov 2033 08:49:37 GMT", from: Self.url("http://example.com/"), at: Self.now))
        #expect(aged.expires == Self.now.addingTimeInterval(60))
    }

    @Test(arguments: ["a=gone; Max-Age=0", "a=gone; Max-Age=-5", "a=gone; Expires=Thu, 01 Jan 2015 00:00:00 GMT"])
    func anExpiredCookieDeletesTheOneItReplaces(deleting: String) throws {
        var jar = try Self.jar(["a=1", "b=2"], from: "http://example.com/")
        jar.receive(setCookie: deleting, from: try Self.url("http://example.com/"), at: Self.now)
        #expect(jar.cookies.map(\.name) == ["b"])
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now) == "b=2")
    }

    @Test func aCookieExpiresWithTime() throws {
        let jar = try Self.jar(["a=1; Max-Age=60"], from: "http://example.com/")
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now.addingTimeInterval(59)) == "a=1")
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now.addingTimeInterval(60)) == nil)
    }

    @Test func aDomainCookieGoesToTheDomainAndItsHostsAHostOnlyCookieToItsHostAlone() throws {
        let jar = try Self.jar(["wide=1; Domain=.Example.com", "narrow=2"], from: "http://www.example.com/")
        #expect(jar.cookieField(for: try Self.url("http://www.example.com/"), at: Self.now) == "wide=1; narrow=2")
        #expect(jar.cookieField(for: try Self.url("http://api.example.com/"), at: Self.now) == "wide=1")
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now) == "wide=1")
        #expect(jar.cookieField(for: try Self.url("http://a.www.example.com/"), at: Self.now) == "wide=1")
        #expect(jar.cookieField(for: try Self.url("http://badexample.com/"), at: Self.now) == nil)
        #expect(jar.cookieField(for: try Self.url("http://example.org/"), at: Self.now) == nil)
    }

    @Test(arguments: [
        ("http://www.example.com/", "Domain=other.com"),  // not the host's
        ("http://www.example.com/", "Domain=www.example.com.evil"),
        ("http://example.com/", "Domain=www.example.com"),  // below the host
        ("http://www.example.com/", "Domain=com"),  // a public suffix
        ("http://shop.example.co.uk/", "Domain=co.uk"),
        ("http://127.0.0.1/", "Domain=0.0.1"),  // an IP address takes no domain
        ("http://10.0.0.1/", "Domain=10.0.0.1.example.com"),
    ])
    func aDomainTheHostIsNotUnderOrThatIsPublicIsRefused(url: String, domain: String) throws {
        #expect(Cookie(setCookie: "a=1; \(domain)", from: try Self.url(url), at: Self.now) == nil)
    }

    @Test func aDomainEqualToTheHostMakesAHostOnlyCookieForAPublicSuffixOrAnAddress() throws {
        let local = try #require(Cookie(setCookie: "a=1; Domain=localhost", from: Self.url("http://localhost:8080/"), at: Self.now))
        #expect(local.isHostOnly && local.domain == "localhost")
        let address = try #require(Cookie(setCookie: "a=1; Domain=127.0.0.1", from: Self.url("http://127.0.0.1/"), at: Self.now))
        #expect(address.isHostOnly && address.domain == "127.0.0.1")
    }

    @Test func theDefaultPathIsTheRequestsUpToItsLastSlashAndPathsMatchBySegment() throws {
        let jar = try Self.jar(["a=1", "b=2; Path=/docs/", "c=3; Path=relative"], from: "http://example.com/docs/page?x=/y")
        #expect(jar.cookies.map(\.path) == ["/docs", "/docs/", "/docs"])
        #expect(jar.cookieField(for: try Self.url("http://example.com/docs"), at: Self.now) == "a=1; c=3")
        #expect(jar.cookieField(for: try Self.url("http://example.com/docs/x"), at: Self.now) == "b=2; a=1; c=3")
        #expect(jar.cookieField(for: try Self.url("http://example.com/docsx"), at: Self.now) == nil)
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now) == nil)
        let top = try Self.jar(["t=1"], from: "http://example.com/page")
        #expect(top.cookies.first?.path == "/")
    }

    @Test func longerPathsComeFirstThenOlderCookies() throws {
        let jar = try Self.jar(["old=1; Path=/", "deep=2; Path=/a/b", "young=3; Path=/", "mid=4; Path=/a"], from: "http://example.com/")
        #expect(jar.cookieField(for: try Self.url("http://example.com/a/b/c"), at: Self.now) == "deep=2; mid=4; old=1; young=3")
        // A replaced cookie keeps its place (RFC 6265 keeps its creation time).
        var replaced = jar
        replaced.receive(setCookie: "old=new; Path=/", from: try Self.url("http://example.com/"), at: Self.now)
        #expect(replaced.cookieField(for: try Self.url("http://example.com/"), at: Self.now) == "old=new; young=3")
    }

    @Test func aSecureCookieGoesOverHTTPSOnlyAndOnlyHTTPSSetsOrReplacesOne() throws {
        var jar = try Self.jar(["s=1; Secure", "p=2"], from: "https://example.com/")
        #expect(jar.cookieField(for: try Self.url("https://example.com/"), at: Self.now) == "s=1; p=2")
        #expect(jar.cookieField(for: try Self.url("http://example.com/"), at: Self.now) == "p=2")
        #expect(Cookie(setCookie: "s=2; Secure", from: try Self.url("http://example.com/"), at: Self.now) == nil)
        #expect(jar.receive(setCookie: "s=stolen", from: try Self.url("http://example.com/"), at: Self.now) == nil)
        #expect(jar.cookieField(for: try Self.url("https://example.com/"), at: Self.now) == "s=1; p=2")
    }

    @Test(arguments: ["novalue", "=1", " =1", "a\u{1}b=1", "a=b\u{7F}", "a=" + String(repeating: "x", count: 4100)])
    func aFieldRFC6265SaysToIgnoreIsIgnored(field: String) throws {
        #expect(Cookie(setCookie: field, from: try Self.url("http://example.com/"), at: Self.now) == nil)
    }

    @Test func unknownAttributesAreIgnoredAndFlagsAreRead() throws {
        let cookie = try #require(Cookie(setCookie: " sid = 31d4 ; SameSite=Lax; HttpOnly; Priority=High; secure", from: Self.url("https://example.com/"), at: Self.now))
        #expect(cookie.name == "sid" && cookie.value == "31d4" && cookie.isHTTPOnly && cookie.isSecure && cookie.isHostOnly)
    }

    @Test func aJarIsBoundedPerDomain() throws {
        let jar = try Self.jar((0..<60).map { "c\($0)=\($0)" }, from: "http://example.com/")
        #expect(jar.cookies.count == CookieJar.maximumCookiesPerDomain)
        #expect(jar.cookies.first?.name == "c10")
    }
}
