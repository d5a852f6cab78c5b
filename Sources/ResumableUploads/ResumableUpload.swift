import Foundation
import HTTPBody
import HTTPTypes
public import RequestBuilder

/// An upload that survives dropped connections and restarts: the IETF's
/// resumable uploads draft (`draft-ietf-httpbis-resumable-upload`, interop
/// versions 3, 5 and 6), what URLSession speaks on Apple platforms and
/// swift-nio-extras' `NIOResumableUpload` serves.
///
/// ```swift
/// let request = try HTTPRequestBuilder.post("https://example.com/upload")
///     .file(at: URL(filePath: "video.mov"))
///     .build()
/// let upload = try ResumableUpload(request)
/// let response = try await upload.send(with: client) { state in
///     try store.save(state)   // before the first byte, and as parts are confirmed
/// }
/// ```
///
/// Any request whose body can be read again and has a known length can be
/// sent this way: a file, bytes, a multipart form (a fixed boundary lets a
/// later process build the same bytes; ``BodyIdentity/boundary`` says which).
/// The request is created on the server first, with an empty body, and the
/// body then appended (`PATCH`): the draft's resumption URL normally comes in
/// a `104` informational response, which AsyncHTTPClient does not pass on,
/// and the separate creation step hands it over in the `201` instead.
///
/// When an append fails (the connection drops, a timeout, a 5xx) the upload
/// asks the server for its offset (`HEAD`) and sends the rest, waiting as
/// ``retry`` says between attempts. The final response is the one the server
/// gives the complete request, checked against the request's acceptable
/// statuses.
public struct ResumableUpload: Sendable {
    /// The draft's interoperability versions this client speaks.
    public enum DraftVersion: Int, Sendable, Hashable, CaseIterable {
        /// Interop version 3 (`Upload-Incomplete`).
        case v3 = 3
        /// Interop version 5 (`Upload-Complete`).
        case v5 = 5
        /// Interop version 6 (`Upload-Complete`; appends typed
        /// `application/partial-upload`).
        case v6 = 6
    }

    /// The request to upload.
    public let request: PreparedRequest
    /// The draft version spoken.
    public var version: DraftVersion
    /// The most bytes one append sends; `nil` sends the whole remainder in one.
    public var chunkSize: Int64?
    /// When to try again after a failed step, and how long to wait.
    public var retry: RetryMiddleware

    /// The body's length and what it is made of.
    let identity: BodyIdentity

    /// What the body was when this upload was prepared: what a state saved
    /// for it records.
    public var bodyIdentity: BodyIdentity { identity }

    /// Prepares `request` for a resumable upload.
    ///
    /// - Parameters:
    ///   - request: The request to upload, built as for any send.
    ///   - version: The draft version to speak; 6 by default.
    ///   - chunkSize: The most bytes per append; the whole remainder by default.
    ///   - retry: How failed steps are retried; 5 attempts by default.
    /// - Throws: ``ResumableUploadError`` (``ResumableUploadError/Code/bodyNotResumable``)
    ///   when the body is a stream or gzip-compressed; `RequestBodyError`
    ///   when a file it reads cannot be looked up.
    public init(
        _ request: PreparedRequest,
        version: DraftVersion = .v6,
        chunkSize: Int64? = nil,
        retry: RetryMiddleware = RetryMiddleware(maximumAttempts: 5)
    ) throws {
        self.request = request
        self.version = version
        self.chunkSize = chunkSize.map { max(1, $0) }
        self.retry = retry
        self.identity = try request.body.map(BodyIdentity.init(of:)) ?? .empty
    }

