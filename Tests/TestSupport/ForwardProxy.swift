import Foundation

/// proxy.py (PyPI), a real forward proxy that tunnels `CONNECT`, as a child
/// process on 127.0.0.1 (`Tests/Servers/forward_proxy.py`). Its access log
/// has one line per request it handled (`CONNECT 127.0.0.1:PORT` for a
/// tunnel), so a test sees what went through it.
public final class ForwardProxy: Sendable {
    private let process: ServerProcess
    private let log: URL

    private init(process: ServerProcess, log: URL) {
        self.process = process
        self.log = log
    }

    /// Starts the proxy; with `credentials` (`user:pass`) it answers 407
    /// to requests without them.
    public static func start(credentials: String? = nil) async throws -> ForwardProxy {
        let python = try await TestPython.withServerPackages()
        let log = FileManager.default.temporaryDirectory.appending(path: "forward-proxy-\(UUID().uuidString).log")
        let process = try await ServerProcess.start(
            name: "forward-proxy",
            executable: python,
            arguments: [TestPackage.serverScript("forward_proxy.py").path, log.path] + (credentials.map { ["--basic-auth", $0] } ?? [])
        )
        return ForwardProxy(process: process, log: log)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// The access log's lines for requests (`... - CONNECT 127.0.0.1:PORT - ...`).
    public func accessLog() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return String(decoding: try Data(contentsOf: log), as: UTF8.self)
            .split(separator: "\n").map(String.init)
            .filter { $0.contains("access_log") }
    }

    /// The access log once it has at least `count` lines: proxy.py writes a
    /// line when a connection ends, after the client has its response. Waits
    /// up to `TestTime.liveness`, then returns what is there.
    public func accessLog(atLeast count: Int) async throws -> [String] {
        let deadline = ContinuousClock.now + TestTime.liveness
        while ContinuousClock.now < deadline {
            let lines = try accessLog()
            if lines.count >= count { return lines }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try accessLog()
    }

    /// Stops it and removes its log.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: log)
    }
}
