import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

@Suite("Conditional requests against the test server: 304 answered from the kept ETag and body")
struct ConditionalRequestTests {
    static let etag = #""v1""#
    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    static func get(_ server: TestHTTPServer, path: String = "/doc", _ fields: [(String, String)] = []) throws -> PreparedRequest {
        try fields.reduce(HTTPRequestBuilder(.get, server.url(path: path))) { $0.header($1.0, $1.1) }.build()
    }

    static func client(_ cache: InMemoryResponseCache = .inMemory(), maximumBodySize: Int = 1024) -> RequestClient {
        RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [.conditionalRequests(cache: cache, maximumBodySize: maximumBodySize)]
        )
    }

    @Test("A second GET carries If-None-Match; the server's 304 reaches the caller as the stored 200 and body")
    func notModifiedIsAnsweredFromTheCache() async throws {
        // Each answer names its attempt, so the test sees the 304's fields merged in.
        let resource = TestHTTPServer.Script.conditional(etag: Self.etag, body: "hello")
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { request, index in
            var reply = resource.reply(request, index)
            reply.headers.append((name: "X-Attempt", value: "\(index + 1)"))
            return reply
        })
        let client = Self.client()

        let first = try await client.send(Self.get(server))
        let second = try await client.send(Self.get(server))
        try await server.stop()

        #expect(first.status == .ok && String(decoding: first.body, as: UTF8.self) == "hello")
        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, Self.etag])
        #expect(second.status == .ok)
        #expect(String(decoding: second.body, as: UTF8.self) == "hello")
        #expect(second.headerFields[HTTPField.Name("X-Attempt")!] == "2")
        #expect(second.headerFields[.contentLength] == "5")
    }

    @Test("Last-Modified is sent back as If-Modified-Since and its 304 is answered too")
    func lastModifiedIsSentBackAsIfModifiedSince() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: nil, lastModified: Self.lastModified, body: "dated"))
        let client = Self.client()

        _ = try await client.send(Self.get(server))
        let second = try await client.send(Self.get(server))
        try await server.stop()

        #expect(server.requests.map { $0.header("If-Modified-Since") } == [nil, Self.lastModified])
        #expect(String(decoding: second.body, as: UTF8.self) == "dated")
    }

    @Test("A changed resource replaces the stored body, and its new ETag is the one sent next")
    func changedResourceReplacesTheStoredOne() async throws {
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            request.header("If-None-Match") == #""v2""#
                ? .status(304, headers: [("ETag", #""v2""#)])
                : .status(200, headers: [("ETag", request.header("If-None-Match") == nil ? Self.etag : #""v2""#)], body: "version \(request.header("If-None-Match") == nil ? 1 : 2)")
        })
        let client = Self.client()

        var bodies: [String] = []
        for _ in 0..<3 { bodies.append(String(decoding: try await client.send(Self.get(server)).body, as: UTF8.self)) }
        try await server.stop()

        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, Self.etag, #""v2""#])
        #expect(bodies == ["version 1", "version 2", "version 2"])
    }

    @Test("Responses that must not be kept are not: no-store, Vary: *, a body over the limit, no validator")
    func unstorableResponsesAreNotKept() async throws {
        let cases: [(headers: [(name: String, value: String)], etag: String?, body: String)] = [
            ([("Cache-Control", "private, no-store")], Self.etag, "secret"),
            ([("Vary", "*")], Self.etag, "varies"),
            ([], Self.etag, String(repeating: "x", count: 2000)),
            ([], nil, "no validator"),
        ]
        for entry in cases {
            let server = try await TestHTTPServer.start(script: .conditional(etag: entry.etag, body: entry.body, headers: entry.headers))
            let cache = InMemoryResponseCache()
            let client = Self.client(cache)
            _ = try await client.send(Self.get(server))
            _ = try await client.send(Self.get(server))
            try await server.stop()
            #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil], "\(entry.headers) \(entry.body.count)")
            #expect(await cache.count == 0)
        }
    }

    @Test("A request with Cache-Control: no-store is passed on and nothing is kept")
    func noStoreRequestIsNotKept() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: Self.etag, body: "hello"))
        let cache = InMemoryResponseCache()
        let client = Self.client(cache)
        _ = try await client.send(Self.get(server, [("Cache-Control", "no-store")]))
        try await server.stop()
        #expect(await cache.count == 0)
    }

    @Test("A response that varies on Accept-Language is reused only for the same Accept-Language")
    func varyIsHonoured() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: Self.etag, body: "hello", headers: [("Vary", "Accept-Language")]))
        let client = Self.client()

        _ = try await client.send(Self.get(server, [("Accept-Language", "en")]))
        _ = try await client.send(Self.get(server, [("Accept-Language", "fr")]))
        _ = try await client.send(Self.get(server, [("Accept-Language", "fr")]))
        try await server.stop()

        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil, Self.etag])
    }

    @Test("A successful POST to the URL removes what was kept for it; POST itself is never kept")
    func unsafeMethodInvalidates() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: Self.etag, body: "hello"))
        let cache = InMemoryResponseCache()
        let client = Self.client(cache)

        _ = try await client.send(Self.get(server))
        #expect(await cache.count == 1)
        _ = try await client.send(HTTPRequestBuilder(.post, server.url(path: "/doc")).data(Data("new".utf8)).build())
        #expect(await cache.count == 0)
        _ = try await client.send(Self.get(server))
        try await server.stop()

        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil, nil])
    }

    @Test("A caller-supplied store receives the response and serves it to another client")
    func callerSuppliedStoreIsUsed() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: Self.etag, body: "shared"))
        let store = DictionaryStore()
        let key = ResponseCacheKey(method: .get, url: server.url(path: "/doc").absoluteString)
        let middleware: [any RequestMiddleware] = [.conditionalRequests(cache: store)]

        _ = try await RequestClient(transport: AsyncHTTPClientTransport(), middleware: middleware).send(Self.get(server))
        let kept = await store.cachedResponse(for: key)
        let again = try await RequestClient(transport: AsyncHTTPClientTransport(), middleware: middleware).send(Self.get(server))
        try await server.stop()

        #expect(kept?.etag == Self.etag)
        #expect(String(decoding: kept?.response.body ?? Data(), as: UTF8.self) == "shared")
        #expect(server.requests.last?.header("If-None-Match") == Self.etag)
        #expect(String(decoding: again.body, as: UTF8.self) == "shared")
    }

    @Test("A 304 to the caller's own If-None-Match is the answer, not an error; to a plain GET it is one")
    func ownConditionalRequestAccepts304() async throws {
        let server = try await TestHTTPServer.start(script: .conditional(etag: Self.etag, body: "hello"))
        let client = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.validateStatus, .conditionalRequests()])
        let conditional = try await client.send(Self.get(server, [("If-None-Match", Self.etag)]))
        try await server.stop()
        #expect(conditional.status == .notModified)
        #expect(conditional.body.isEmpty)

        let plain = try await TestHTTPServer.start(script: .sequence([.status(304)]))
        let error = await #expect(throws: RequestError.self) {
            try await RequestClient(transport: AsyncHTTPClientTransport()).send(Self.get(plain))
        }
        try await plain.stop()
        #expect(error?.code == .unacceptableStatus)
    }
}

/// A store as a user might write one (a persistent one would look alike):
/// an actor over a dictionary, with no bounds.
private actor DictionaryStore: ResponseCache {
    private var entries: [ResponseCacheKey: CachedResponse] = [:]

    func cachedResponse(for key: ResponseCacheKey) -> CachedResponse? { entries[key] }
    func storeCachedResponse(_ response: CachedResponse, for key: ResponseCacheKey) { entries[key] = response }
    func removeCachedResponse(for key: ResponseCacheKey) { entries[key] = nil }
}
