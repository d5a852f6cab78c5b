import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import TestSupport
import Testing

/// A request's timeout over a chain of redirects, and a `Location` with
/// escapes in it, on both transports: one clock for every hop, as curl's
/// `--max-time`, and escapes kept, as curl and HTTPie keep them.
@Suite struct RedirectClockTests {
    typealias Kind = TransportIntegrationTests.Kind

    @Test(arguments: Kind.allCases)
    func theTimeoutBoundsEveryHopTogether(kind: Kind) async throws {
        let server = try await TestHTTPServer.start(script: .init { _, index in
            .status(307, headers: [("Location", "/hop\(index + 1)")], delay: .milliseconds(500))
        })
        let request = try HTTPRequestBuilder.post(server.url(path: "/up").absoluteString).data(Data("hello".utf8)).timeout(.seconds(2)).build()
        let started = ContinuousClock.now
        let error = await #expect(throws: RequestError.self) {
            try await RedirectTests.client(kind, maximumRedirects: 30).send(request)
        }
        let elapsed = ContinuousClock.now - started
        let hops = server.requests.count
        try await server.stop()
        #expect(error?.code == .timedOut)
        #expect(error?.description.hasSuffix(": timed out after 2 seconds") == true, "\(String(describing: error))")
        // 0.5 s a hop: at most five fit in 2 s (fewer on a busy machine),
        // where a clock per hop makes all 31 and stops at the redirect limit.
        #expect(hops <= 6, "\(hops) hops in \(elapsed)")
    }

    /// A hop that hangs is cut at what is left of the timeout, not given a
    /// whole timeout of its own.
    @Test(arguments: Kind.allCases)
    func aHangingHopGetsOnlyWhatIsLeft(kind: Kind) async throws {
        let server = try await TestHTTPServer.start(script: .init { request, _ in
            request.uri == "/up"
                ? .status(307, headers: [("Location", "/hang")], delay: .seconds(2))
                : .status(200, delay: .seconds(30))
        })
        let request = try HTTPRequestBuilder.post(server.url(path: "/up").absoluteString).data(Data("hello".utf8)).timeout(.seconds(3)).build()
        let started = ContinuousClock.now
        let error = await #expect(throws: RequestError.self) {
            try await RedirectTests.client(kind).send(request)
        }
        let elapsed = ContinuousClock.now - started
        try await server.stop()
        #expect(error?.code == .timedOut)
        // The hop's own error names the limit it was given: what was left
        // (about 1 s), never a whole 3 s. (With no time left at all the hop
        // is not sent, and the middleware's error has no hop error in it.)
        let hopError = error?.underlying as? RequestError
        #expect(hopError.map { $0.code == .timedOut && !$0.description.hasSuffix("after 3 seconds") } ?? true, "\(String(describing: hopError)) in \(elapsed)")
    }

    @Test(arguments: Kind.allCases)
    func aLocationsEscapesAreKept(kind: Kind) async throws {
        let server = try await RedirectTests.server(["/up": RedirectTests.redirect(302, to: "/a b/%E2%9C%93?q=1%202")])
        let request = try HTTPRequestBuilder.post(server.url(path: "/up").absoluteString).data(Data("hello".utf8)).build()
        let response = try await RedirectTests.client(kind).send(request)
        let uris = server.requests.map(\.uri)
        try await server.stop()
        #expect(response.status == .ok)
        #expect(uris == ["/up", "/a%20b/%E2%9C%93?q=1%202"])
    }
}
