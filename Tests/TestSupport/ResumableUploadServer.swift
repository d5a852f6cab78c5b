public import Foundation

/// The IETF resumable-upload server (`Tests/Servers/ResumableUploadServer`,
/// swift-nio-extras' `HTTPResumableUploadHandler`) as a child process on
/// 127.0.0.1, for the clients of issue #13.
///
/// Its final response to a completed upload is `200` with
/// `{"bytes":N,"sha256":"…","upload":"upload-<UUID>"}`; the upload's body and
/// `request.json` (method, path, header fields) are in `storage/<upload>/`.
///
/// ```swift
/// let server = try await ResumableUploadServer.start()
/// defer { server.stop() }
/// ... POST to server.url(path: "/files") with Upload-Draft-Interop-Version: 6 ...
/// ```
public final class ResumableUploadServer: Sendable {
    /// The folder completed uploads are stored in.
    public let storage: URL
    private let process: ServerProcess

    private init(storage: URL, process: ServerProcess) {
        self.storage = storage
        self.process = process
    }

    /// Starts the server on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - storage: Where completed uploads go; a new temporary folder, removed by `stop()`, when `nil`.
    ///   - origin: Put before the resumption path in `Location`; empty gives a
    ///     relative reference, which keeps resumptions going through a proxy in front.
    ///   - resumptionTimeout: Seconds an interrupted upload waits to be resumed.
    public static func start(storage: URL? = nil, origin: String = "", resumptionTimeout: Int = 3600) async throws -> ResumableUploadServer {
        let folder = storage ?? FileManager.default.temporaryDirectory.appending(path: "resumable-uploads-\(UUID().uuidString)")
        let executable = try TestPackage.builtExecutable(named: "resumable-upload-server")
        let process = try await ServerProcess.start(
            name: "resumable-upload-server",
            executable: executable.path,
            arguments: [folder.path, "--origin", origin, "--resumption-timeout", String(resumptionTimeout), "--exit-on-stdin-eof"],
            removingOnStop: storage == nil ? folder : nil
        )
        return ResumableUploadServer(storage: folder, process: process)
    }

    /// The port it listens on.
    public var port: Int { process.port }

    /// `http://127.0.0.1:<port><path>`.
    public func url(path: String = "/") -> URL { process.url(path: path) }

    /// Stops the server; a storage folder it made is removed.
    public func stop() {
        process.stop()
    }
}