    /// Sends the upload, from the start or from `state`, and returns the
    /// server's response to the complete request.
    ///
    /// - Parameters:
    ///   - client: Sends each step through its middleware and transport.
    ///   - state: A state saved from an earlier run of the same upload, to
    ///     continue it; `nil` to begin a new one.
    ///   - stateChanged: Called with the state to persist before the first
    ///     body byte of a new upload is sent and whenever the server
    ///     confirms an offset. (A resumed upload's state is already kept:
    ///     only the offset the server gives it is new, and that is reported
    ///     once an append confirms a further one.)
    ///   - progress: Body bytes the server holds or has been sent, counted
    ///     across attempts: a resumed upload starts at the server's offset.
    /// - Throws: ``ResumableUploadError`` when the body changed since `state`
    ///   was saved (nothing is sent), the server forgot the upload, or it
    ///   breaks the protocol; `RequestError` when a step fails for good.
    public func send(
        with client: RequestClient,
        resumingFrom state: ResumableUploadState? = nil,
        stateChanged: @escaping @Sendable (ResumableUploadState) async throws -> Void = { _ in },
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Response {
        try await retry.withinBudget {
            let saved = state
            let state = try await begin(with: client, resumingFrom: saved)
            return try await engine.send(from: state, saved: saved, with: client, stateChanged: stateChanged, progress: progress)
        }
    }

    /// Asks the server how many bytes of the upload at `state`'s URL it holds.
    ///
    /// - Throws: ``ResumableUploadError/Code/uploadNotFound`` for 404 or 410.
    public func serverOffset(of state: ResumableUploadState, with client: RequestClient) async throws -> Int64 {
        try await engine.serverOffset(at: state.uploadURL, with: client)
    }

    /// Cancels the upload at `state`'s URL (`DELETE`): the server drops what
    /// it holds.
    public func cancel(_ state: ResumableUploadState, with client: RequestClient) async throws {
        let cancellation = try request.continuation(.delete, to: state.uploadURL, fields: versionFields, acceptableStatus: .successful)
        _ = try await client.send(cancellation)
    }

    /// The first request ``send(with:resumingFrom:stateChanged:progress:)``
    /// would make: the upload's creation, or with `state` the offset
    /// retrieval (`HEAD`). What a dry run shows.
    public func firstRequest(resumingFrom state: ResumableUploadState? = nil) throws -> PreparedRequest {
        if let state { return try engine.dialect.offsetRequest(at: state.uploadURL) }
        return try creationRequest()
    }

    // MARK: Steps

    /// The state to continue from: `saved` checked against the body and the
    /// server, or a new upload created on the server.
    private func begin(with client: RequestClient, resumingFrom saved: ResumableUploadState?) async throws -> ResumableUploadState {
        guard var state = saved else { return try await create(with: client) }
        guard state.uploadProtocol == .draft else {
            throw ResumableUploadError(code: .protocolMismatch, description: "The saved upload state is for \(state.uploadProtocol.rawValue), not the IETF draft")
        }
        if let saved = state.draftVersion, saved != version.rawValue {
            throw ResumableUploadError(code: .protocolMismatch, description: "The saved upload speaks draft interop version \(saved), not \(version.rawValue)")
        }
        if let difference = state.body.difference(from: identity) {
            throw ResumableUploadError.bodyChanged(difference)
        }
        state.offset = try await retry.run { attempt in try await engine.serverOffset(at: state.uploadURL, with: client, bounding: attempt) }
        return state
    }

    /// The upload's creation: the original head, marked incomplete, with an
    /// empty body.
    private func creationRequest() throws -> PreparedRequest {
        let versionFields = versionFields
        let creation = try request.updating(body: RequestBody.bytes([], contentType: nil)) { head in
            for field in versionFields { head.headerFields[field.name] = field.value }
            switch version {
            case .v3: head.headerFields[.uploadIncomplete] = "?1"
            case .v5, .v6: head.headerFields[.uploadComplete] = "?0"
            }
        }
        return creation.updating(acceptableStatus: .any)
    }

    /// Creates the upload with an empty, incomplete request that carries the
    /// original head, and reads the resumption URL from the `201`.
    private func create(with client: RequestClient) async throws -> ResumableUploadState {
        let creation = try creationRequest()
        // Nothing of the body has gone yet, and an incomplete upload creates
        // nothing the application sees: safe to repeat.
        let response = try await retry.run { attempt in try await client.send(attempt.bounding(creation)) }
        guard let location = response.headerFields[.location] else {
            if response.status.kind == .successful {
                throw ResumableUploadError.invalidResponse("\(response.status.code) to the upload creation has no Location (the server may not support interop version \(version.rawValue))")
            }
            throw RequestError(code: .unacceptableStatus, description: "The server answered \(response.status.code) \(response.status.reasonPhrase) to the upload creation", response: response)
        }
        guard let base = request.url, let url = URL(string: location, relativeTo: base)?.absoluteURL,
              url.scheme == "http" || url.scheme == "https"
        else {
            throw ResumableUploadError.invalidResponse("the upload's Location \(location.debugDescription) is not an http or https URL")
        }
        let offset = response.headerFields[.uploadOffset] == nil ? 0 : try UploadOffset.read(from: response.head, length: identity.length)
        return ResumableUploadState(uploadProtocol: .draft, uploadURL: url, offset: offset, body: identity, draftVersion: version.rawValue)
    }

    private var versionFields: HTTPFields { engine.dialect.versionFields }

    /// The loop the draft shares with tus, speaking the draft.
    private var engine: ResumeEngine<DraftDialect> {
        ResumeEngine(dialect: DraftDialect(request: request, version: version), length: identity.length, chunkSize: chunkSize ?? .max, retry: retry)
    }
}
