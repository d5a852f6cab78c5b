#if canImport(FoundationNetworking)
public import Foundation
// This target is the only one that imports FoundationNetworking.
public import FoundationNetworking
#else
public import Foundation
#endif
import HTTPBody
import HTTPTypes
import HTTPTypesFoundation
public import RequestBuilder

/// Sends requests with `URLSession`.
///
/// Bodies never go through `httpBodyStream`. On Linux (swift-corelibs-foundation,
/// Swift 6.3.1) a body stream is unsafe: reading `InputStream.streamError` on
/// Foundation's own streams traps with SIGILL, and a stream that fails to open
/// (say, `InputStream(fileAtPath:)` of a missing file) is sent as an empty
/// body with a `200` in return — the failure is silently lost. So:
///
/// - a body of at most ``inMemoryLimit`` bytes is read into memory and sent
///   with `uploadTask(with:from:)`;
/// - any other body (a large file, a multipart form, a stream, a gzip body)
///   is first written chunk by chunk to a temporary file, then sent from a
///   read-only memory map of that file with `uploadTask(with:from:)`, and the
///   file deleted afterwards. The heap stays constant; the mapped pages count
///   as resident while they are sent, but they are the file's page cache,
///   which the system reclaims under pressure. The cost is one extra pass over
///   the bytes on disk and free space in the temporary directory for the whole
///   body. For large uploads on Linux prefer `AsyncHTTPClientTransport`, which
///   streams with no copy to disk.
///
/// Why not `uploadTask(with:fromFile:)`: on Linux, Foundation reads such a
/// file in pieces, pausing and resuming libcurl's sending as they arrive, and
/// a resume after the connection has failed (a server closing it mid-body, a
/// timeout, a cancellation) traps inside swift-corelibs-foundation (`try!` in
/// EasyHandle.swift, libcurl code 43) and kills the process. Bytes in memory
/// never pause the sending. Errors reading the body or writing the temporary
/// file end as ``RequestError``.
public final class URLSessionTransport: HTTPTransport {
    /// Bodies up to this size are sent from memory; larger ones from a temporary file.
    public let inMemoryLimit: Int
    /// The folder that holds a body's temporary file while it is sent.
    public let stagingDirectory: URL
    private let session: URLSession
    private let router: TaskRouter

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration; `.ephemeral` keeps no cookies or cache on disk.
    ///   - inMemoryLimit: The largest body read into memory instead of a temporary file.
    ///   - stagingDirectory: Where larger bodies are written before they are sent;
    ///     the system's temporary directory when `nil`. Each file is deleted once
    ///     its request ends, whether it succeeded, failed or was cancelled.
    public init(configuration: URLSessionConfiguration = .ephemeral, inMemoryLimit: Int = 4 * 1024 * 1024, stagingDirectory: URL? = nil) {
        self.inMemoryLimit = inMemoryLimit
        self.stagingDirectory = stagingDirectory ?? FileManager.default.temporaryDirectory
        router = TaskRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends one request; see the type's documentation for how bodies go out.
    ///
    /// The response body arrives whole: URLSession's delegate API offers no
    /// back-pressure on Linux, so the body is gathered in memory before this
    /// returns, and the stream hands it over in one chunk.
    public func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse {
        var urlRequest = try request.urlRequestHead()
        guard let body = request.body else {
            return try await run(request, progress: progress) { session.dataTask(with: urlRequest) }
        }
        if let length = body.length, length <= Int64(inMemoryLimit) {
            let bytes: [UInt8]
            do {
                bytes = try await body.collect(upTo: inMemoryLimit)
            } catch {
                throw RequestError.body(request, "\(error)", underlying: error)
            }
            let data = Data(bytes)
            return try await run(request, progress: progress) { session.uploadTask(with: urlRequest, from: data) }
        }
        let file = try await SpooledBody.write(body, for: request, in: stagingDirectory)
        defer { file.remove() }
        // Sent from a file of known size: a body of unknown length now has one.
        urlRequest.setValue(String(file.length), forHTTPHeaderField: "Content-Length")
        let mapped: Data
        do {
            mapped = try Data(contentsOf: file.url, options: .alwaysMapped)
        } catch {
            throw RequestError.invalidRequest("The body of \(request.describedTarget) could not be read back from \(file.url.path(percentEncoded: false)): \(error)", underlying: error)
        }
        return try await run(request, progress: progress) { session.uploadTask(with: urlRequest, from: mapped) }
    }

    /// Starts a task, waits for it, and cancels it if the calling task is cancelled.
    private func run(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void,
        makeTask: () -> URLSessionTask
    ) async throws -> StreamedResponse {
        try Task.checkCancellation()
        let task = makeTask()
        let router = self.router
        let outcome: Result<(HTTPURLResponse, Data), URLError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                router.register(task, progress: progress, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .success(let (urlResponse, data)):
            guard let head = urlResponse.httpResponse else {
                throw RequestError.transport(request, "the response had a status line HTTP types cannot represent")
            }
            return StreamedResponse(Response(head: head, body: data))
        case .failure(let error) where error.code == .cancelled:
            throw RequestError.cancelled(request)
        case .failure(let error) where error.code == .timedOut:
            throw RequestError.timedOut(request, after: request.timeout, underlying: error)
        case .failure(let error):
            throw RequestError.transport(request, error.localizedDescription, underlying: error)
        }
    }
}
