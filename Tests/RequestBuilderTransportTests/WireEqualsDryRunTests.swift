import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// The head a request is built with is the head on the wire: what
/// `RawHTTPRequest` (and so `uploader --dry-run`) prints is what
/// AsyncHTTPClient sends, byte for byte and in order, because both read the
/// one wire head `build()` derives. Field names are compared as spelt:
/// NIO's encoder rewrites the name of `Transfer-Encoding` as
/// `transfer-encoding` for methods that expect content (POST, PUT, PATCH),
/// and the wire head spells it so for them.
@Suite struct WireEqualsDryRunTests {
    /// The multipart request's file, removed after the test.
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("wire") }

    func requests(to url: URL) throws -> [(String, PreparedRequest)] {
        let base = url.absoluteString
        let file = folder.appending(path: "notes.txt")
        try Data("from disk\n".utf8).write(to: file)
        return [
            ("bodiless POST", try HTTPRequestBuilder.post(base).path("up").build()),
            ("GET with query, bearer and a Host field", try HTTPRequestBuilder.get(base).path("a b").query("q", "x y").bearer("t").header("Host", "other.example").build()),
            ("form", try HTTPRequestBuilder.put(base).form([("a", "1"), ("b", "é")]).header("X-Trace", "1").build()),
            (
                "multipart with a file",
                try HTTPRequestBuilder.post(base).multipart(boundary: try .constant("wire-boundary")) { form in
                    form.append("Sunset", name: "title")
                    try form.appendFile(at: file, name: "notes")
                }.build()
            ),
            ("gzip JSON, chunked", try HTTPRequestBuilder.post(base).json(["k": "v"]).gzip().contentType(.json).build()),
            ("PUT, chunked", try HTTPRequestBuilder.put(base).json(["k": "v"]).gzip().build()),
            ("DELETE, chunked", try HTTPRequestBuilder.delete(base).json(["k": "v"]).gzip().build()),
        ]
    }

    @Test func asyncHTTPClientSendsTheHeadRawHTTPRequestWrites() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 204 No Content") }
        defer { Task { try? await server.stop() } }
        let requests = try self.requests(to: server.url())
        let transport = AsyncHTTPClientTransport()
        for (index, (name, request)) in requests.enumerated() {
            // A chunked body may still be going out when the answer comes; only the head matters here.
            _ = try? await transport.send(request)
            let heads = server.receivedHeads
            try #require(heads.count == index + 1, "\(name): the server saw no head")
            #expect(String(decoding: heads[index], as: UTF8.self) == String(decoding: request.raw().head, as: UTF8.self), "\(name)")
        }
    }

    /// A path whose percent-encoded bytes are not UTF-8 (`%FF`): Foundation's
    /// `URL.path` is empty for it, and AsyncHTTPClient, which reads it, sent
    /// `GET /?q=1` where the built request (and the dry run) say `/a%FF`.
    @Test func pathWhoseEscapedBytesAreNotUTF8GoesOutAsBuilt() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 204 No Content") }
        defer { Task { try? await server.stop() } }
        let request = try HTTPRequestBuilder.get(server.url(path: "/a%FF/b%fe").absoluteString).query("q", "1").build()
        let response = try await AsyncHTTPClientTransport().send(request)
        #expect(response.status.code == 204)
        let head = try #require(server.receivedHeads.first)
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("GET /a%FF/b%fe?q=1 HTTP/1.1\r\n"))
        // Byte for byte as built: the transport's marker never reaches the wire.
        #expect(String(decoding: head, as: UTF8.self) == String(decoding: request.raw().head, as: UTF8.self))
    }

    /// RFC 9110, section 8.6, as AsyncHTTPClient writes it: a bodiless POST
    /// says `Content-Length: 0`; a bodiless GET says nothing.
    @Test func bodilessRequestsDeclareZeroLengthWhereTheMethodExpectsContent() throws {
        let post = String(decoding: try HTTPRequestBuilder.post("http://h/").build().raw().head, as: UTF8.self)
        let get = String(decoding: try HTTPRequestBuilder.get("http://h/").build().raw().head, as: UTF8.self)
        #expect(post == "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n")
        #expect(get == "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    }
}
