import RequestBuilder

extension RetryMiddleware {
    /// Runs a step that sends no body bytes, again after a failure this
    /// policy retries; a ``ResumableUploadError`` is final.
    func repeating<Value>(_ step: () async throws -> Value) async throws -> Value {
        var failures = 0
        while true {
            do {
                return try await step()
            } catch let error as ResumableUploadError {
                throw error
            } catch {
                failures += 1
                guard try await waitBeforeRetry(attempt: failures + 1, after: error) else { throw error }
            }
        }
    }
}
