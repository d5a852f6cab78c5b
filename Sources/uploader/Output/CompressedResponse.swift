import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// `--compressed`, as curl's: the request asks for a compressed answer,
/// and the body is written decoded, as it arrives, in constant memory.
enum CompressedResponse {
    /// The codings asked for: curl's value for the two it decodes with zlib
    /// (a curl built with brotli and zstd adds `br, zstd`, which are not
    /// decoded here, so not asked for).
    static let acceptEncoding = ("Accept-Encoding", "deflate, gzip")

    /// `response`'s body as it is written: with its `Content-Encoding`
    /// undone when `decoding`, as sent otherwise.
    ///
    /// - Throws: ``ContentDecodingError`` for a coding other than gzip,
    ///   deflate and identity, before a byte is read.
    static func body(of response: StreamedResponse, decoding: Bool) throws(ContentDecodingError) -> ResponseBody {
        guard decoding else { return response.body }
        return ResponseBody(try response.body.decodingContent(response.head.headerFields[.contentEncoding]))
    }

    /// The message for a body that could not be decoded, naming the request
    /// and the answer whose body it is.
    static func message(for error: ContentDecodingError, of request: PreparedRequest, answer: HTTPResponse) -> String {
        let target = request.url.map { "\(request.head.method) \($0.absoluteString)" } ?? "\(request.head.method)"
        let encoding = answer.headerFields[.contentEncoding].map { ", Content-Encoding: \($0)" } ?? ""
        return "the response to \(target) (\(answer.status.code) \(answer.status.reasonPhrase)\(encoding)) could not be decoded: \(error)"
    }
}
