import Foundation
import HTTPBody
import HTTPBodyTesting
import HTTPTypes
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

    /// The limit is the body's alone, the head not counted against it; any
    /// limit is taken (`Int.max` once overflowed, a trap, when the head's size
    /// was added to it).
    @Test func collectLimitsTheBodyAloneAndTakesAnyLimit() async throws {
        let raw = try RawHTTPRequest(post(), body: .text("abc"))
        let whole = try await raw.collect(upTo: .max)
        #expect(whole.suffix(3) == Array("abc".utf8))
        #expect(try await raw.collect(upTo: 3) == whole)
        let error = await #expect(throws: RequestBodyError.self) { try await raw.collect(upTo: 2) }
        #expect(error?.code == .tooLarge)
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

    @Test(arguments: ["", "/a\r\nX-Injected: 1", "/caf\u{E9}"])
    func rejectsPathARequestLineCannotCarryNamingIt(path: String) throws {
        let error = try #require(throws: RawHTTPRequestError.self) { try RawHTTPRequest(post(path), body: nil) }
        #expect(error.description.hasPrefix("The request path "))
        #expect(!error.description.contains("\r") && !error.description.contains("\n"), "the message must stay one line")
    }

    @Test(arguments: ["", "exa mple.com", "host\r\nX-Injected: 1"])
    func rejectsAuthorityAHostLineCannotCarryNamingIt(authority: String) throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/")
        let error = try #require(throws: RawHTTPRequestError.self) { try RawHTTPRequest(request, body: nil) }
        #expect(error.description.hasPrefix("The request authority (host) "))
        #expect(!error.description.contains("\r") && !error.description.contains("\n"), "the message must stay one line")
    }

    /// Found while writing the fuzz target's invariants: a bodiless request
    /// kept a caller's framing fields and promised a body that never came.
    @Test func dropsCallerFramingFromRequestWithoutBody() async throws {
        let fields: HTTPFields = [.contentLength: "5", .transferEncoding: "chunked", .accept: "*/*"]
        let request = HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/", headerFields: fields)
        let bytes = try await RawHTTPRequest(request, body: nil).collect()
        #expect(String(decoding: bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n")
    }

    /// Found by the FuzzRawHTTPRequest target.
    @Test func rejectsTwoHostFieldsWithoutAuthority() throws {
        let host = try #require(HTTPField.Name("Host"))
        let fields = HTTPFields([HTTPField(name: host, value: "a.example"), HTTPField(name: host, value: "b.example")])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/", headerFields: fields)
        let error = try #require(throws: RawHTTPRequestError.self) { try RawHTTPRequest(request, body: nil) }
        #expect(error.description.contains("more than one Host"))
    }

    /// A Host field replaces the authority's Host line: AsyncHTTPClient and
    /// URLSession send the field, so a dry run that wrote the authority
    /// disagreed with the wire (the uploader's `Host:` item). One line either way.
    @Test func writesTheHostFieldAsTheOneHostLine() async throws {
        let fields = HTTPFields([HTTPField(name: try #require(HTTPField.Name("Host")), value: "other.example")])
        let request = HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/", headerFields: fields)
        let bytes = try await RawHTTPRequest(request, body: nil).collect()
        #expect(String(decoding: bytes, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: other.example\r\n\r\n")
    }

    /// A Host value that begins with a combining mark is written byte for
    /// byte after `Host: `. Compared as bytes: as Strings, the space and the
    /// mark are one Character, and canonical equivalence hides a changed byte.
    @Test func writesAHostValueThatBeginsWithACombiningMarkByteForByte() async throws {
        let value = "\u{0363} \u{FFFD}\u{FFFD}t"
        let fields = HTTPFields([HTTPField(name: try #require(HTTPField.Name("Host")), value: value)])
        let request = HTTPRequest(method: .post, scheme: "http", authority: nil, path: "/", headerFields: fields)
        let bytes = try await RawHTTPRequest(request, body: nil).collect()
        let expected = Array("POST / HTTP/1.1\r\nHost: ".utf8) + Array(value.utf8) + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(bytes == expected)
    }
}
