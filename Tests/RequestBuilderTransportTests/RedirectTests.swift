import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import TestSupport
import Testing

/// Redirects through the public API, on both transports, against real
/// servers on 127.0.0.1: the same rules whichever transport sends
/// (RedirectMiddleware), and none followed without it.
@Suite struct RedirectTests {
    typealias Kind = TransportIntegrationTests.Kind

    /// A server that answers each path in `routes` with its reply, and `200`
    /// with body `done` elsewhere.
    static func server(_ routes: [String: TestHTTPServer.Reply]) async throws -> TestHTTPServer {
        try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            routes[request.uri] ?? .status(200, body: "done")
        })
    }

    static func redirect(_ status: Int, to location: String) -> TestHTTPServer.Reply {
        .status(status, headers: [("Location", location)], body: "moved")
    }

    static func client(_ kind: Kind, maximumRedirects: Int = RedirectMiddleware.defaultMaximumRedirects) -> RequestClient {
        RequestClient(transport: kind.make(), middleware: [.followingRedirects(max: maximumRedirects)])
    }

    /// A multipart form with a text field and a file part read from disk.
    static func multipartUpload(to url: URL, file: URL) throws -> HTTPRequestBuilder {
        HTTPRequestBuilder(.post, url).multipart(boundary: try .constant("redirect-test-boundary")) { form in
            form.append("Sunset", name: "title")
            try form.appendFile(at: file, name: "photo")
        }
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "redirect-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    @Test(arguments: Kind.allCases)
    func doesNotFollowWithoutTheMiddleware(kind: Kind) async throws {
        let server = try await Self.server(["/a": Self.redirect(302, to: "/b")])
        let request = try HTTPRequestBuilder(.get, server.url(path: "/a")).acceptingStatus(.any).build()
        let response = try await RequestClient(transport: kind.make()).send(request)
        try await server.stop()
        #expect(response.status.code == 302)
        #expect(response.headerFields[.location] == "/b")
        #expect(server.requests.map(\.uri) == ["/a"])
    }

    @Test(arguments: Kind.allCases)
    func seeOtherContinuesAsGetWithoutTheBody(kind: Kind) async throws {
        let server = try await Self.server(["/up": Self.redirect(303, to: "/result")])
        let request = try HTTPRequestBuilder(.post, server.url(path: "/up")).json(["title": "Sunset"]).build()
        let response = try await Self.client(kind).send(request)
        try await server.stop()
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "done")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].method == "POST" && received[0].body == Array(#"{"title":"Sunset"}"#.utf8))
        #expect(received[1].method == "GET" && received[1].uri == "/result")
        #expect(received[1].bodyByteCount == 0)
        for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] {
            #expect(received[1].header(name) == nil, "\(name) on the GET")
        }
    }

    @Test(arguments: Kind.allCases, [301, 302])
    func movedAfterPostContinuesAsGet(kind: Kind, status: Int) async throws {
        let server = try await Self.server(["/up": Self.redirect(status, to: "/moved")])
        let request = try HTTPRequestBuilder(.post, server.url(path: "/up")).form([("a", "1")]).build()
        _ = try await Self.client(kind).send(request)
        try await server.stop()
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[1].method == "GET" && received[1].uri == "/moved" && received[1].bodyByteCount == 0)
        #expect(received[1].header("Content-Type") == nil)
    }

    @Test(arguments: Kind.allCases, [301, 302])
    func movedAfterPutKeepsTheMethodAndBody(kind: Kind, status: Int) async throws {
        let server = try await Self.server(["/put": Self.redirect(status, to: "/there")])
        let request = try HTTPRequestBuilder(.put, server.url(path: "/put")).data(Data("payload".utf8)).build()
        _ = try await Self.client(kind).send(request)
        try await server.stop()
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[1].method == "PUT" && received[1].body == Array("payload".utf8))
    }

    /// 307 and 308 to another origin: the same method and the same
    /// multipart bytes, file part re-read, on both hops; the credentials
    /// stay with the first origin.
    @Test(arguments: Kind.allCases, [307, 308])
    func repeatsTheSameMultipartBytesAndDropsCredentialsAcrossOrigins(kind: Kind, status: Int) async throws {
        let fileBytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let file = try Self.temporaryFile(fileBytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let other = try await Self.server([:])
        let first = try await Self.server(["/up": Self.redirect(status, to: other.url(path: "/final").absoluteString)])
        let request = try Self.multipartUpload(to: first.url(path: "/up"), file: file)
            .bearer("sekrit-token").header(.cookie, "session=sekrit-cookie").header(.proxyAuthorization, "Basic c2Vrcml0")
            .header("X-Trace", "kept").build()
        let response = try await Self.client(kind).send(request)
        try await first.stop()
        try await other.stop()
        #expect(response.status == .ok)

        let hop1 = try #require(first.requests.first)
        let hop2 = try #require(other.requests.first)
        #expect(first.requests.count == 1 && other.requests.count == 1)
        #expect(hop2.method == "POST" && hop2.uri == "/final")
        let sent = try #require(hop1.body)
        #expect(sent.count > fileBytes.count)
        #expect(hop2.body == sent, "the second hop's body differs from the first's")
        #expect(hop2.header("Content-Type") == hop1.header("Content-Type"))
        #expect(hop1.header("Authorization") == "Bearer sekrit-token" && hop1.header("Cookie") == "session=sekrit-cookie")
        for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
            #expect(hop2.header(name) == nil, "\(name) went to another origin")
        }
        #expect(hop2.header("X-Trace") == "kept")
        #expect(hop2.header("Host") == "127.0.0.1:\(other.port)")
    }

    @Test(arguments: Kind.allCases)
    func sameOriginKeepsCredentials(kind: Kind) async throws {
        let server = try await Self.server(["/a": Self.redirect(307, to: "/b")])
        let request = try HTTPRequestBuilder(.post, server.url(path: "/a")).data(Data("x".utf8))
            .bearer("sekrit-token").header(.cookie, "session=sekrit-cookie").build()
        _ = try await Self.client(kind).send(request)
        try await server.stop()
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[1].uri == "/b" && received[1].body == Array("x".utf8))
        #expect(received[1].header("Authorization") == "Bearer sekrit-token")
        #expect(received[1].header("Cookie") == "session=sekrit-cookie")
    }

    @Test(arguments: Kind.allCases)
    func aStreamBodyCannotFollowATemporaryRedirect(kind: Kind) async throws {
        let server = try await Self.server(["/a": Self.redirect(307, to: "/b")])
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("once".utf8))
            continuation.finish()
        }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/a")).body(.stream(stream)).build()
        let error = await #expect(throws: RequestError.self) { try await Self.client(kind).send(request) }
        try await server.stop()
        #expect(error?.code == .redirect)
        #expect(error?.description == "POST http://127.0.0.1:\(server.port)/a: the server answered 307 Temporary Redirect to http://127.0.0.1:\(server.port)/b, which asks for the body again, but the body is read once (a stream) and cannot be sent again")
        #expect(server.requests.map(\.uri) == ["/a"])
    }

    @Test(arguments: Kind.allCases)
    func aLoopStopsAtTheLimit(kind: Kind) async throws {
        let server = try await Self.server(["/loop": Self.redirect(302, to: "/loop")])
        let request = try HTTPRequestBuilder(.get, server.url(path: "/loop")).build()
        let error = await #expect(throws: RequestError.self) { try await Self.client(kind, maximumRedirects: 3).send(request) }
        try await server.stop()
        #expect(error?.code == .redirect)
        #expect(error?.description.contains("stopped after 3 redirects, the most allowed") == true, "\(String(describing: error))")
        #expect(server.requests.count == 4)
    }

    @Test(arguments: Kind.allCases, ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)"])
    func refusesALocationThatIsNotHTTP(kind: Kind, location: String) async throws {
        let server = try await Self.server(["/a": Self.redirect(302, to: location)])
        let request = try HTTPRequestBuilder(.get, server.url(path: "/a")).build()
        let error = await #expect(throws: RequestError.self) { try await Self.client(kind).send(request) }
        try await server.stop()
        #expect(error?.code == .redirect)
        #expect(error?.description == "GET http://127.0.0.1:\(server.port)/a: the server answered 302 Found with Location \(location.debugDescription), which is not an http or https URL; not followed")
        #expect(server.requests.count == 1)
    }

    @Test(arguments: Kind.allCases)
    func refusesARedirectWithoutLocation(kind: Kind) async throws {
        let server = try await Self.server(["/a": .status(307, body: "nowhere")])
        let request = try HTTPRequestBuilder(.get, server.url(path: "/a")).build()
        let error = await #expect(throws: RequestError.self) { try await Self.client(kind).send(request) }
        try await server.stop()
        #expect(error?.description == "GET http://127.0.0.1:\(server.port)/a: the server answered 307 Temporary Redirect without a Location to follow")
    }

    @Test(arguments: Kind.allCases)
    func resolvesARelativeLocationAgainstTheCurrentURL(kind: Kind) async throws {
        let server = try await Self.server(["/dir/sub/a": Self.redirect(301, to: "../b?x=1")])
        let request = try HTTPRequestBuilder(.get, server.url(path: "/dir/sub/a")).build()
        let response = try await Self.client(kind).send(request)
        try await server.stop()
        #expect(response.status == .ok)
        #expect(server.requests.map(\.uri) == ["/dir/sub/a", "/dir/b?x=1"])
    }
}
