import AsyncHTTPClient
import HTTPBody
import RequestBuilder
import RequestBuilderAsyncHTTPClient

/// `-v`'s view of the wire: every request head as it goes out and every
/// response head as it comes in, for every kind of upload (each chunk of a
/// resumable upload, each S3 part, each retry), written to standard error.
///
/// It wraps the transport rather than sitting among the middleware so it
/// sees exactly what is sent: after retries, signing and `Authorization`
/// have been applied. Credentials are shown as the library's logging shows
/// them (``LoggingMiddleware/Redaction/default``): `-v` output is pasted
/// into bug reports. `--dry-run` is not redacted: it is the request.
struct VerboseTransport: HTTPTransport {
    let base: any HTTPTransport
    let redaction = LoggingMiddleware.Redaction.default

    func stream(_ request: PreparedRequest, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> StreamedResponse {
        let head = RawHTTPRequest(wireHead: redaction.redacted(request.head), body: request.body).head
        OutputFile.standardError.writeText(String(decoding: head, as: UTF8.self))
        let response = try await base.stream(request, progress: progress)
        OutputFile.standardError.writeText(UploaderOptions.describeHead(of: response.head))
        return response
    }
}

extension UploaderOptions {
    /// The transport every kind of upload sends through: `-v` makes it
    /// print each request and response head.
    func transport(_ client: HTTPClient) -> any HTTPTransport {
        let transport = AsyncHTTPClientTransport(client: client)
        return verbose ? VerboseTransport(base: transport) : transport
    }

    /// Whether the final response's head is printed after the exchange:
    /// `-v` has printed every head as it came, so only `--print-headers`
    /// (`-i`) asks for it then.
    var printsFinalHead: Bool { printResponseHeaders && !verbose }
}
