public import Foundation

/// A TCP proxy (`Tests/Servers/fault_proxy.py`) on 127.0.0.1 in front of a
/// server, which cuts connections mid-body, holds them past a budget and
/// counts the bytes it forwards.
///
/// The first `cuts` connections whose client-to-server bytes reach
/// `cutAfter` are cut there (counted per connection, HTTP heads included):
/// the server receives exactly `cutAfter` bytes and an orderly end of
/// stream, the client a reset. Later connections pass untouched.
///
/// With `holdAfter`, the connections together forward at most that many
/// client-to-server bytes; past it every connection holds what it reads
/// (and reads no more) until ``release()``, which cuts the held ones, so the
/// server never receives more than `holdAfter` bytes before the release.
/// An upload of more than `holdAfter` bytes through it cannot finish before
/// the test releases it.
///
/// ```swift
/// let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 64 * 1024, cuts: 3)
/// defer { proxy.stop() }
/// ... send to proxy.url(path: ...) ...
/// #expect(try await proxy.stats().clientToServerBytes <= fileSize + chunkSize)
/// ```
public final class FaultProxy: Sendable {
    /// What the proxy has forwarded so far.
    public struct Stats: Decodable, Sendable {
        /// Connections accepted.
        public let connections: Int
        /// Connections cut.
        public let cuts: Int
        /// Connections stopped by the `holdAfter` budget, released or not.
        public let held: Int
        /// Bytes forwarded from clients to the server, over all connections.
        public let clientToServerBytes: Int64
        /// Bytes forwarded from the server to clients.
        public let serverToClientBytes: Int64
        /// The most connections that had a request in flight at once: sent
        /// bytes the server had not yet begun to answer.
        public let peakRequestsInFlight: Int

        enum CodingKeys: String, CodingKey {
            case connections, cuts, held
            case clientToServerBytes = "client_to_server_bytes"
            case serverToClientBytes = "server_to_client_bytes"
            case peakRequestsInFlight = "peak_requests_in_flight"
        }
    }

    private let process: ServerProcess

    private init(process: ServerProcess) {
        self.process = process
    }

    /// Starts a proxy to `target`'s host and port on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - target: The server (only its host and port are used).
    ///   - cutAfter: Client-to-server bytes per connection before a cut; `nil` cuts nothing.
    ///   - cuts: How many connections to cut before passing everything.
    ///   - holdAfter: Client-to-server bytes, all connections together, before the hold; `nil` holds nothing.
    public static func start(target: URL, cutAfter: Int?, cuts: Int = 1, holdAfter: Int? = nil) async throws -> FaultProxy {
        guard let host = target.host(), let port = target.port else {
            throw TestHTTPServerError(description: "The proxy's target \(target) has no host and port")
        }
        let python = TestPython.any()
        var arguments = python.arguments + [TestPackage.serverScript("fault_proxy.py").path, "--target", "\(host):\(port)", "--exit-on-stdin-eof"]
        if let cutAfter {
            arguments += ["--cut-after", String(cutAfter), "--cuts", String(cuts)]
        }
        if let holdAfter {
            arguments += ["--hold-after", String(holdAfter)]
        }
        let process = try await ServerProcess.start(name: "fault-proxy", executable: python.executable, arguments: arguments)
        return FaultProxy(process: process)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL { process.url(path: path) }

    /// The counts so far (asked for on the proxy's standard input).
    public func stats() async throws -> Stats {
        try await command("stats")
    }

    /// Ends the hold: the held connections are cut (what they held never
    /// reaches the server) and later ones pass untouched. Returns the counts
    /// once the proxy has done so, so a connection made after it is not held.
    @discardableResult
    public func release() async throws -> Stats {
        try await command("release")
    }

    /// Sends one command line; the proxy answers each with the counts.
    private func command(_ line: String) async throws -> Stats {
        try process.send(line: line)
        let answer = try await process.readLine()
        return try JSONDecoder().decode(Stats.self, from: Data(answer.utf8))
    }

    /// Stops the proxy; open connections are dropped.
    public func stop() {
        process.stop()
    }
}
