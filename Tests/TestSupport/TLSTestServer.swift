public import Foundation

/// The HTTPS server of `Tests/Servers/tls_server.py` as a child process on
/// 127.0.0.1, with a private CA it makes at start: its files (the CA, a
/// client certificate and keys) are in ``folder``; every request it got is a
/// line of ``requests()``.
public final class TLSTestServer: Sendable {
    /// What the server's certificate is.
    public enum Mode: String, Sendable {
        /// Issued by the private CA for 127.0.0.1.
        case ok
        /// Issued by the private CA for `wrong.example` only.
        case wrongName = "wrong-name"
        /// Issued by the private CA for 127.0.0.1, expired yesterday.
        case expired
        /// As `ok`, and a client certificate from the CA is required.
        case clientCertificate = "client-cert"
    }

    /// A request as the server recorded it.
    public struct Received: Decodable, Sendable, Equatable {
        /// Its method.
        public let method: String
        /// Its path.
        public let path: String
        /// How many body bytes arrived.
        public let bytes: Int
        /// The client certificate's common name, if one was presented.
        public let client: String?

        /// A request as a test expects it.
        public init(method: String, path: String, bytes: Int, client: String?) {
            self.method = method
            self.path = path
            self.bytes = bytes
            self.client = client
        }
    }

    /// The folder with `ca.pem`, `client.pem`, `client-key.pem`,
    /// `client-combined.pem`, `client-key-encrypted.pem` and `other-key.pem`.
    public let folder: URL
    private let process: ServerProcess

    private init(folder: URL, process: ServerProcess) {
        self.folder = folder
        self.process = process
    }

    /// Starts a server whose certificate is as `mode` says.
    public static func start(mode: Mode = .ok) async throws -> TLSTestServer {
        let python = try await TestPython.withServerPackages()
        let folder = FileManager.default.temporaryDirectory.appending(path: "tls-server-\(UUID().uuidString)")
        let process = try await ServerProcess.start(
            name: "tls-server",
            executable: python,
            arguments: [TestPackage.serverScript("tls_server.py").path, folder.path, "--mode", mode.rawValue, "--exit-on-stdin-eof"],
            removingOnStop: folder
        )
        return TLSTestServer(folder: folder, process: process)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `https://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL {
        URL(string: "https://127.0.0.1:\(port)\(path)")!
    }

    /// The path of one of its files, such as `ca.pem`.
    public func file(_ name: String) -> String { folder.appending(path: name).path }

    /// A folder holding the CA as an OpenSSL hashed directory (made by
    /// `openssl rehash`), as `SSL_CERT_DIR` names one: a certificate is
    /// found there by its subject's hash, not by reading every file.
    public func hashedCADirectory() throws -> String {
        let directory = folder.appending(path: "hashed-ca")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file("ca.pem"), toPath: directory.appending(path: "ca.pem").path)
        let rehash = Process()
        rehash.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        rehash.arguments = ["rehash", directory.path]
        try rehash.run()
        rehash.waitUntilExit()
        let links = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".0") }
        guard rehash.terminationStatus == 0, links.count == 1 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl rehash \(directory.path) made \(links)"])
        }
        return directory.path
    }

    /// The requests that reached it, in order.
    public func requests() throws -> [Received] {
        let log = folder.appending(path: "requests.log")
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(decoding: Data(contentsOf: log), as: UTF8.self)
            .split(separator: "\n")
            .map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    /// Stops it and removes its folder.
    public func stop() { process.stop() }
}
