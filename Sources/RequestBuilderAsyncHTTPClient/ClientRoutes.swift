import AsyncHTTPClient
import NIOCore
import NIOPosix
import RequestBuilder

/// The clients of a transport made from TLS and proxy settings: one that
/// connects directly and one per proxy, since AsyncHTTPClient sets its proxy
/// per client and `no_proxy` decides per request.
final class ClientRoutes: Sendable {
    let direct: HTTPClient
    private let proxied: [ProxyServer: HTTPClient]
    let proxies: ProxySettings
    /// The error every `https://` request gets instead of being sent, when
    /// the trust roots OpenSSL's locations name cannot be used.
    let httpsProblem: RequestError?
    /// The file of the only roots trusted, when the settings name one
    /// (``TLSSettings/TrustRoots/pemFile(_:)``): a certificate it does not
    /// vouch for is reported against that file.
    let rootsFile: String?

    init(tls: TLSSettings, proxies: ProxySettings, connectTimeout: Duration) throws {
        var configuration = AsyncHTTPClientTransport.configuration(connectTimeout: connectTimeout)
        let (tlsConfiguration, httpsProblem) = try tls.makeTLSConfiguration()
        configuration.tlsConfiguration = tlsConfiguration
        self.httpsProblem = httpsProblem
        if case .pemFile(let path) = tls.trustRoots, tls.verifiesServer { rootsFile = path } else { rootsFile = nil }
        // Redirects are the request layer's decision, on every transport.
        configuration.redirectConfiguration = .disallow
        let group = MultiThreadedEventLoopGroup.singleton
        direct = HTTPClient(eventLoopGroup: group, configuration: configuration)
        var proxied: [ProxyServer: HTTPClient] = [:]
        for proxy in [proxies.httpProxy, proxies.httpsProxy].compactMap({ $0 }) where proxied[proxy] == nil {
            var viaProxy = configuration
            viaProxy.proxy = .server(
                host: proxy.host,
                port: proxy.port,
                authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") }
            )
            proxied[proxy] = HTTPClient(eventLoopGroup: group, configuration: viaProxy)
        }
        self.proxied = proxied
        self.proxies = proxies
    }

    /// The client for a request to `scheme://host`, and the proxy it goes through.
    func route(scheme: String, host: String) -> (client: HTTPClient, proxy: ProxyServer?) {
        guard let proxy = proxies.proxy(scheme: scheme, host: host), let client = proxied[proxy] else { return (direct, nil) }
        return (client, proxy)
    }

    /// Starts shutting down the clients of a transport its user never shut
    /// down, as URLSession's do: a debug build of AsyncHTTPClient traps when
    /// a client that is still running is released. A client shutting down
    /// keeps itself alive until it is done; one already shut down only
    /// reports that, which nothing needs to hear.
    deinit {
        for client in [direct] + Array(proxied.values) {
            client.shutdown().whenComplete { _ in }
        }
    }

    /// Shuts every client down.
    func shutdown() async throws {
        try await direct.shutdown()
        for client in proxied.values { try await client.shutdown() }
    }
}
