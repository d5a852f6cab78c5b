import Foundation
import HTTPBody
import HTTPTypes
import TestSupport
import Testing

@Suite struct RawHTTPRequestTests {
    private func post(_ path: String = "/upload", fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: .post, scheme: "http", authority: "example.com:8080", path: path, headerFields: fields)
    }

    @Test func writesKnownLengthBodyWithContentLength() async throws {
        let raw = try RawHTTPRequest(post(fields: [.accept: "*/*"]), body: .text("héllo"))
        expectGolden(try await raw.collect(), named: "text.http")
    }

    @Test func writesUnknownLengthBodyWithChunkedFraming() async throws {
        let parts: [[UInt8]] = [Array("abc".utf8), [], Array(repeating: 0x7A, count: 20)]
        let stream = AsyncStream<[UInt8]> { continuation in
            for part in parts { continuation.yield(part) }
            continuation.finish()
        }
        let raw = try RawHTTPRequest(post(), body: .stream(stream, contentType: nil))
        #expect(raw.isChunked)
        expectGolden(try await raw.collect(), named: "chunked.http")
    }

    @Test func writesRequestWithoutBody() async throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/a?b=c")
        expectGolden(try await RawHTTPRequest(request, body: nil).collect(), named: "get.http")
    }

    @Test func writesEmptyBodyAsZeroLength() async throws {
        expectGolden(try await RawHTTPRequest(post(), body: .empty).collect(), named: "empty.http")
    }

    @Test func replacesCallerFramingWithTheBodys() throws {
        let fields: HTTPFields = [.contentLength: "999", .transferEncoding: "chunked", .contentType: "text/csv"]
        let raw = try RawHTTPRequest(post(fields: fields), body: .text("a,b"))
        #expect(raw.headerFields[.contentLength] == "3")
        #expect(raw.headerFields[.transferEncoding] == nil)
        #expect(raw.headerFields[.contentType] == "text/csv")
    }

    @Test func rejectsPathWithSpace() {
        #expect(throws: RawHTTPRequestError.self) {
            try RawHTTPRequest(post("/a b"), body: nil)
        }
    }
}
