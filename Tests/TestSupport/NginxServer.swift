public import Foundation

/// nginx, as Debian installs it, as a child process on 127.0.0.1
/// (`Tests/Servers/nginx_server.py`): TLS from a private CA made at start,
/// with HTTP/2, on ``port``, plain HTTP/1.1 on ``plainPort``; WebDAV `PUT`
/// under `/dav/`, `client_max_body_size 1m` under `/small/`, and
/// `auth_basic` under `/private/`. A machine without nginx fails the test
/// that needs it, saying so.
public final class NginxServer: Sendable {
    /// One line of nginx's access log.
    public struct LoggedRequest: Sendable, Equatable {
        /// `PUT /dav/a.bin`.
        public var request: String
        /// `HTTP/1.1` or `HTTP/2.0`.
        public var version: String
        public var status: Int
        /// The bytes nginx read of the request, head and body.
        public var length: Int64
        /// The `Expect` field the request had, or `nil`.
        public var expect: String?
    }

    private let process: ServerProcess
    private let folder: URL
    /// The plain HTTP/1.1 port.
    public let plainPort: Int

    private init(process: ServerProcess, folder: URL, plainPort: Int) {
        self.process = process
        self.folder = folder
        self.plainPort = plainPort
    }

    /// Starts nginx.
    public static func start() async throws -> NginxServer {
        let folder = FileManager.default.temporaryDirectory.appending(path: "nginx-\(UUID().uuidString)")
        let python = TestPython.any()
        let process = try await ServerProcess.start(
            name: "nginx",
            executable: python.executable,
            arguments: python.arguments + [TestPackage.serverScript("nginx_server.py").path, folder.path],
            removingOnStop: folder,
            timeout: .seconds(90)
        )
        let plain = (try? String(decoding: Data(contentsOf: folder.appending(path: "plain-port")), as: UTF8.self)).flatMap { Int($0) }
        guard let plain else {
            process.stop()
            throw TestHTTPServerError(description: "nginx_server.py wrote no plain-port file in \(folder.path)")
        }
        return NginxServer(process: process, folder: folder, plainPort: plain)
    }

    /// The TLS (HTTP/2) port.
    public var port: Int { process.port }

    /// The private CA's certificate.
    public var caFile: String { folder.appending(path: "ca.pem").path }

    /// `https://127.0.0.1:<port><path>`.
    public func url(path: String) -> URL {
        URL(string: "https://127.0.0.1:\(port)\(path)") ?? URL(filePath: "/")
    }

    /// `http://127.0.0.1:<plainPort><path>`.
    public func plainURL(path: String) -> URL {
        URL(string: "http://127.0.0.1:\(plainPort)\(path)") ?? URL(filePath: "/")
    }

    /// The size of the file a `PUT /dav/NAME` stored, if any.
    public func storedSize(_ name: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: folder.appending(path: "dav/\(name)").path)[.size] as? NSNumber)?.int64Value
    }

    /// The access log, once it has at least `count` lines (nginx writes a
    /// line when a request ends) or `TestTime.liveness` has passed.
    public func accessLog(atLeast count: Int) async throws -> [LoggedRequest] {
        let deadline = ContinuousClock.now + TestTime.liveness
        while true {
            let text = (try? Data(contentsOf: folder.appending(path: "access.log"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let lines = text.split(separator: "\n").compactMap(Self.parse)
            if lines.count >= count || ContinuousClock.now > deadline { return lines }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `PUT /dav/a.bin HTTP/1.1 201 request_length=3000135 expect="100-continue"`.
    private static func parse(_ line: Substring) -> LoggedRequest? {
        let words = line.split(separator: " ")
        guard words.count >= 6, let status = Int(words[3]),
              let length = words[4].split(separator: "=").last.flatMap({ Int64($0) }) else { return nil }
        let expect = words[5].dropFirst("expect=\"".count).dropLast()
        return LoggedRequest(request: "\(words[0]) \(words[1])", version: String(words[2]), status: status, length: length, expect: expect == "-" ? nil : String(expect))
    }

    /// Stops it and removes its folder.
    public func stop() {
        process.stop()
    }
}
