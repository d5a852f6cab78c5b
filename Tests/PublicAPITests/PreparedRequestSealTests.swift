// Tests in this target use the products as a user's package does: plain
// imports (never `@testable`), only what the README and the doc comments show.

import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

/// A middleware changes a prepared request only through `updating`, which
/// derives the head again with `wireHead`: it cannot make the head promise
/// other framing than the body's, or another Host than the authority's.
@Suite("A middleware cannot set framing fields or Host behind wireHead's back")
struct PreparedRequestSealTests {
    /// Sets one field on every request it passes on.
    struct SettingField: RequestMiddleware {
        let name: HTTPField.Name
        let value: String
        func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
            try await next(request.updating { $0.headerFields[name] = value })
        }
    }

    static func post() throws -> PreparedRequest {
        try HTTPRequestBuilder.post("https://api.example.com/notes").body(.text("hello")).build()
    }

    @Test("Content-Length, Transfer-Encoding and Host set by a middleware are refused, naming the field, and nothing is sent", arguments: [
        ("Content-Length", "1"),
        ("Content-Length", "500"),
        ("Transfer-Encoding", "chunked"),
        ("Host", "elsewhere.example.com"),
    ])
    func framingAndHostAreRefused(name: String, value: String) async throws {
        let stub = StubTransport()
        let field = try #require(HTTPField.Name(name))
        let client = RequestClient(transport: stub, middleware: [SettingField(name: field, value: value)])
        let error = await #expect(throws: RequestError.self) { try await client.send(Self.post()) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains(name) == true, "\(String(describing: error))")
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test("Another field set by a middleware is sent, with the framing the body implies")
    func otherFieldsAreSentWithDerivedFraming() async throws {
        let stub = StubTransport()
        let client = RequestClient(transport: stub, middleware: [SettingField(name: .authorization, value: "Bearer t")])
        _ = try await client.send(Self.post())
        let head = try #require(stub.receivedRequests.first).head
        #expect(head.headerFields[.authorization] == "Bearer t")
        #expect(head.headerFields[.contentLength] == "5")
        #expect(head.headerFields[HTTPField.Name("Host")!] == "api.example.com")
        #expect(head.headerFields[.transferEncoding] == nil)
    }

    @Test("A new body through updating(body:) brings its own framing; the old Content-Length does not survive")
    func replacedBodyIsFramedAgain() throws {
        let request = try Self.post().updating(body: .bytes(Array("a longer body".utf8), contentType: nil))
        #expect(request.head.headerFields[.contentLength] == "13")
        let empty = try Self.post().updating(body: nil)
        #expect(empty.head.headerFields[.contentLength] == "0")
        let streamed = try Self.post().updating(body: .stream(AsyncStream<[UInt8]> { $0.finish() }, length: nil))
        #expect(streamed.head.headerFields[.contentLength] == nil)
        #expect(streamed.head.headerFields[.transferEncoding] == "chunked")
    }
}
