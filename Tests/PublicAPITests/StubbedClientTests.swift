// Tests in this target use the products as a user's package does: plain
// imports (never `@testable`), only what the README and the doc comments show.

import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

@Suite("A client with a stub transport, as a user's unit test writes it")
struct StubbedClientTests {
    struct Greeting: Decodable, Equatable {
        var text: String
    }

    @Test("The stub's reply decodes and the stub saw the request the builder made")
    func stubbedReplyDecodes() async throws {
        let stub = StubTransport([.json(#"{"text": "hi"}"#)])
        let client = RequestClient(transport: stub)
        let request = try HTTPRequestBuilder(.get, URL(string: "https://api.example.com/v1")!)
            .path(["greetings", "a/b"])
            .build()
        let greeting = try await client.send(request, decoding: Greeting.self)
        #expect(greeting == Greeting(text: "hi"))
        let received = stub.receivedRequests
        #expect(received.map(\.head.path) == ["/v1/greetings/a%2Fb"])
    }
}
