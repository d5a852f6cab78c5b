public import Foundation
public import HTTPBody
public import HTTPTypes
public import RequestBuilder

/// An upload with tus 1.0 (tus.io: tusd, Uppy's servers, Cloudflare Stream,
/// Vimeo): created on the server, then sent in `PATCH` chunks that a later
/// run continues from the server's offset.
///
/// ```swift
/// let upload = try TusUpload(
///     creationURL: URL(string: "https://tus.example.com/files/")!,
///     body: .file(at: URL(filePath: "video.mov")),
///     metadata: [("filename", "video.mov"), ("filetype", "video/quicktime")]
/// )
/// let result = try await upload.send(with: client) { state in try store.save(state) }
/// print(result.uploadURL)
/// ```
///
/// The client asks the server what it offers (`OPTIONS`) and uses the core
/// protocol with the creation extension; termination for ``terminate(_:with:)``;
/// the checksum extension (SHA-1, SHA-256 or MD5, whichever the server lists
/// first) when the server advertises it; creation-with-upload when
/// ``sendsFirstChunkWithCreation`` is set and the server offers it. After a
/// failed chunk it asks for the offset (`HEAD`) and sends the rest, waiting
/// as ``retry`` says.
public struct TusUpload: Sendable {
    /// What a completed upload gives back.
    public struct Result: Sendable {
        /// Where the upload lives on the server.
        public let uploadURL: URL
        /// The server's answer to the request that completed the upload.
        public let response: Response
    }

    /// The protocol version this client speaks.
    public static let protocolVersion = "1.0.0"

    /// The server's creation endpoint.
    public let creationURL: URL
    /// What is uploaded: any body that can be read again and has a known length.
    public let body: RequestBody
    /// `Upload-Metadata` pairs, in order (tus clients send `filename` and
    /// `filetype`; servers may read others).
    public let metadata: [(key: String, value: String)]
    /// Fields sent with every request, such as `Authorization`.
    public var headerFields: HTTPFields
    /// The most bytes one `PATCH` sends; 8 MiB by default.
    public var chunkSize: Int64
    /// Whether the creation request carries the first chunk when the server
    /// offers creation-with-upload. Off by default: until the server answers
    /// it, the upload has no URL to resume at, so bytes lost then are sent again.
    public var sendsFirstChunkWithCreation = false
    /// How long one request may take, or `nil` for the transport's default.
    public var timeout: Duration?
    /// When to try again after a failed step, and how long to wait.
    public var retry: RetryMiddleware

    let identity: BodyIdentity
    let metadataField: String

    /// What the body was when this upload was prepared: what a state saved
    /// for it records.
    public var bodyIdentity: BodyIdentity { identity }

    /// Prepares an upload of `body` to the tus server at `creationURL`.
    ///
    /// - Throws: ``ResumableUploadError`` when the body is a stream or
    ///   compressed, or a metadata key cannot be sent; `RequestBodyError`
    ///   when a file it reads cannot be looked up.
    public init(
        creationURL: URL,
        body: RequestBody,
        metadata: [(key: String, value: String)] = [],
        headerFields: HTTPFields = [:],
        chunkSize: Int64 = 8 * 1024 * 1024,
        retry: RetryMiddleware = RetryMiddleware(maximumAttempts: 5)
    ) throws {
        self.creationURL = creationURL
        self.body = body
        self.metadata = metadata
        self.headerFields = headerFields
        self.chunkSize = max(1, chunkSize)
        self.retry = retry
        self.identity = try BodyIdentity(of: body)
        self.metadataField = try TusMetadata.fieldValue(metadata)
    }

