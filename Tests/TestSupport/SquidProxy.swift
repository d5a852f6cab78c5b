import Foundation

/// squid, as Debian installs it, with its stock configuration (plus one
/// `http_access allow` line for 127.0.0.1, and `auth_param basic` when
/// credentials are given), as a child process on 127.0.0.1
/// (`Tests/Servers/squid_proxy.py`). Stock squid refuses `CONNECT` to any
/// port but 443, as most installed proxies do. A machine without squid
/// fails the test that needs it, saying so.
public final class SquidProxy: Sendable {
    private let process: ServerProcess
    private let folder: URL

    private init(process: ServerProcess, folder: URL) {
        self.process = process
        self.folder = folder
    }

    /// Starts squid; with `credentials` (`user:pass`) it answers 407 to
    /// requests without them.
    public static func start(credentials: String? = nil) async throws -> SquidProxy {
        let folder = FileManager.default.temporaryDirectory.appending(path: "squid-\(UUID().uuidString)")
        let python = TestPython.any()
        let process = try await ServerProcess.start(
            name: "squid",
            executable: python.executable,
            arguments: python.arguments + [TestPackage.serverScript("squid_proxy.py").path, folder.path]
                + (credentials.map { ["--basic-auth", $0] } ?? []),
            removingOnStop: folder,
            timeout: .seconds(90)
        )
        return SquidProxy(process: process, folder: folder)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// The access log's lines for requests (`… TCP_MISS/200 … POST
    /// http://127.0.0.1:PORT/up? …`: squid's stock configuration logs a URL
    /// without its query), once it has at least `count` of them or
    /// `TestTime.liveness` has passed. The line for the start-up probe's
    /// connection, which sent nothing, is left out.
    public func accessLog(atLeast count: Int) async throws -> [String] {
        let deadline = ContinuousClock.now + TestTime.liveness
        let file = folder.appending(path: "access.log")
        while true {
            let lines = ((try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n").map(String.init).filter { !$0.contains("error:transaction-end-before-headers") }
            if lines.count >= count || ContinuousClock.now > deadline { return lines }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops it and removes its folder.
    public func stop() {
        process.stop()
    }
}
