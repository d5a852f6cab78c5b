#if canImport(FoundationNetworking)
public import Foundation
// This target is the only one that imports FoundationNetworking.
public import FoundationNetworking
#else
public import Foundation
#endif
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
        guard let url = request.url, var urlRequest = URLRequest(httpRequest: request.head) else {
            throw RequestError.invalidRequest("\(request.describedTarget) has no valid URL")
        }
        urlRequest.url = url
        if let timeout = request.timeout {
            let (seconds, attoseconds) = timeout.components
            urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        guard let body = request.body else {
            return try await run(request, progress: progress) { session.dataTask(with: urlRequest) }
        }
        for field in body.headerFields where urlRequest.value(forHTTPHeaderField: field.name.rawName) == nil {
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name.rawName)
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
        urlRequest.setValue(String(file.length), forHTTPHeaderField: "Content-Length")
        if body.length == nil { urlRequest.setValue(nil, forHTTPHeaderField: "Transfer-Encoding") }
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

/// The session's delegate: routes each task's callbacks to the request waiting for it.
///
/// `@unchecked Sendable` because the table of tasks is only touched under its lock.
private final class TaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<(HTTPURLResponse, Data), URLError>

    private struct Pending {
        var continuation: CheckedContinuation<Outcome, Never>
        var progress: @Sendable (UploadProgress) -> Void
        var data = Data()
    }

    private let pending = LockedValue<[Int: Pending]>([:])

    func register(_ task: URLSessionTask, progress: @escaping @Sendable (UploadProgress) -> Void, continuation: CheckedContinuation<Outcome, Never>) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation, progress: progress) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        guard let progress = pending.withLock({ $0[task.taskIdentifier]?.progress }) else { return }
        progress(UploadProgress(bytesSent: totalBytesSent, totalBytes: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            finished.continuation.resume(returning: .failure(urlError))
        } else if let response = task.response as? HTTPURLResponse {
            finished.continuation.resume(returning: .success((response, finished.data)))
        } else {
            finished.continuation.resume(returning: .failure(URLError(.badServerResponse)))
        }
    }
}

/// A body written out to a temporary file so URLSession can upload it from there.
private struct SpooledBody {
    let url: URL
    let length: Int64

    static func write(_ body: RequestBody, for request: PreparedRequest, in directory: URL) async throws -> SpooledBody {
        let url = directory
            .appending(path: "RequestBuilder-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path(percentEncoded: false), contents: nil),
              let handle = try? FileHandle(forWritingTo: url)
        else {
            throw RequestError.invalidRequest("The body of \(request.describedTarget) could not be staged: cannot create \(url.path(percentEncoded: false))")
        }
        var length: Int64 = 0
        do {
            defer { try? handle.close() }
            for try await chunk in body.chunks() {
                try Task.checkCancellation()
                try handle.write(contentsOf: chunk)
                length += Int64(chunk.count)
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            // A cancelled stream may end early and look like a short body: report the cancellation.
            if error is CancellationError || Task.isCancelled { throw RequestError.cancelled(request) }
            throw RequestError.body(request, "\(error) (while staging it in \(url.path(percentEncoded: false)))", underlying: error)
        }
        return SpooledBody(url: url, length: length)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
