import AsyncHTTPClient
import Dispatch
import NIOCore
import RequestBuilder

/// The clients of a transport made from TLS and proxy settings: one that
/// connects directly and one per proxy, since AsyncHTTPClient sets its proxy
/// per client and `no_proxy` decides per request.
///
/// AsyncHTTPClient's HTTP proxy opens a `CONNECT` tunnel for every target;
/// an `http://` target's request goes to an HTTP proxy in absolute form
/// instead, as curl sends it (stock squid and tinyproxy refuse `CONNECT` to
/// ports other than 443): the direct client connects to the proxy as if it
/// were the target, and ``RequestTargetRewriter`` writes the absolute URL in
/// the request line.
final class ClientRoutes: Sendable {
    /// Where one request goes.
    struct Route {
        /// The client that sends it.
        var client: HTTPClient
        /// The proxy it goes through, if any.
        var proxy: ProxyServer?
        /// Whether the request goes to `proxy` in absolute form, not through a tunnel.
        var absoluteForm = false
    }

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

    init(tls: TLSSettings, proxies: ProxySettings, connectTimeout: Duration, eventLoopGroup group: any EventLoopGroup) throws {
        var configuration = AsyncHTTPClientTransport.configuration(connectTimeout: connectTimeout)
        let (tlsConfiguration, httpsProblem) = try tls.makeTLSConfiguration()
        configuration.tlsConfiguration = tlsConfiguration
        self.httpsProblem = httpsProblem
        if case .pemFile(let path) = tls.trustRoots, tls.verifiesServer { rootsFile = path } else { rootsFile = nil }
        // Redirects are the request layer's decision, on every transport.
        configuration.redirectConfiguration = .disallow
        direct = HTTPClient(eventLoopGroup: group, configuration: configuration)
        var proxied: [ProxyServer: HTTPClient] = [:]
        // An HTTP proxy for http:// targets only needs no client: they go in absolute form.
        let tunnelled = [proxies.httpProxy.flatMap { $0.kind.isSOCKS ? $0 : nil }, proxies.httpsProxy].compactMap { $0 }
        for proxy in tunnelled where proxied[proxy] == nil {
            var viaProxy = configuration
            if proxy.kind.isSOCKS {
                // AsyncHTTPClient's SOCKS client offers no authentication
                // method but "none": credentials fail the requests (route()).
                viaProxy.proxy = .socksServer(host: proxy.host, port: proxy.port)
            } else {
                viaProxy.proxy = .server(
                    host: proxy.host,
                    port: proxy.port,
                    authorization: proxy.username.map { .basic(username: $0, password: proxy.password ?? "") }
                )
            }
            proxied[proxy] = HTTPClient(eventLoopGroup: group, configuration: viaProxy)
        }
        self.proxied = proxied
        self.proxies = proxies
    }

    /// Where a request to `scheme://host` goes.
    ///
    /// - Throws: `RequestError` (code `invalidRequest`) when the proxy for it
    ///   cannot be used: its variable names no usable proxy, or it is a
    ///   SOCKS proxy with credentials, which AsyncHTTPClient cannot send.
    func route(scheme: String, host: String) throws(RequestError) -> Route {
        guard let proxy = try proxies.route(scheme: scheme, host: host) else { return Route(client: direct) }
        if proxy.kind.isSOCKS, proxy.username != nil {
            throw RequestError.invalidRequest("proxy \(proxy): AsyncHTTPClient's SOCKS5 support sends no credentials; use a SOCKS proxy that needs none, or an http:// proxy")
        }
        if !proxy.kind.isSOCKS, scheme.lowercased() == "http" {
            return Route(client: direct, proxy: proxy, absoluteForm: true)
        }
        guard let client = proxied[proxy] else { return Route(client: direct) }
        return Route(client: client, proxy: proxy)
    }

    /// Starts shutting down the clients of a transport its user never shut
    /// down, as URLSession's do: a debug build of AsyncHTTPClient traps when
    /// a client that is still running is released. A client shutting down
    /// keeps itself alive until it is done; one already shut down only
    /// reports that, which nothing needs to hear. The report comes on a
    /// dispatch queue, not in a promise of the clients' event loops: the
    /// user's group may be shut down by now, and a promise of a loop shut
    /// down is never completed.
    deinit {
        for client in [direct] + Array(proxied.values) {
            client.shutdown(queue: .global()) { _ in }
        }
    }

    /// Shuts every client down.
    func shutdown() async throws {
        try await direct.shutdown()
        for client in proxied.values { try await client.shutdown() }
    }
}
