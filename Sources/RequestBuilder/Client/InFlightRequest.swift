/// A request being sent: its upload progress as an async sequence, and its
/// response to await; what ``RequestClient/sendWithProgress(_:maximumBodySize:)`` returns.
///
/// ```swift
/// let upload = client.sendWithProgress(request)
/// for await progress in upload.progress { print(progress.bytesSent) }
/// let response = try await upload.response
/// ```
///
/// The send runs whether or not anyone reads ``progress``, and ``progress``
/// finishes when the send does, with a response or an error. Cancelling the
/// task that iterates ``progress`` or awaits ``response`` cancels the send,
/// as does dropping every copy of this value and of ``progress``: a send
/// nobody waits for does not run on. Stopping an iteration early with
/// `break` does not.
public struct InFlightRequest: Sendable {
    /// Upload progress as the body goes out; a retried attempt starts again
    /// from zero. It holds at most ``progressBufferLimit`` unread reports,
    /// dropping the oldest, so a slow reader skips stale ones but never the
    /// last. Read it from one task at a time, as any `AsyncStream`.
    public let progress: AsyncStream<UploadProgress>
    private let task: Task<Response, any Error>

    /// How many unread progress reports ``progress`` holds: 16.
    public static let progressBufferLimit = 16

    init(progress: AsyncStream<UploadProgress>, task: Task<Response, any Error>) {
        self.progress = progress
        self.task = task
    }

    /// The response once its status is accepted and its body read.
    ///
    /// Every read gives the same outcome; cancelling the reading task
    /// cancels the send.
    ///
    /// - Throws: ``RequestError``, as ``RequestClient/send(_:maximumBodySize:progress:)``.
    public var response: Response {
        get async throws {
            let task = self.task
            // `progress` is used after the wait so this value, whose last copy
            // going away cancels the send, outlives it.
            defer { withExtendedLifetime(progress) {} }
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Cancels the send; ``response`` then throws ``RequestError/Code/cancelled``.
    public func cancel() {
        task.cancel()
    }
}