    /// Sends the upload, from the start or from `state`.
    ///
    /// - Parameters:
    ///   - client: Sends each step through its middleware and transport.
    ///   - state: A state saved from an earlier run of the same upload, to
    ///     continue it; `nil` to begin a new one.
    ///   - stateChanged: Called with the state to persist once a new
    ///     upload has a URL (before its first `PATCH`) and after each chunk.
    ///     (A resumed upload's state is already kept: it is reported again
    ///     once a chunk moves the offset.)
    ///   - progress: Bytes the server holds or has been sent, across attempts.
    /// - Throws: ``ResumableUploadError`` when the body changed since `state`
    ///   was saved (nothing is sent), the server forgot the upload, lacks
    ///   what the upload needs, or breaks the protocol; `RequestError` when
    ///   a step fails for good.
    public func send(
        with client: RequestClient,
        resumingFrom state: ResumableUploadState? = nil,
        stateChanged: @escaping @Sendable (ResumableUploadState) async throws -> Void = { _ in },
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Result {
        // A changed body is refused before anything is sent.
        if let state, let difference = state.body.difference(from: identity) {
            throw ResumableUploadError.bodyChanged(difference)
        }
        return try await retry.withinBudget {
            let base = try baseRequest()
            let server = try await options(with: client, base: base)
            let saved = state
            let (state, last) = try await begin(with: client, base: base, server: server, resumingFrom: saved)
            let resume = engine(base: base, checksum: TusChecksum(advertised: server.checksumAlgorithms))
            let response = try await resume.send(from: state, saved: saved, completedBy: last, with: client, stateChanged: stateChanged, progress: progress)
            return Result(uploadURL: state.uploadURL, response: response)
        }
    }

    /// Asks the server how many bytes of the upload at `state`'s URL it holds (`HEAD`).
    ///
    /// - Throws: ``ResumableUploadError/Code/uploadNotFound`` for 404 or 410.
    public func serverOffset(of state: ResumableUploadState, with client: RequestClient) async throws -> Int64 {
        try await engine(base: baseRequest(), checksum: nil).serverOffset(at: state.uploadURL, with: client)
    }

    /// Deletes the upload at `state`'s URL (termination extension).
    public func terminate(_ state: ResumableUploadState, with client: RequestClient) async throws {
        let termination = try baseRequest().continuation(.delete, to: state.uploadURL, fields: tusFields, acceptableStatus: .successful)
        _ = try await client.send(termination)
    }

    /// The first request ``send(with:resumingFrom:stateChanged:progress:)``
    /// makes: `OPTIONS` to the creation endpoint. What a dry run shows.
    public func firstRequest() throws -> PreparedRequest {
        // Tus-Resumable on OPTIONS too: tus 1.0 leaves it out there, but
        // aiohttp-tus answers OPTIONS without its offer unless it is sent.
        try baseRequest().continuation(.options, to: creationURL, fields: tusFields)
    }

    // MARK: Steps

    private func baseRequest() throws(RequestError) -> PreparedRequest {
        var builder = HTTPRequestBuilder(.post, creationURL).headers(headerFields)
        if let timeout { builder = builder.timeout(timeout) }
        return try builder.build()
    }

    private var tusFields: HTTPFields { TusDialect.fields }

    /// The server's offer, checked against what this upload needs.
    private func options(with client: RequestClient, base: PreparedRequest) async throws -> TusServerOptions {
        let request = try firstRequest()
        let response = try await retry.run { attempt in try await client.send(attempt.bounding(request)) }
        guard response.status.kind == .successful else {
            throw RequestError(code: .unacceptableStatus, description: "The tus server answered \(response.status.code) \(response.status.reasonPhrase) to OPTIONS", response: response)
        }
        let server = try TusServerOptions(response.head)
        guard server.versions.isEmpty || server.versions.contains(Self.protocolVersion) else {
            throw ResumableUploadError(code: .serverNotCapable, description: "The tus server speaks \(server.versions.joined(separator: ", ")), not \(Self.protocolVersion)")
        }
        if let maximum = server.maximumSize, identity.length > maximum {
            throw ResumableUploadError(code: .serverNotCapable, description: "The upload is \(identity.length) bytes; the tus server takes at most \(maximum) (Tus-Max-Size)")
        }
        return server
    }

    /// The state to continue from and, when the creation carried the whole
    /// body, the response that completed it.
    private func begin(
        with client: RequestClient,
        base: PreparedRequest,
        server: TusServerOptions,
        resumingFrom saved: ResumableUploadState?
    ) async throws -> (ResumableUploadState, Response?) {
        if var state = saved {
            guard state.uploadProtocol == .tus else {
                throw ResumableUploadError(code: .protocolMismatch, description: "The saved upload state is for \(state.uploadProtocol.rawValue), not tus")
            }
            if let difference = state.body.difference(from: identity) {
                throw ResumableUploadError.bodyChanged(difference)
            }
            state.offset = try await retry.run { attempt in try await engine(base: base, checksum: nil).serverOffset(at: state.uploadURL, with: client, bounding: attempt) }
            return (state, nil)
        }
        guard server.extensions.contains("creation") else {
            throw ResumableUploadError(code: .serverNotCapable, description: "The tus server does not offer the creation extension (Tus-Extension: \(server.extensions.sorted().joined(separator: ",")))")
        }
        var fields = tusFields
        fields[.uploadLength] = String(identity.length)
        if !metadataField.isEmpty { fields[.uploadMetadata] = metadataField }
        var firstChunk: RequestBody?
        if sendsFirstChunkWithCreation, server.extensions.contains("creation-with-upload"), identity.length > 0 {
            fields[.contentType] = "application/offset+octet-stream"
            firstChunk = try body.slice(0..<min(identity.length, chunkSize))
        }
        let creation = try base.continuation(.post, to: creationURL, fields: fields, body: firstChunk)
        // Without a body, a lost answer costs an orphan upload at most.
        let response = try await firstChunk == nil ? retry.run { attempt in try await client.send(attempt.bounding(creation)) } : client.send(creation)
        guard response.status.code == 201, let location = response.headerFields[.location] else {
            if response.status.kind == .successful {
                throw ResumableUploadError.invalidResponse("\(response.status.code) to the upload creation has no Location")
            }
            throw RequestError(code: .unacceptableStatus, description: "The tus server answered \(response.status.code) \(response.status.reasonPhrase) to the upload creation", response: response)
        }
        guard let url = URL(string: location, relativeTo: creationURL)?.absoluteURL, url.scheme == "http" || url.scheme == "https" else {
            throw ResumableUploadError.invalidResponse("the upload's Location \(location.debugDescription) is not an http or https URL")
        }
        let offset = firstChunk == nil ? 0 : try UploadOffset.read(from: response.head, length: identity.length)
        let state = ResumableUploadState(uploadProtocol: .tus, uploadURL: url, offset: offset, body: identity)
        let completed = identity.length == 0 || offset == identity.length
        return (state, completed ? response : nil)
    }

    /// The loop tus shares with the IETF draft, speaking tus.
    private func engine(base: PreparedRequest, checksum: TusChecksum?) -> ResumeEngine<TusDialect> {
        ResumeEngine(dialect: TusDialect(base: base, body: body, checksum: checksum), length: identity.length, chunkSize: chunkSize, retry: retry)
    }
}
