#if canImport(FoundationNetworking)
// URLRequest lives here on Linux.
public import FoundationNetworking
import Foundation
#else
public import Foundation
#endif
import HTTPBody
import HTTPTypes
import HTTPTypesFoundation
public import RequestBuilder

extension PreparedRequest {
    /// The largest body ``urlRequest(inMemoryBodyLimit:)`` copies into
    /// `httpBody` by default: 4 MiB.
    public static let defaultInMemoryBodyLimit = 4 * 1024 * 1024

    /// The request as Foundation's `URLRequest`, without its body: method,
    /// URL, the head's header fields (with the `Content-Type`,
    /// `Content-Encoding` and `Content-Length` the body implies; URLSession
    /// chooses the transfer coding itself) and timeout.
    ///
    /// Use it with `URLSession.upload(for:fromFile:)` or a streamed upload
    /// task for bodies too large to hold in memory.
    public func urlRequestHead() throws(RequestError) -> URLRequest {
        var head = self.head
        // URLSession frames a body itself (chunked when it has no length).
        head.headerFields[.transferEncoding] = nil
        guard let url, var request = URLRequest(httpRequest: head) else {
            throw RequestError.invalidRequest("\(describedTarget) has no URL that Foundation can represent")
        }
        request.url = url
        if let timeout { request.timeoutInterval = timeout.inSeconds }
        return request
    }

    /// The request as Foundation's `URLRequest`, its body copied into
    /// `httpBody` when that is cheap and safe.
    ///
    /// Only a body of known length of at most `inMemoryBodyLimit` bytes is
    /// copied. A file, stream or compressed body is never loaded into memory
    /// here, and is not set as `httpBodyStream` either: on Linux, Foundation's
    /// `InputStream` traps when URLSession asks for its `streamError`. Send such
    /// bodies with a transport that streams them (the AsyncHTTPClient transport,
    /// or URLSession's upload-from-file), starting from ``urlRequestHead()``.
    ///
    /// - Throws: `RequestError` (`RequestError.Code.invalidRequest`) when
    ///   the body is larger than the limit or of unknown length, or cannot be read.
    public func urlRequest(inMemoryBodyLimit: Int = PreparedRequest.defaultInMemoryBodyLimit) async throws(RequestError) -> URLRequest {
        var request = try urlRequestHead()
        guard let body else { return request }
        guard let length = body.length, length <= Int64(inMemoryBodyLimit) else {
            let size = body.length.map { "\($0)-byte" } ?? "unknown-length"
            throw RequestError.invalidRequest(
                "The \(size) body is not copied into URLRequest.httpBody (limit \(inMemoryBodyLimit) bytes); use urlRequestHead() with a streaming upload"
            )
        }
        do {
            request.httpBody = Data(try await body.collect(upTo: inMemoryBodyLimit))
        } catch {
            throw RequestError.invalidRequest("Cannot read the request body: \(error)", underlying: error)
        }
        return request
    }
}
