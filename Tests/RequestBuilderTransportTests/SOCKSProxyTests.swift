import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// Requests through a SOCKS5 proxy (`socks5://`, `socks5h://`), `http://`
/// and `https://` targets alike, and a SOCKS proxy with credentials, which
/// AsyncHTTPClient cannot send, refused for the requests it would carry.
@Suite(.serialized) struct SOCKSProxyTests {
    @Test func bothSchemesGoThroughASOCKS5ProxyThatResolvesTheName() async throws {
        let proxy = try await SOCKSProxy.start()
        defer { proxy.stop() }
        let plain = try await TestHTTPServer.start()
        let tls = try await TLSTestServer.start()
        defer { tls.stop() }
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(tls.file("ca.pem"))),
            proxies: .all(try ProxyServer(url: "socks5h://127.0.0.1:\(proxy.port)"))
        )
        let http = try await ForwardProxyTests.upload(URL(string: "http://localhost:\(plain.port)/up")!, with: transport)
        let https = try await ForwardProxyTests.upload(tls.url(path: "/up"), with: transport)
        try await transport.shutdown()
        let requests = plain.requests
        try await plain.stop()
        #expect(http.status == .ok && https.status == .ok)
        #expect(requests.count == 1 && requests.first?.uri == "/up")
        #expect(try tls.requests() == [.init(method: "POST", path: "/up", bytes: 5, client: nil)])
        #expect(proxy.connects() == ["CONNECT domain localhost \(plain.port)", "CONNECT ipv4 127.0.0.1 \(tls.port)"])
    }

    @Test func aSOCKSProxyWithCredentialsIsRefusedForTheRequestsItWouldCarry() async throws {
        let proxy = try await SOCKSProxy.start()
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        var settings = try ProxySettings.fromEnvironment(["https_proxy": "socks5://user:secret@127.0.0.1:\(proxy.port)"])
        settings.noProxy = .empty
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(), proxies: settings)
        // http:// has no proxy here: it goes on.
        let response = try await ForwardProxyTests.upload(server.url(path: "/up"), with: transport)
        let error = await #expect(throws: RequestError.self) {
            try await ForwardProxyTests.upload(URL(string: "https://127.0.0.1:\(server.port)/up")!, with: transport)
        }
        try await transport.shutdown()
        try await server.stop()
        #expect(response.status == .ok)
        #expect(error?.description == "proxy socks5://user:***@127.0.0.1:\(proxy.port): AsyncHTTPClient's SOCKS5 support sends no credentials; use a SOCKS proxy that needs none, or an http:// proxy")
        #expect(proxy.connects().isEmpty)
    }
}
