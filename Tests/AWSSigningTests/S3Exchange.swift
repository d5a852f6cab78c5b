import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One request to the S3 test server and its response, sent with
/// AsyncHTTPClient exactly as given (no header added but `Content-Length`).
struct S3Exchange {
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]

        /// The first value of a response header.
        func header(_ name: String) -> String? { headers.first(name: name) }

        /// The body as text, for the error codes in S3's XML answers.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func send(_ method: String, _ url: String, headers: [[String]], body: [UInt8]? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        request.headers = HTTPHeaders(headers.compactMap { pair in pair.count == 2 ? (pair[0], pair[1]) : nil })
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer: collected))
    }
}
