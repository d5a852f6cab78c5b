import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// The algorithm every resumable upload protocol shares: append the body
/// from the server's offset, check that each successful append moved the
/// offset exactly past the bytes sent, and after a failure wait as the
/// retry policy says, ask the server for its offset, and go on from there,
/// until the policy gives up. ``ResumeDialect`` says how one protocol asks
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
        var failures = 0
        while true {
            let start = state.offset
            // Added to what is left, never to the offset: a chunk size of
            // Int64.max would overflow the sum.
            let end = start + min(chunkSize, length - start)
            let failure: any Error
            do {
                let append = try await dialect.appendRequest(to: state.uploadURL, range: start..<end, length: length)
                let head = try await client.stream(append) { sent in
                    progress(UploadProgress(bytesSent: start + sent.bytesSent, totalBytes: length))
                }
                switch try await dialect.answer(to: head, range: start..<end, length: length) {
                case .final(let response):
                    return response
                case .accepted(let response):
                    // Both protocols define the new offset as the old one
                    // plus the bytes sent: one that does not move would loop
                    // forever, one that moves elsewhere would leave a gap or
                    // claim unsent bytes.
                    state.offset = try UploadOffset.confirmed(by: response.head, start: start, end: end, length: length)
                    failures = 0
                    try await stateChanged(state)
                    if state.offset == length { return response }
                    continue
                case .refused(let error):
                    failure = error
                }
            } catch let error as ResumableUploadError {
                throw error
            } catch let error as AnsweredAttemptFailed {
                throw error.underlying
            } catch {
                failure = error
            }
            if Task.isCancelled { throw failure }
            guard let offset = try await recover(from: failure, failures: &failures, at: state.uploadURL, with: client) else { throw failure }
            state.offset = offset
            try await stateChanged(state)
            progress(UploadProgress(bytesSent: state.offset, totalBytes: length))
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
    func serverOffset(at url: URL, with client: RequestClient) async throws -> Int64 {
        let response = try await client.send(dialect.offsetRequest(at: url))
        if response.status.code == 404 || response.status.code == 410 {
            throw ResumableUploadError.uploadNotFound(url, status: response.status.code)
        }
        guard response.status.kind == .successful else {
            throw RequestError(code: .unacceptableStatus, description: "\(dialect.serverName) answered \(response.status.code) \(response.status.reasonPhrase) when asked for the upload's offset", response: response)
        }
        return try dialect.offset(in: response, length: length)
    }

    /// After a failed append: waits as ``retry`` says, then asks the server
    /// for its offset; `nil` when the failure is final.
    private func recover(from error: any Error, failures: inout Int, at url: URL, with client: RequestClient) async throws -> Int64? {
        var lastError = dialect.retryable(error)
        while true {
            failures += 1
            guard try await retry.waitBeforeRetry(attempt: failures + 1, after: Self.conflictRetryable(lastError)) else { return nil }
            do {
                return try await serverOffset(at: url, with: client)
            } catch let error as ResumableUploadError {
                throw error
            } catch {
                lastError = error
            }
        }
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
