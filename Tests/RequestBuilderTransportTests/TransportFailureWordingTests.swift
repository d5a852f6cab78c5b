import Foundation
import HTTPBody
import RequestBuilder
import TestSupport
import Testing

/// The same failure reads the same whichever transport sent the request:
/// one sentence naming the cause, never a type of NIO or Foundation.
@Suite struct TransportFailureWordingTests {
    typealias Kind = TransportIntegrationTests.Kind

    /// The request's timeout is a guard against a hang, not a speed check:
    /// in a full run, URLSession on Linux (FoundationNetworking) did not hand
    /// over a refused connection or an unknown host within 30 s while the
    /// other suites' transfers kept it busy.
    static func failure(_ url: String, kind: Kind) async -> RequestError? {
        await ErrorRedactionTests.failure {
            _ = try await RequestClient(transport: kind.make()).send(try HTTPRequestBuilder.get(url).timeout(TestTime.liveness).build())
        }
    }

    @Test(arguments: Kind.allCases)
    func aRefusedConnectionNamesTheAddress(kind: Kind) async throws {
        let port = try ForwardProxyTests.closedPort()
        let error = await Self.failure("http://127.0.0.1:\(port)/up", kind: kind)
        #expect(error?.code == .transport)
        #expect(error?.description == "GET http://127.0.0.1:\(port)/up: 127.0.0.1:\(port) refused the connection (no server listens there)")
    }

    /// `.invalid` never resolves (RFC 6761, section 6.4).
    @Test(arguments: Kind.allCases)
    func aNameThatDoesNotResolveSaysSo(kind: Kind) async throws {
        let error = await Self.failure("http://no-such-host.invalid/up", kind: kind)
        #expect(error?.code == .unknownHost)  // never retried: no retry makes the name resolve
        #expect(error?.description == "GET http://no-such-host.invalid/up: the host name no-such-host.invalid does not resolve to an address")
    }

    /// URLSession hands over no reason phrase; the standard one stands in,
    /// with no stray space, so a 404 reads as it does on AsyncHTTPClient.
    @Test(arguments: Kind.allCases)
    func anUnacceptableStatusNamesItsReasonPhrase(kind: Kind) async throws {
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in .status(404) })
        let url = server.url(path: "/gone").absoluteString
        let error = await Self.failure(url, kind: kind)
        try await server.stop()
        #expect(error?.description == "GET \(url): The server answered 404 Not Found, which the request does not accept")
    }
}
