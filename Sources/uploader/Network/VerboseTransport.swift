import AsyncHTTPClient
import Foundation
import HTTPTypes
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
/// them (``LoggingMiddleware/Redaction/default``, the request's own list),
/// in the request's head and the response's (`Set-Cookie`): `-v` output is
/// pasted into bug reports. `--dry-run` is not redacted: it is the request.
/// A status line names the version the exchange went over (`HTTP/2`).
struct VerboseTransport: HTTPTransport {
    let base: any HTTPTransport
    /// The proxies in use: a request through one says so first, its
    /// password shown as `***`.
    var proxies: ProxySettings = .direct
    let redaction = LoggingMiddleware.Redaction.default

    func stream(_ request: PreparedRequest, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> StreamedResponse {
        if let proxy = proxies.proxy(scheme: request.head.scheme ?? "https", host: request.url?.host ?? "") {
            OutputFile.standardError.writeText("* through proxy \(proxy)\n")
        }
        let head = RawHTTPRequest(wireHead: redaction.redacted(request.redaction.redacted(request.head)), body: request.body).head
        OutputFile.standardError.writeText(String(decoding: head, as: UTF8.self))
        let response = try await base.stream(request, progress: progress)
        var shown = response.head
        shown.headerFields = request.redaction.redacted(redaction.redacted(response.head.headerFields))
        OutputFile.standardError.writeText(shown.headText(version: response.protocolVersion))
        return response
    }
}
