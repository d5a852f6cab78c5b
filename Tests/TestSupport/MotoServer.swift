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
/// `endpoint/bucket/key`.
public final class MotoServer: Sendable {
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
    }

    /// `http://127.0.0.1:<port>`, the endpoint to send S3 requests to.
    public let endpoint: URL
    /// The region to sign for: `us-east-1`.
    public let region: String
    /// An IAM user's long-term key, allowed `s3:*`.
    public let credentials: Credentials
    /// Temporary credentials (with a session token) of a role allowed `s3:*`.
    public let sessionCredentials: Credentials
    private let process: ServerProcess

    private init(process: ServerProcess, announcement: Announcement) {
        self.process = process
        endpoint = process.url(path: "")
        region = announcement.region
        credentials = announcement.user
        sessionCredentials = announcement.session
    }

    /// Starts the server on a free port of 127.0.0.1 and waits until it answers
    /// with authentication on (moto takes a few seconds to import).
    public static func start() async throws -> MotoServer {
        let python = try await TestPython.withServerPackages()
        let process = try await ServerProcess.start(
            name: "s3-server",
            executable: python,
            arguments: [TestPackage.serverScript("s3_server.py").path]
        )
        do {
            let line = try await process.readLine()
            let announcement = try JSONDecoder().decode(Announcement.self, from: Data(line.utf8))
            return MotoServer(process: process, announcement: announcement)
        } catch {
            process.stop()
            throw error
        }
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `endpoint` followed by `path` (path-style: `/bucket/key`, already percent-encoded).
    public func url(path: String) -> URL { process.url(path: path) }

    /// Stops the server (everything it stored is in its memory, so it goes too).
    public func stop() {
        process.stop()
    }
}
