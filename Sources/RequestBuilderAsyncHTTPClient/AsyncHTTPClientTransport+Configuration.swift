public import AsyncHTTPClient
import NIOCore
import NIOPosix

extension AsyncHTTPClientTransport {
    /// An AsyncHTTPClient configuration fit for this transport; give it to
    /// the `HTTPClient` you pass to ``init(client:chunkSize:)``.
    ///
    /// It differs from AsyncHTTPClient's defaults in six ways:
    /// - redirects are not followed (`redirectConfiguration = .disallow`):
    ///   following them is `RedirectMiddleware`'s decision, the same on every
    ///   transport. A client of your own that follows them answers a
    ///   redirect itself, past the middleware and its rules;
    /// - a response status below 100 fails the request with a protocol error,
    ///   where AsyncHTTPClient alone would trap and end the process;
    /// - over HTTP/1.1, a path whose percent-encoded bytes are not UTF-8
    ///   (`/a%FF`) goes out as built, where AsyncHTTPClient alone would send `/`;
    /// - a refused connection fails at once instead of being tried again
    ///   until the request's deadline (without one, for about 90 seconds);
    ///   whether to try again is `RetryMiddleware`'s decision;
    /// - connecting has its own timeout, separate from the request's;
    /// - over HTTP/1.1, a body sent with `Expect: 100-continue` waits up to
    ///   one second for `100 Continue` or a final answer, and is never sent
    ///   after a final answer of 300 or more, as curl does (AsyncHTTPClient
    ///   alone sends it at once); over HTTP/2 it goes at once, without `Expect`.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.configuration(connectTimeout: .seconds(3))
    /// configuration.httpVersion = .http1Only
    /// let client = HTTPClient(eventLoopGroup: group, configuration: configuration)
    /// ```
    ///
    /// - Parameter connectTimeout: How long connecting to an unreachable host
    ///   may take, 10 seconds by default.
    public static func configuration(connectTimeout: Duration = .seconds(10)) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = TimeAmount(saturating: connectTimeout)
        // Redirects are the request layer's decision (RedirectMiddleware), on every transport.
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.http1_1ConnectionDebugInitializer = { channel in
            ResponseStatusGuard.install(on: channel)
                .flatMap { RequestTargetRewriter.install(on: channel) }
                .flatMap { ContinueWatcher.install(on: channel) }
        }
        configuration.http2StreamChannelDebugInitializer = ContinueWatcher.installOnStream
        return configuration
    }

    /// The client the transport uses unless given another: one for the
    /// process, on NIO's shared event loops, with ``configuration(connectTimeout:)``.
    /// Like `HTTPClient.shared`, it is never shut down.
    public static let sharedClient = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: configuration()
    )
}
