import Foundation

/// A SOCKS5 proxy without authentication (`Tests/Servers/socks_proxy.py`,
/// Python's standard library) on 127.0.0.1. Its log has a line per
/// `CONNECT`, saying whether the client sent a name for the proxy to
/// resolve (`CONNECT domain localhost 8080`) or an address.
public final class SOCKSProxy: Sendable {
    private let process: ServerProcess
    private let log: URL

    private init(process: ServerProcess, log: URL) {
        self.process = process
        self.log = log
    }

    /// Starts the proxy.
    public static func start() async throws -> SOCKSProxy {
        let log = FileManager.default.temporaryDirectory.appending(path: "socks-\(UUID().uuidString).log")
        let python = TestPython.any()
        let process = try await ServerProcess.start(
            name: "socks-proxy",
            executable: python.executable,
            arguments: python.arguments + [TestPackage.serverScript("socks_proxy.py").path, log.path]
        )
        return SOCKSProxy(process: process, log: log)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// The `CONNECT` lines so far.
    public func connects() -> [String] {
        ((try? Data(contentsOf: log)).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops it and removes its log.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: log)
    }
}
