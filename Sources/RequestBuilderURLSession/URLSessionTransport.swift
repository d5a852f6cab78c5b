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
/// How a body goes out:
///
/// - at most ``inMemoryLimit`` bytes of known length: read into memory and
///   sent with `uploadTask(with:from:)`;
/// - a file body, on Apple platforms: handed to URLSession by its path
///   (`uploadTask(with:fromFile:)`), which reads it as it sends, no copy;
/// - anything else (a multipart form, a stream, a gzip body, and on Linux a
///   file too): written chunk by chunk to a temporary file in
///   ``stagingDirectory``, sent from a read-only map of it, and deleted
///   afterwards. The heap stays constant, at the cost of one pass over the
///   bytes on disk and free space for the whole body there. On Linux prefer
///   `AsyncHTTPClientTransport`, which streams with no copy at all.
///
/// Once a response head has arrived the server has answered: a failure
/// after it (a body cut short) is thrown while the response body is read,
/// not by ``stream(_:progress:)``, so `RetryMiddleware` never sends an
/// answered request again.
///
/// Bodies never go through `httpBodyStream`, and on Linux never through
/// `uploadTask(with:fromFile:)`: swift-corelibs-foundation traps in both
/// when a connection fails mid-body (docs/notes/transports.md has the
/// details). Errors reading the body or writing the temporary file end as
/// `RequestError`.
public final class URLSessionTransport: HTTPTransport {
    /// Bodies up to this size are sent from memory; larger ones from their
    /// file or a temporary one.
    public let inMemoryLimit: Int
    /// Whether a file body larger than ``inMemoryLimit`` is handed to
    /// URLSession by its path rather than staged.
    let sendsFilesInPlace: Bool
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
    public convenience init(configuration: URLSessionConfiguration = .ephemeral, inMemoryLimit: Int = 4 * 1024 * 1024, stagingDirectory: URL? = nil) {
        self.init(configuration: configuration, inMemoryLimit: inMemoryLimit, stagingDirectory: stagingDirectory, sendsFilesInPlace: Self.platformSendsFilesInPlace)
    }

    /// Where URLSession can be trusted with a file's path: not on Linux,
    /// where a failed connection traps while it reads one.
    #if canImport(FoundationNetworking)
    static let platformSendsFilesInPlace = false
    #else
    static let platformSendsFilesInPlace = true
    #endif

    init(configuration: URLSessionConfiguration, inMemoryLimit: Int, stagingDirectory: URL?, sendsFilesInPlace: Bool) {
        self.sendsFilesInPlace = sendsFilesInPlace
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
    ///
    /// The request's `timeout` bounds all of it, preparing the body
    /// included: URLSession's `timeoutInterval` alone only limits the time
    /// between two bytes, so a server sending one byte a second would never
    /// be stopped. Past it the task is cancelled and the call throws
    /// `RequestError.Code.timedOut`.
    public func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse {
        guard let deadline = RequestDeadline(request) else { return try await exchange(request, progress: progress) }
        return try await deadline.run { try await self.exchange(request, progress: progress) }
    }

    /// One exchange, without the whole-exchange deadline.
    private func exchange(
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
        if sendsFilesInPlace, let location = body.file, let path = String(validating: location.bytes, as: UTF8.self) {
            let fileURL = URL(filePath: path)
            // URLSession sizes the file as it sends it; a length taken when the
            // request was built would disagree with the bytes if the file changed.
            urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
            return try await run(request, progress: progress) { session.uploadTask(with: urlRequest, fromFile: fileURL) }
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
        let outcome: TaskRouter.Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                router.register(task, progress: progress, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .response(let urlResponse, let data):
            return StreamedResponse(Response(head: try Self.head(of: urlResponse, for: request), body: data))
        case .answered(let urlResponse, let data, let error):
            // The server answered: the failure belongs to the body, read after
            // the head, as with a transport that streams the response.
            let head = try Self.head(of: urlResponse, for: request)
            let failure = Self.requestError(error, for: request)
            let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
                if !data.isEmpty { continuation.yield(Array(data)) }
                continuation.finish(throwing: failure)
            }
            return StreamedResponse(head: head, body: ResponseBody(chunks))
        case .failure(let error):
            throw Self.requestError(error, for: request)
        }
    }

    private static func head(of urlResponse: HTTPURLResponse, for request: PreparedRequest) throws -> HTTPResponse {
        guard let head = urlResponse.httpResponse else {
            throw RequestError.transport(request, "the response had a status line HTTP types cannot represent")
        }
        return head
    }

    private static func requestError(_ error: URLError, for request: PreparedRequest) -> RequestError {
        switch error.code {
        case .cancelled:
            RequestError.cancelled(request)
        case .timedOut:
            RequestError.timedOut(request, after: request.timeout, underlying: error)
        default:
            RequestError.transport(request, error.localizedDescription, underlying: error)
        }
    }
}
