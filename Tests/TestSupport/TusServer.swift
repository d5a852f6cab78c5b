public import Foundation

/// The tus 1.0 server (`Tests/Servers/tus_server.py`, aiohttp-tus) as a child
/// process on 127.0.0.1. Its Python packages come from `TestPython`, which
/// installs them on first use.
///
/// Uploads are created at `uploadsURL`; `Upload-Metadata` must carry
/// `filename`, and a finished upload is moved to `uploadDirectory/<filename>`.
public final class TusServer: Sendable {
    /// A finished upload as the server hashed it.
    public struct CompletedUpload: Decodable, Sendable {
        /// The file's name in `uploadDirectory`.
        public let file: String
        /// Its size.
        public let bytes: Int64
        /// Its SHA-256, lowercase hex.
        public let sha256: String
    }

    /// Where finished uploads are stored.
    public let uploadDirectory: URL
    private let process: ServerProcess

    private init(uploadDirectory: URL, process: ServerProcess) {
        self.uploadDirectory = uploadDirectory
        self.process = process
    }

    /// Starts the server on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - uploadDirectory: Where uploads go; a new temporary folder, removed by `stop()`, when `nil`.
    ///   - maxChunkBytes: The largest PATCH body accepted (aiohttp-tus reads each
    ///     one whole into memory and answers `413` above this).
    public static func start(uploadDirectory: URL? = nil, maxChunkBytes: Int = 16 * 1024 * 1024) async throws -> TusServer {
        let python = try await TestPython.withServerPackages()
        let folder = uploadDirectory ?? FileManager.default.temporaryDirectory.appending(path: "tus-uploads-\(UUID().uuidString)")
        let process = try await ServerProcess.start(
            name: "tus-server",
            executable: python,
            arguments: [TestPackage.serverScript("tus_server.py").path, folder.path, "--max-chunk-bytes", String(maxChunkBytes), "--exit-on-stdin-eof"],
            removingOnStop: uploadDirectory == nil ? folder : nil
        )
        return TusServer(uploadDirectory: folder, process: process)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL { process.url(path: path) }

    /// Where uploads are created (`POST`).
    public var uploadsURL: URL { url(path: "/uploads") }

    /// The server's summary of a finished upload, or `nil` while it is not finished.
    public func completedUpload(named name: String) throws -> CompletedUpload? {
        let summary = uploadDirectory.appending(path: ".done/\(name).json")
        guard FileManager.default.fileExists(atPath: summary.path) else { return nil }
        return try JSONDecoder().decode(CompletedUpload.self, from: Data(contentsOf: summary))
    }

    /// Stops the server; an upload folder it made is removed.
    public func stop() {
        process.stop()
    }
}
