public import AsyncHTTPClient
public import NIOCore
public import RequestBuilder

extension AsyncHTTPClientTransport {
    /// Creates a transport that verifies servers, presents a client
    /// certificate and goes through proxies as the settings say, with no
    /// NIO code of yours; redirects are not followed by the client.
    ///
    /// ```swift
    /// var tls = TLSSettings.fromEnvironment()
    /// tls.trustRoots = .pemFile("ca.pem")
    /// let transport = try AsyncHTTPClientTransport(tls: tls, proxies: try .fromEnvironment())
    /// defer { Task { try await transport.shutdown() } }
    /// ```
    ///
    /// The transport owns its clients (one direct, one per proxy): call
    /// ``shutdown()`` when done with it, to wait until their connections are
    /// closed. A transport released without it starts closing them itself.
    ///
    /// - Parameters:
    ///   - tls: Trust roots, verification and client identity.
    ///   - proxies: The proxies and the hosts that bypass them; none by default.
    ///   - connectTimeout: How long connecting (to the target or the proxy) may take.
    ///   - chunkSize: How many body bytes to read and write at a time.
    ///   - eventLoopGroup: The event loops the clients' connections run on;
    ///     by default NIO's shared group, a loop per core. A group of one
    ///     loop suits a process that sends a few requests at a time: each
    ///     body chunk then waits for one loop, not one per core.
    /// - Throws: `RequestError` (code `invalidRequest`) naming
    ///   a file of the settings that cannot be read, an encrypted key, or a key
    ///   that does not match its certificate.
    public init(
        tls: TLSSettings,
        proxies: ProxySettings = .direct,
        connectTimeout: Duration = .seconds(10),
        chunkSize: Int = 512 * 1024,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup
    ) throws {
        let routes = try ClientRoutes(tls: tls, proxies: proxies, connectTimeout: connectTimeout, eventLoopGroup: eventLoopGroup)
        self.init(client: routes.direct, chunkSize: chunkSize)
        self.routes = routes
    }

    /// Shuts down the clients a transport made from settings owns
    /// (``init(tls:proxies:connectTimeout:chunkSize:eventLoopGroup:)``); for a transport made
    /// with ``init(client:chunkSize:)`` it does nothing: the client is yours.
    public func shutdown() async throws {
        try await routes?.shutdown()
    }
}
