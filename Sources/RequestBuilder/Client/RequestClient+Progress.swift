extension RequestClient {
    /// Starts sending a request and returns at once, with its upload
    /// progress as an async sequence and its response to await: the
    /// alternative to a progress callback.
    ///
    /// ```swift
    /// let upload = client.sendWithProgress(request)
    /// for await progress in upload.progress { bar.show(progress.fractionCompleted) }
    /// let response = try await upload.response
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The largest response body read into memory, as
    ///     for ``send(_:maximumBodySize:progress:)``.
    /// - Returns: The request in flight; see ``InFlightRequest`` for how it
    ///   is cancelled.
    public func sendWithProgress(
        _ request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize
    ) -> InFlightRequest {
        let (progress, continuation) = AsyncStream.makeStream(
            of: UploadProgress.self,
            bufferingPolicy: .bufferingNewest(InFlightRequest.progressBufferLimit)
        )
        let task = Task {
            defer { continuation.finish() }
            return try await send(request, maximumBodySize: maximumBodySize) { continuation.yield($0) }
        }
        continuation.onTermination = { termination in
            // `.cancelled` means the reader's task was cancelled or the
            // sequence was dropped; `.finished` is the send's own end.
            if case .cancelled = termination { task.cancel() }
        }
        return InFlightRequest(progress: progress, task: task)
    }
}
