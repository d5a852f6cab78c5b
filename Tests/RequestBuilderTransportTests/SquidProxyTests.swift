import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// Requests through squid as Debian installs it (its stock configuration,
/// which refuses `CONNECT` to any port but 443): an `http://` target goes
/// to the proxy in absolute form, as curl sends it, so it reaches a server
/// on any port; credentials in the proxy URL answer `auth_param basic`.
@Suite(.serialized) struct SquidProxyTests {
    @Test func anHTTPTargetGoesInAbsoluteFormThroughStockSquid() async throws {
        let proxy = try await SquidProxy.start()
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(), proxies: .all(try ProxyServer(url: "http://127.0.0.1:\(proxy.port)")))
        let response = try await ForwardProxyTests.upload(server.url(path: "/up?x=1"), with: transport)
        try await transport.shutdown()
        let requests = server.requests
        try await server.stop()
        #expect(response.status == .ok)
        #expect(requests.count == 1 && requests.first?.uri == "/up?x=1" && requests.first?.bodyByteCount == 5)
        #expect(requests.first?.header("Host") == "127.0.0.1:\(server.port)")
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.count == 1 && log.allSatisfy { $0.contains("/200 ") && $0.contains("POST http://127.0.0.1:\(server.port)/up? ") }, "\(log)")
    }

    @Test func credentialsInTheProxyURLAnswerSquidsBasicAuthentication() async throws {
        let proxy = try await SquidProxy.start(credentials: "user:p@ss")
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let environment = ["http_proxy": "http://user:p%40ss@127.0.0.1:\(proxy.port)"]
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(), proxies: try .fromEnvironment(environment))
        let response = try await ForwardProxyTests.upload(server.url(path: "/up"), with: transport)
        let wrong = try AsyncHTTPClientTransport(tls: TLSSettings(), proxies: .all(ProxyServer(host: "127.0.0.1", port: proxy.port, username: "user", password: "wrong")))
        let refused = try await RequestClient(transport: wrong).send(
            try HTTPRequestBuilder.post(server.url(path: "/up").absoluteString).data(Data("hello".utf8)).acceptingStatus(.any).build()
        )
        try await transport.shutdown()
        try await wrong.shutdown()
        let requests = server.requests
        try await server.stop()
        #expect(response.status == .ok)
        #expect(refused.status.code == 407)
        // Only the request with the right credentials reached the server,
        // and squid kept them to itself.
        #expect(requests.count == 1 && requests.first?.header("Proxy-Authorization") == nil)
    }

    @Test func anHTTPSTargetStillGoesThroughCONNECTWhichStockSquidRefusesOffPort443() async throws {
        let proxy = try await SquidProxy.start()
        defer { proxy.stop() }
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: .all(try ProxyServer(url: "http://127.0.0.1:\(proxy.port)"))
        )
        let error = await TLSTrustTests.failure { try await ForwardProxyTests.upload(server.url(), with: transport) }
        try await transport.shutdown()
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: proxy 127.0.0.1:\(proxy.port) refused to open a tunnel to 127.0.0.1:\(server.port)")
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.contains { $0.contains("TCP_DENIED/403") && $0.contains("CONNECT 127.0.0.1:\(server.port)") }, "\(log)")
    }
}
