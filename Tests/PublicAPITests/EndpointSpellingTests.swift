// The spellings people write for an endpoint's members, each sent to a real
// server: a member spelled another way must reach the wire or be refused,
// never be passed over for a protocol default.

import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// `GET /me` on a given server; each conforming type spells `headers` its own way.
protocol ProfileEndpoint: Endpoint where Response == Data {
    var base: URL { get }
}

extension ProfileEndpoint {
    var baseURL: URL { base }
    var path: [String] { ["me"] }
    var method: HTTPRequest.Method { .get }
    var task: HTTPTask { .plain }
}

@Suite("Endpoint members as users spell them, each reaching the wire")
struct EndpointSpellingTests {
    struct KeychainError: Error, CustomStringConvertible {
        var description: String { "the keychain is locked" }
    }

    /// Untyped `throws`, what most people type.
    struct UntypedThrowingHeaders: ProfileEndpoint {
        let base: URL
        let token: String
        var headers: HTTPFields {
            get throws {
                guard !token.isEmpty else { throw KeychainError() }
                return HTTPFields([try .authorization(bearer: token)])
            }
        }
    }

    /// Moya's type, `[String: String]?`.
    struct DictionaryHeaders: ProfileEndpoint {
        let base: URL
        var method: HTTPRequest.Method { .post }
        var task: HTTPTask { .json(["name": "Ada"]) }
        var headers: [String: String]? { ["X-Trace": "t-1", "Authorization": "Bearer abc"] }
    }

    /// Typed `throws` with the user's own error type.
    struct TypedThrowingDictionaryHeaders: ProfileEndpoint {
        let base: URL
        var headers: [String: String] { get throws(KeychainError) { ["Authorization": "Bearer typed"] } }
    }

    /// A field list.
    struct ArrayHeaders: ProfileEndpoint {
        let base: URL
        var headers: [HTTPField] { [HTTPField(name: .accept, value: "text/plain")] }
    }

    static func withServer(
        _ script: TestHTTPServer.Script = .countBytes,
        _ body: (TestHTTPServer, RequestClient) async throws -> Void
    ) async throws {
        let server = try await TestHTTPServer.start(script: script)
        do {
            try await body(server, RequestClient(transport: AsyncHTTPClientTransport()))
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("headers with an untyped throwing getter reach the server")
    func untypedThrowingHeadersReachTheWire() async throws {
        try await Self.withServer { server, client in
            _ = try await client.send(UntypedThrowingHeaders(base: server.url(), token: "s3cret"))
            #expect(server.requests.map { $0.header("authorization") } == ["Bearer s3cret"])
        }
    }

    @Test("An error from the headers getter is an invalid request naming the endpoint, and nothing is sent")
    func throwingHeadersGetterIsReported() async throws {
        try await Self.withServer { server, client in
            let error = await #expect(throws: RequestError.self) {
                try await client.send(UntypedThrowingHeaders(base: server.url(), token: ""))
            }
            #expect(error?.code == .invalidRequest)
            #expect(error?.description.contains("UntypedThrowingHeaders") == true, "\(String(describing: error))")
            #expect(error?.description.contains("the keychain is locked") == true)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("[String: String]? headers reach the server, in name order")
    func dictionaryHeadersReachTheWire() async throws {
        try await Self.withServer { server, client in
            _ = try await client.send(DictionaryHeaders(base: server.url()))
            let request = try #require(server.requests.first)
            #expect(request.header("x-trace") == "t-1")
            #expect(request.header("authorization") == "Bearer abc")
            let names = request.headers.map { $0.name.lowercased() }
            let authorization = try #require(names.firstIndex(of: "authorization"))
            let trace = try #require(names.firstIndex(of: "x-trace"))
            #expect(authorization < trace)
        }
    }

    @Test("[String: String] headers behind a typed throwing getter reach the server")
    func typedThrowingDictionaryHeadersReachTheWire() async throws {
        try await Self.withServer { server, client in
            _ = try await client.send(TypedThrowingDictionaryHeaders(base: server.url()))
            #expect(server.requests.map { $0.header("authorization") } == ["Bearer typed"])
        }
    }

    @Test("[HTTPField] headers reach the server")
    func arrayHeadersReachTheWire() async throws {
        try await Self.withServer { server, client in
            _ = try await client.send(ArrayHeaders(base: server.url()))
            #expect(server.requests.map { $0.header("accept") } == ["text/plain"])
        }
    }

    @Test("A dictionary header that cannot be sent is refused, naming it")
    func badDictionaryHeaderIsRefused() throws {
        struct Bad: Endpoint {
            typealias Response = Data
            var baseURL: URL { URL(filePath: "/") }
            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: [String: String] { ["X-Note": "line\r\nInjected: yes"] }
        }
        let error = #expect(throws: RequestError.self) { try Bad().prepare() }
        #expect(error?.description.contains("X-Note") == true, "\(String(describing: error))")
    }

    /// Moya's `sampleData: Data`, not optional.
    struct MoyaSample: Endpoint {
        typealias Response = Greeting
        var baseURL: URL { URL(string: "https://api.example.com") ?? URL(filePath: "/") }
        var path: [String] { ["greeting"] }
        var method: HTTPRequest.Method { .get }
        var task: HTTPTask { .plain }
        var headers: [String: String]? { nil }
        var sampleData: Data { Data(#"{"text": "sample"}"#.utf8) }
    }

    struct Greeting: Decodable, Equatable {
        var text: String
    }

    @Test("sampleData declared as Data (Moya's) is what a stub answers and decodeSample decodes")
    func nonOptionalSampleDataIsUsed() async throws {
        #expect(try MoyaSample().decodeSample() == Greeting(text: "sample"))
        let client = RequestClient(transport: StubTransport([.sample(of: MoyaSample())]))
        #expect(try await client.send(MoyaSample()) == Greeting(text: "sample"))
    }

    @Test("sampleData of another type is refused, naming it")
    func sampleDataOfAnotherTypeIsRefused() throws {
        struct TextSample: Endpoint {
            typealias Response = Greeting
            var baseURL: URL { URL(string: "https://api.example.com") ?? URL(filePath: "/") }
            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: HTTPFields { [:] }
            var sampleData: String { #"{"text": "sample"}"# }
        }
        let error = #expect(throws: RequestError.self) { try TextSample().decodeSample() }
        #expect(error?.description.contains("String") == true, "\(String(describing: error))")
    }
}
