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
/// On Linux a body sent from memory or from a staged file costs about twice
/// its size in resident memory: swift-corelibs-foundation copies the `Data`
/// it is given (a 1 GiB multipart upload peaked at 2,084 MiB), and streaming
/// through `httpBodyStream` is not safe there (see below). So on Linux this
/// transport refuses a body larger than ``maximumBodySize`` (64 MiB unless
/// you choose) with `RequestError.Code.invalidRequest` before anything is
/// sent, rather than let an upload take gigabytes of memory; raise the
/// limit if you accept that cost, or send large bodies with
/// `AsyncHTTPClientTransport`, which holds about two chunks of any body.
///
/// Once a response head has arrived the server has answered: a failure
/// after it (a body cut short) is thrown while the response body is read,
/// not by ``stream(_:progress:)``, so `RetryMiddleware` never sends an
/// answered request again.
///
/// On Linux, URLSession adds fields of its own to a request that lacks
/// them: `Accept: */*`, `Accept-Encoding`, `Accept-Language`,
/// `Connection: keep-alive` and a `User-Agent` naming the process and curl;
/// `AsyncHTTPClientTransport` sends the request's head as it is. Set
/// `User-Agent` or `Accept` on the request (`HTTPRequestBuilder.userAgent(_:)`,
/// `accept(_:)`) and both send yours. A configuration whose
/// `connectionProxyDictionary` Linux would ignore is refused: each request
/// throws `RequestError.Code.invalidRequest` naming `ProxySettings`.
///
/// What it shares with `AsyncHTTPClientTransport` and what it cannot:
///
/// - redirects, the one clock over a chain of them, and a `Location`'s
///   escapes are `RedirectMiddleware`'s, the same on both transports;
/// - `Expect: 100-continue` (which `HTTPRequestBuilder` puts on a body over
///   1 MiB) is handed to URLSession with the head; on Linux its libcurl waits
///   for the server's answer as curl does, so a server that answers 413
///   first gets the head alone;
/// - `TLSSettings` and `ProxySettings` have no counterpart here: the
///   session's configuration is used as given. On Linux,
///   swift-corelibs-foundation has no API to add trust roots or present a
///   client certificate (there is no `SecTrust`). Use
///   `AsyncHTTPClientTransport(tls:proxies:)` for either, and for SOCKS
///   proxies, `no_proxy` CIDR blocks and requests in absolute form through
///   an HTTP proxy.
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
    /// The largest body this transport sends, or `nil` for no limit: by
    /// default 64 MiB on Linux, where a body costs about twice its size in
    /// memory (see the type's documentation), and no limit elsewhere.
    public let maximumBodySize: Int64?
    #if canImport(FoundationNetworking)
    /// The default of ``maximumBodySize`` on this platform: 64 MiB, since
    /// swift-corelibs-foundation holds a body about twice in memory.
    public static let defaultMaximumBodySize: Int64? = 64 << 20
    #else
    /// The default of ``maximumBodySize`` on this platform: no limit.
    public static let defaultMaximumBodySize: Int64? = nil
    #endif
    private let session: URLSession
    private let router: TaskRouter
    /// The error every request gets instead of being sent, when the
    /// configuration asks for something this platform's URLSession ignores.
    private let ignoredSetting: String?

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration; `.ephemeral` keeps no cookies or cache on disk.
    ///   - inMemoryLimit: The largest body read into memory instead of a temporary file.
    ///   - stagingDirectory: Where larger bodies are written before they are sent;
    ///     the system's temporary directory when `nil`. Each file is deleted once
    ///     its request ends, whether it succeeded, failed or was cancelled.
    ///   - maximumBodySize: The largest body sent, `nil` for no limit; see
    ///     ``defaultMaximumBodySize`` and the type's documentation for why Linux has one.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral,
        inMemoryLimit: Int = 4 * 1024 * 1024,
        stagingDirectory: URL? = nil,
        maximumBodySize: Int64? = URLSessionTransport.defaultMaximumBodySize
    ) {
        self.init(
            configuration: configuration, inMemoryLimit: inMemoryLimit, stagingDirectory: stagingDirectory,
            sendsFilesInPlace: Self.platformSendsFilesInPlace, maximumBodySize: maximumBodySize
        )
    }

    /// Where URLSession can be trusted with a file's path: not on Linux,
    /// where a failed connection traps while it reads one.
    #if canImport(FoundationNetworking)
    static let platformSendsFilesInPlace = false
    #else
    static let platformSendsFilesInPlace = true
    #endif

    init(configuration: URLSessionConfiguration, inMemoryLimit: Int, stagingDirectory: URL?, sendsFilesInPlace: Bool, maximumBodySize: Int64? = URLSessionTransport.defaultMaximumBodySize) {
        self.sendsFilesInPlace = sendsFilesInPlace
        self.maximumBodySize = maximumBodySize
        self.inMemoryLimit = inMemoryLimit
        self.stagingDirectory = stagingDirectory ?? FileManager.default.temporaryDirectory
        router = TaskRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
        ignoredSetting = Self.ignoredSetting(in: configuration)
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

    /// What `configuration` asks for that URLSession on this platform does
    /// not do, as the sentence each request is refused with, naming what
    /// does it; `nil` when it asks for nothing of the kind.
    static func ignoredSetting(in configuration: URLSessionConfiguration) -> String? {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation reads proxies from the environment
        // only: requests would go around the proxy the app chose.
        if let proxies = configuration.connectionProxyDictionary, !proxies.isEmpty {
            return "URLSessionConfiguration.connectionProxyDictionary is ignored by URLSession on Linux, so this request would not go through the proxy: send it with AsyncHTTPClientTransport(tls:proxies:), whose ProxySettings go through a proxy on every platform"
        }
        #endif
        return nil
    }

    /// One exchange, without the whole-exchange deadline.
    private func exchange(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse {
        if let ignoredSetting { throw RequestError.invalidRequest(ignoredSetting) }
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
        if let maximumBodySize, let length = body.length, length > maximumBodySize {
            throw tooLarge(request, length: "\(length) bytes", limit: maximumBodySize)
        }
        let file = try await SpooledBody.write(body, for: request, in: stagingDirectory, upTo: maximumBodySize)
        defer { file.remove() }
        if let maximumBodySize, file.length > maximumBodySize {
            throw tooLarge(request, length: "more than \(maximumBodySize) bytes", limit: maximumBodySize)
        }
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

    /// The refusal of a body over ``maximumBodySize``, saying what to do instead.
    private func tooLarge(_ request: PreparedRequest, length: String, limit: Int64) -> RequestError {
        .invalidRequest(
            "The body of \(request.describedTarget) is \(length), over URLSessionTransport's maximumBodySize of \(limit) bytes: on Linux URLSession holds a body twice in memory; send it with AsyncHTTPClientTransport, which streams it, or raise maximumBodySize"
        )
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

    /// URLSession's failure in the sentence AsyncHTTPClientTransport uses
    /// for the same cause (``TransportFailureText``); Foundation's own text
    /// for the rest.
    private static func requestError(_ error: URLError, for request: PreparedRequest) -> RequestError {
        let authority = request.head.authority ?? ""
        let host = request.url?.host(percentEncoded: false) ?? authority
        switch error.code {
        case .cancelled:
            return RequestError.cancelled(request)
        case .timedOut:
            return RequestError.timedOut(request, after: request.timeout, underlying: error)
        case .cannotConnectToHost:
            return RequestError.transport(request, TransportFailureText.refused(authority), underlying: error)
        case .cannotFindHost, .dnsLookupFailed:
            return RequestError(code: .unknownHost, description: "\(request.describedTarget): \(TransportFailureText.unresolvable(host))", underlying: error)
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            return RequestError(
                code: .untrustedCertificate,
                description: "\(request.describedTarget): the server's certificate for \(authority) is not trusted (self-signed or unknown issuer, or expired): URLSessionTransport trusts the system's store; AsyncHTTPClientTransport(tls:) takes other roots in TLSSettings.trustRoots",
                underlying: error
            )
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            return RequestError(
                code: .untrustedCertificate,
                description: "\(request.describedTarget): the server's certificate for \(authority) has expired or is not valid yet: the server must renew it, or this computer's clock is wrong",
                underlying: error
            )
        case .clientCertificateRequired:
            return RequestError.transport(request, TransportFailureText.clientCertificateRequired(authority), underlying: error)
        case .networkConnectionLost:
            return RequestError.transport(request, "the server closed the connection without answering", underlying: error)
        default:
            // Foundation's text may name the URL, credentials and all.
            return RequestError.transport(request, request.redaction.redactingURLs(in: error.localizedDescription), underlying: error)
        }
    }
}
