import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// Requests through a real forward proxy (proxy.py) as issue #27 asks: an
/// `https://` target through a `CONNECT` tunnel, an `http://` target in
/// absolute form, as curl sends it, credentials from the proxy URL, `no_proxy`, and a proxy
/// that cannot be reached named as the proxy. Before, no proxy could be set.
@Suite(.serialized) struct ForwardProxyTests {
    static func upload(_ url: URL, with transport: AsyncHTTPClientTransport) async throws -> Response {
        let request = try HTTPRequestBuilder.post(url.absoluteString).data(Data("hello".utf8)).timeout(.seconds(600)).build()
        return try await RequestClient(transport: transport).send(request)
    }

    /// A port on 127.0.0.1 that refuses connections for the rest of the run.
    static func closedPort() throws -> Int {
        try RefusingPort.heldUntilExit()
    }

    @Test func httpsGoesThroughACONNECTTunnelAndNowhereElse() async throws {
        let proxy = try await ForwardProxy.start()
        defer { proxy.stop() }
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: .all(try ProxyServer(url: "http://127.0.0.1:\(proxy.port)"))
        )
        let response = try await Self.upload(server.url(path: "/up"), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
        #expect(try server.requests() == [.init(method: "POST", path: "/up", bytes: 5, client: nil)])
        // One tunnel, to the target: the only way the request reached it.
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.count == 1 && log.allSatisfy { $0.contains("CONNECT 127.0.0.1:\(server.port)") }, "\(log)")
    }

    @Test func httpGoesThroughTheProxyWithCredentialsFromTheEnvironment() async throws {
        let proxy = try await ForwardProxy.start(credentials: "user:p@ss")
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let environment = ["http_proxy": "http://user:p%40ss@127.0.0.1:\(proxy.port)"]
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(), proxies: try .fromEnvironment(environment))
        let response = try await Self.upload(server.url(path: "/up"), with: transport)
        try await transport.shutdown()
        let requests = server.requests
        try await server.stop()
        #expect(response.status == .ok)
        #expect(requests.count == 1 && requests.first?.bodyByteCount == 5)
        // The proxy forwarded it, in absolute form; the credentials went to the proxy only.
        #expect(requests.first?.header("Proxy-Authorization") == nil)
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.count == 1 && log.allSatisfy { $0.contains("POST 127.0.0.1:\(server.port)/up") }, "\(log)")
    }

    @Test(arguments: [nil, "wrong"] as [String?])
    func aProxyWithoutTheCredentialsItWantsSaysSo(password: String?) async throws {
        let proxy = try await ForwardProxy.start(credentials: "user:secret")
        defer { proxy.stop() }
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: .all(ProxyServer(host: "127.0.0.1", port: proxy.port, username: password.map { _ in "user" }, password: password))
        )
        let error = await TLSTrustTests.failure { try await Self.upload(server.url(), with: transport) }
        try await transport.shutdown()
        if password == nil {
            #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: proxy 127.0.0.1:\(proxy.port) asks for credentials (407 Proxy Authentication Required): give them in the proxy URL (http://user:password@127.0.0.1:\(proxy.port))")
        } else {
            // Credentials were given: the proxy refused them, and asking for
            // them again would send the user looking for the wrong fault.
            #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: proxy 127.0.0.1:\(proxy.port) refused the credentials given for it (407 Proxy Authentication Required): check the user name and password")
        }
        #expect(try server.requests().isEmpty)
    }

    @Test func aProxyThatRefusesIsNamedNotTheTarget() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let port = try Self.closedPort()
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: try .fromEnvironment(["HTTPS_PROXY": "127.0.0.1:\(port)"])
        )
        let error = await TLSTrustTests.failure { try await Self.upload(server.url(), with: transport) }
        try await transport.shutdown()
        #expect(error?.code == .transport)
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: proxy 127.0.0.1:\(port) refused the connection")
        #expect(try server.requests().isEmpty)
    }

    /// A proxy that takes the connection and closes it on `CONNECT`, or
    /// never answers it: the proxy is at fault, and the message says so
    /// rather than blame the target it never reached.
    @Test(arguments: ["closes", "stalls"])
    func aProxyThatFailsTheTunnelIsNamedNotTheTarget(behaviour: String) async throws {
        let proxy = try await RawResponseServer.start { _ in behaviour == "closes" ? .bytes([]) : .stalling([]) }
        // The proxy's handshake is bounded by the connect timeout, shorter
        // here than the request's: a silent proxy is found out before the
        // request as a whole times out.
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(),
            proxies: .all(ProxyServer(host: "127.0.0.1", port: proxy.port)),
            connectTimeout: .seconds(1)
        )
        let client = RequestClient(transport: transport)
        let error = await ErrorRedactionTests.failure {
            _ = try await client.send(try HTTPRequestBuilder.get("https://127.0.0.1:9/up").timeout(.seconds(5)).build())
        }
        try await transport.shutdown()
        let expected = behaviour == "closes"
            ? "GET https://127.0.0.1:9/up: proxy 127.0.0.1:\(proxy.port) closed the connection instead of opening a tunnel to 127.0.0.1:9"
            : "GET https://127.0.0.1:9/up: proxy 127.0.0.1:\(proxy.port) did not answer the request for a tunnel to 127.0.0.1:9"
        #expect(error?.description == expected)
    }

    @Test func noProxyHostsConnectDirectly() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let port = try Self.closedPort()
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: try .fromEnvironment(["https_proxy": "http://127.0.0.1:\(port)", "NO_PROXY": "example.com, 127.0.0.1"])
        )
        let response = try await Self.upload(server.url(), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
    }
}
