import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// A transport made from settings owns AsyncHTTPClient clients. One its user
/// forgets to shut down (or a `throw` skips the `shutdown()` call) must not
/// take the process down: a debug build of AsyncHTTPClient traps when a
/// running client is released, and a full test run under load crashed so,
/// hiding the failure that had skipped the call.
@Suite struct TransportReleaseTests {
    @Test func aTransportReleasedWithoutShutdownDoesNotTrap() async throws {
        let server = try await TestHTTPServer.start()
        for _ in 0..<3 {
            let transport = try AsyncHTTPClientTransport(
                tls: TLSSettings(),
                proxies: .all(try ProxyServer(url: "http://127.0.0.1:9"))  // a second, proxied client
            )
            let request = try HTTPRequestBuilder.post(server.url(path: "/up").absoluteString)
                .data(Data("hello".utf8)).timeout(.seconds(600)).build()
            let response = try await RequestClient(transport: AsyncHTTPClientTransport(tls: TLSSettings())).send(request)
            #expect(response.status.code == 200)
            withExtendedLifetime(transport) {}
        }
        #expect(server.requests.count == 3)
        try await server.stop()
    }
}
