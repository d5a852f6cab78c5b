import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// ``CookieMiddleware`` against real servers on 127.0.0.1, with the
/// redirect follower before it, as the documentation places it.
@Suite struct CookieMiddlewareTests {
    static func client(_ store: InMemoryCookieStore) -> RequestClient {
        RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.followingRedirects(), .cookies(store)])
    }

    static func get(_ url: URL, _ fields: [(String, String)] = []) throws -> PreparedRequest {
        try fields.reduce(HTTPRequestBuilder(.get, url)) { $0.header($1.0, $1.1) }.build()
    }

    @Test func aCookieSetByOneResponseIsSentWithTheNextRequest() async throws {
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            request.uri == "/login" ? .status(200, headers: [("Set-Cookie", "sid=31d4; Path=/; HttpOnly"), ("Set-Cookie", "pref=dark; Path=/settings")]) : .status(200)
        })
        let store = InMemoryCookieStore()
        let client = Self.client(store)
        _ = try await client.send(Self.get(server.url(path: "/login")))
        _ = try await client.send(Self.get(server.url(path: "/home")))
        _ = try await client.send(Self.get(server.url(path: "/settings/a"), [("Cookie", "mine=1")]))
        try await server.stop()
        #expect(server.requests.map { $0.header("Cookie") } == [nil, "sid=31d4", "mine=1; pref=dark; sid=31d4"])
        #expect(server.requests[2].headers.filter { $0.name.lowercased() == "cookie" }.count == 1)
        #expect(store.snapshot().cookies.map(\.name) == ["sid", "pref"])
    }

    @Test func aCookieSetByARedirectIsSentOnTheNextHop() async throws {
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            request.uri == "/login" ? .status(302, headers: [("Location", "/home"), ("Set-Cookie", "sid=from-redirect")]) : .status(200)
        })
        _ = try await Self.client(InMemoryCookieStore()).send(Self.get(server.url(path: "/login")))
        try await server.stop()
        #expect(server.requests.map(\.uri) == ["/login", "/home"])
        #expect(server.requests.map { $0.header("Cookie") } == [nil, "sid=from-redirect"])
    }

    /// 127.0.0.1 and localhost are two sites: each hop gets its own
    /// cookies, the first site's never reach the second, the user's own
    /// `Cookie` field is dropped there by the redirect rule.
    @Test func aRedirectToAnotherSiteGetsThatSitesCookiesOnly() async throws {
        let other = try await TestHTTPServer.start()
        let first = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            .status(302, headers: [("Location", "http://localhost:\(other.port)/land"), ("Set-Cookie", "first=1")])
        })
        var jar = CookieJar()
        jar.insert(Cookie(name: "theirs", value: "2", domain: "localhost"))
        jar.insert(Cookie(name: "ours", value: "3", domain: "127.0.0.1"))
        _ = try await Self.client(InMemoryCookieStore(jar)).send(Self.get(first.url(path: "/go"), [("Cookie", "typed=4")]))
        try await first.stop()
        try await other.stop()
        #expect(first.requests.map { $0.header("Cookie") } == ["typed=4; ours=3"])
        #expect(other.requests.map { $0.header("Cookie") } == ["theirs=2"])
    }

    @Test func aSecureCookieIsNotSentOverHTTP() async throws {
        let server = try await TestHTTPServer.start()
        var jar = CookieJar()
        jar.insert(Cookie(name: "secret", value: "1", domain: "127.0.0.1", isSecure: true))
        jar.insert(Cookie(name: "plain", value: "2", domain: "127.0.0.1"))
        _ = try await Self.client(InMemoryCookieStore(jar)).send(Self.get(server.url(path: "/")))
        try await server.stop()
        #expect(server.requests.map { $0.header("Cookie") } == ["plain=2"])
    }

    /// Never called: it compiles the README's cookie snippet.
    static func readmeSnippet(jarFile: URL) async throws {
        // README cookie snippet begins
        let jar = try CookieJar(netscapeFormat: String(contentsOf: jarFile, encoding: .utf8))
        let cookies = InMemoryCookieStore(jar)
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [.followingRedirects(), .cookies(cookies)]
        )
        _ = try await client.send(HTTPRequestBuilder.get("https://example.com/account").build())
        try cookies.snapshot().netscapeFormat.write(to: jarFile, atomically: true, encoding: .utf8)  // curl -b reads it
        // README cookie snippet ends
    }

    @Test func readmeShowsTheCookieSnippetCompiledHere() throws {
        let readme = try ReadmeSnippet.readmeBlock(in: "Sending requests", at: 8)
        #expect(!readme.isEmpty)
        #expect(try ReadmeSnippet.compiled(named: "README cookie snippet", in: #filePath) == readme)
    }
}
