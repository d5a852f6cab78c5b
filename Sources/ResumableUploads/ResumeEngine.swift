import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// The algorithm every resumable upload protocol shares: append the body
/// from the server's offset, check that each successful append moved the
/// offset exactly past the bytes sent, and after a failure wait as the
/// retry policy says, ask the server for its offset, and go on from there,
/// until the policy gives up (``RetryMiddleware/run(_:again:)``, the one
/// retry loop). ``ResumeDialect`` says how one protocol asks
/// and appends.
///
/// Each append is a slice of the body (``RequestBody/slice(_:)``) that
/// starts at its offset through the source's `skip`: a file or a multipart
/// form is not read again from its start for every chunk.
struct ResumeEngine<Dialect: ResumeDialect>: Sendable {
    let dialect: Dialect
    /// The body's length.
    let length: Int64
    /// The most bytes one append sends.
    let chunkSize: Int64
    let retry: RetryMiddleware

    /// Sends the body from `state`'s offset and returns the server's answer
    /// to the request that completed it. `state` is reported before the
    /// first byte and after every offset the server confirms; `completed`,
    /// when set, is the answer that already completed the upload.
    ///
    /// `saved` is the state the upload was resumed from, as its caller
    /// keeps it. When `state` differs from it only in the offset the server
    /// just gave, it is not reported before the first byte: what was saved
    /// already leads back to this upload, and its offset is only ever a
    /// hint (the server is asked), so saving it again would only put a
    /// flush to disk between a restart and its first resumed byte.
    func send(
        from state: ResumableUploadState,
        saved: ResumableUploadState? = nil,
        completedBy completed: Response? = nil,
        with client: RequestClient,
        stateChanged: @Sendable (ResumableUploadState) async throws -> Void,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Response {
        var state = state
        let length = self.length
        if !Self.differsOnlyInOffset(state, from: saved) {
            try await stateChanged(state)
        }
        progress(UploadProgress(bytesSent: state.offset, totalBytes: length))
        if let completed { return completed }
        while true {
            // Each chunk is one run of the retry loop: a retried attempt
            // first asks the server for its offset and goes on from there,
            // and a chunk the server confirms starts the count again.
            let outcome: ChunkOutcome
            do {
                outcome = try await retry.run { attempt in
                    if attempt.number > 1 {
                        state.offset = try await serverOffset(at: state.uploadURL, with: client, bounding: attempt)
                        try await stateChanged(state)
                        progress(UploadProgress(bytesSent: state.offset, totalBytes: length))
                    }
                    return try await appendChunk(from: state, with: client, bounding: attempt, progress: progress)
                }
            } catch let error as AnsweredAttemptFailed {
                throw error.underlying
            }
            switch outcome {
            case .final(let response):
                return response
            case .moved(let offset, let response):
                state.offset = offset
                try await stateChanged(state)
                if state.offset == length { return response }
            }
        }
    }

    /// What one append came to, when it did not fail.
    private enum ChunkOutcome {
        /// The server's answer that ends the upload.
        case final(Response)
        /// The server confirmed `offset`, past the bytes sent.
        case moved(Int64, Response)
    }

    /// Sends the body's next chunk from `state`'s offset; throws a refusal
    /// as the failure the retry loop judges (a 409 as a lost connection).
    private func appendChunk(
        from state: ResumableUploadState,
        with client: RequestClient,
        bounding attempt: RetryMiddleware.Attempt,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> ChunkOutcome {
        let start = state.offset
        // Added to what is left, never to the offset: a chunk size of
        // Int64.max would overflow the sum.
        let length = self.length
        let end = start + min(chunkSize, length - start)
        let append = try await dialect.appendRequest(to: state.uploadURL, range: start..<end, length: length)
        let head = try await client.stream(attempt.bounding(append)) { sent in
            progress(UploadProgress(bytesSent: start + sent.bytesSent, totalBytes: length))
        }
        switch try await dialect.answer(to: head, range: start..<end, length: length) {
        case .final(let response):
            return .final(response)
        case .accepted(let response):
            // Both protocols define the new offset as the old one plus the
            // bytes sent: one that does not move would loop forever, one
            // that moves elsewhere would leave a gap or claim unsent bytes.
            return .moved(try UploadOffset.confirmed(by: response.head, start: start, end: end, length: length), response)
        case .refused(let error):
            throw Self.conflictRetryable(dialect.retryable(error))
        }
    }

    /// Whether `state` is `saved` but for its offset.
    private static func differsOnlyInOffset(_ state: ResumableUploadState, from saved: ResumableUploadState?) -> Bool {
        guard var saved else { return false }
        saved.offset = state.offset
        return saved == state
    }

    /// Asks the server how many bytes of the upload at `url` it holds.
    ///
    /// - Throws: ``ResumableUploadError/Code/uploadNotFound`` for 404 or 410.
    func serverOffset(at url: URL, with client: RequestClient, bounding attempt: RetryMiddleware.Attempt? = nil) async throws -> Int64 {
        let request = try dialect.offsetRequest(at: url)
        let response = try await client.send(attempt?.bounding(request) ?? request)
        if response.status.code == 404 || response.status.code == 410 {
            throw ResumableUploadError.uploadNotFound(url, status: response.status.code)
        }
        guard response.status.kind == .successful else {
            throw RequestError(code: .unacceptableStatus, description: "\(dialect.serverName) answered \(response.status.code) \(response.status.reasonPhrase) when asked for the upload's offset", response: response)
        }
        return try dialect.offset(in: response, length: length)
    }

    /// A `409 Conflict` (the offsets disagree) is answered by asking for the
    /// offset, like a dropped connection.
    private static func conflictRetryable(_ error: any Error) -> any Error {
        if let error = error as? RequestError, error.response?.status.code == 409 {
            return RequestError(code: .transport, description: error.description)
        }
        return error
    }
}
