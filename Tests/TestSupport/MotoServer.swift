public import Foundation

/// An S3-compatible server for the tests of issue #14: moto
/// (`Tests/Servers/s3_server.py`) as a child process on 127.0.0.1, with
/// signatures checked as S3 checks them. Its Python packages come from
/// `TestPython`, which installs them on first use.
///
/// moto checks no signature in its default mode, so a test would pass with
/// any: the script turns its authentication on once it has made the IAM user
/// and role whose credentials `credentials` and `sessionCredentials` hold,
/// and checks presigned URLs, POST policies, payload hashes and aws-chunked
/// chunk signatures too (its docstring says how). Buckets are path-style:
/// `endpoint/bucket/key`. The same buckets answer over HTTPS at
/// ``tlsEndpoint``, with a certificate from a private CA (``caFile``), and
/// ``payloads()`` says how each request's payload came signed.
public final class MotoServer: Sendable {
    /// How a request's payload came signed, as the server recorded it once
    /// its signature had passed.
    public struct Payload: Decodable, Sendable, Equatable {
        /// Its method.
        public let method: String
        /// Its target as sent: path and query.
        public let target: String
        /// Its `x-amz-content-sha256`: a SHA-256 in hex, `UNSIGNED-PAYLOAD`, or a `STREAMING-…` value.
        public let payload: String
        /// Its `x-amz-checksum-crc32`, else `nil`.
        public let crc32: String?
    }

    /// An access key as the server made it.
    public struct Credentials: Decodable, Sendable, Equatable {
        /// The access key ID (`AKIA…` for the user, `ASIA…` for the role's session).
        public let accessKeyID: String
        /// The secret access key.
        public let secretAccessKey: String
        /// The session token of temporary credentials, else `nil`.
        public let sessionToken: String?
    }

    private struct Announcement: Decodable {
        let region: String
        let user: Credentials
        let session: Credentials
        let tlsPort: Int
    }

    /// `http://127.0.0.1:<port>`, the endpoint to send S3 requests to.
    public let endpoint: URL
    /// The region to sign for: `us-east-1`.
    public let region: String
    /// An IAM user's long-term key, allowed `s3:*`.
    public let credentials: Credentials
    /// Temporary credentials (with a session token) of a role allowed `s3:*`.
    public let sessionCredentials: Credentials
    /// `https://127.0.0.1:<port>`: the same server over TLS.
    public let tlsEndpoint: URL
    /// The PEM file of the private CA that issued the HTTPS certificate (for 127.0.0.1).
    public let caFile: String
    private let folder: URL
    private let process: ServerProcess

    private init(process: ServerProcess, folder: URL, announcement: Announcement) {
        self.process = process
        self.folder = folder
        endpoint = process.url(path: "")
        tlsEndpoint = URL(string: "https://127.0.0.1:\(announcement.tlsPort)")!
        caFile = folder.appending(path: "ca.pem").path
        region = announcement.region
        credentials = announcement.user
        sessionCredentials = announcement.session
    }

    /// Starts the server on a free port of 127.0.0.1 and waits until it answers
    /// with authentication on (moto takes a few seconds to import).
    public static func start() async throws -> MotoServer {
        let python = try await TestPython.withServerPackages()
        let folder = FileManager.default.temporaryDirectory.appending(path: "s3-server-\(UUID().uuidString)")
        let process = try await ServerProcess.start(
            name: "s3-server",
            executable: python,
            arguments: [TestPackage.serverScript("s3_server.py").path, "--folder", folder.path],
            removingOnStop: folder
        )
        do {
            let line = try await process.readLine()
            let announcement = try JSONDecoder().decode(Announcement.self, from: Data(line.utf8))
            return MotoServer(process: process, folder: folder, announcement: announcement)
        } catch {
            process.stop()
            throw error
        }
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `endpoint` followed by `path` (path-style: `/bucket/key`, already percent-encoded).
    public func url(path: String) -> URL { process.url(path: path) }

    /// The signed requests that reached it, over HTTP or HTTPS, in order.
    public func payloads() throws -> [Payload] {
        let log = folder.appending(path: "payloads.log")
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(decoding: Data(contentsOf: log), as: UTF8.self)
            .split(separator: "\n")
            .map { try JSONDecoder().decode(Payload.self, from: Data($0.utf8)) }
    }

    /// Stops the server (everything it stored is in its memory, so it goes too).
    public func stop() {
        process.stop()
    }
}
