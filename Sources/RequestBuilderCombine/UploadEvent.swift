public import RequestBuilder

/// What ``RequestBuilder/RequestClient/progressPublisher(for:maximumBodySize:)``
/// publishes: progress reports while the body goes out, then the response.
///
/// An enum, as a send only ever reports progress and then ends with a
/// response, so a `switch` over it is complete for good.
public enum UploadEvent: Sendable {
    /// How much of the body has gone out; a retried attempt starts again from zero.
    case progress(UploadProgress)
    /// The response, its status accepted and its body read; always the last value.
    case response(Response)
}
