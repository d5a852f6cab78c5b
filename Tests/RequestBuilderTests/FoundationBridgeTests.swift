import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession
import TestSupport
import Testing

@Suite struct FoundationBridgeTests {
    /// The one framing field `urlRequestHead()` leaves out of `head`
    /// (docs/architecture.md, "Framing set past wireHead"): URLSession frames
    /// a body itself, so `Transfer-Encoding: chunked` is not handed to it;
    /// every other field is the head's, in order.
    @Test func urlRequestHeadLeavesOnlyTransferEncodingToURLSession() throws {
        let stream = AsyncStream<[UInt8]> { $0.yield(Array("hello".utf8)); $0.finish() }
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString).body(.stream(stream, length: nil)).build()
        #expect(request.head.headerFields[.transferEncoding] == "chunked")
        let urlRequest = try request.urlRequestHead()
        #expect(urlRequest.value(forHTTPHeaderField: "Transfer-Encoding") == nil)
        let expected = request.head.headerFields.filter { $0.name != .transferEncoding }
        for field in expected {
            #expect(urlRequest.value(forHTTPHeaderField: field.name.rawName) == field.value, "\(field.name)")
        }
        #expect(urlRequest.allHTTPHeaderFields?.count == expected.count)
    }

    @Test func urlRequestCarriesHeadBodyAndTimeout() async throws {
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString)
            .path("posts")
            .query("draft", "true")
            .bearer("token-1")
            .data(Data("hello".utf8), contentType: .plainText)
            .timeout(.milliseconds(2500))
            .build()
        let urlRequest = try await request.urlRequest()
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/posts?draft=true")
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Length") == "5")
        #expect(urlRequest.httpBody == Data("hello".utf8))
        #expect(urlRequest.timeoutInterval == 2.5)
    }

    @Test func bodyOverTheLimitIsNotLoadedIntoMemory() async throws {
        let file = try temporaryFile(named: "big.bin", contents: String(repeating: "z", count: 100))
        defer { removeTemporaryFolder(of: file) }
        let request = try HTTPRequestBuilder.put(TestAPI.baseURLString).file(at: file).build()
        await #expect(throws: RequestError.self) { try await request.urlRequest(inMemoryBodyLimit: 99) }
        let head = try request.urlRequestHead()
        #expect(head.httpBody == nil)
        #expect(head.httpBodyStream == nil)
        #expect(head.value(forHTTPHeaderField: "Content-Length") == "100")
    }

    @Test func curlCommandQuotesArgumentsAndInlinesTextBodies() async throws {
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString)
            .path("notes")
            .header("X-Note", "it's here")
            .data(Data("{\"a\": \"b c\"}".utf8), contentType: .json)
            .build()
        let command = await request.curlCommand()
        #expect(command == #"curl --request POST https://api.example.com/v1/notes --header 'X-Note: it'\''s here' --header 'Content-Type: application/json' --data-binary '{"a": "b c"}'"#)
    }

    @Test func curlCommandRefersToAFileForBinaryBodies() async throws {
        let request = try HTTPRequestBuilder.put(TestAPI.baseURLString).path("blob").data(Data([0, 1, 2])).build()
        let command = await request.curlCommand(bodyFile: "blob.bin")
        #expect(command.hasSuffix("--data-binary @blob.bin"))
    }

    @Test func getWithoutBodyHasNoMethodFlag() async throws {
        let request = try HTTPRequestBuilder.get(TestAPI.baseURLString).path("posts").query("q", "a b").build()
        #expect(await request.curlCommand() == "curl 'https://api.example.com/v1/posts?q=a%20b'")
    }

    @Test func writtenBodyFileMatchesTheMultipartBodyCurlSends() async throws {
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString).path("uploads")
            .multipart(boundary: try .constant(TestAPI.boundary)) { form in form.append("Sunset", name: "title") }
            .build()
        let file = try temporaryFile(named: "body.bin", contents: "stale")
        defer { removeTemporaryFolder(of: file) }
        try await request.writeBody(to: file)
        let expected = try #require(try await request.body?.collect())
        #expect(try [UInt8](Data(contentsOf: file)) == expected)
        let command = await request.curlCommand(bodyFile: file.path)
        #expect(command.contains("--header 'Content-Type: multipart/form-data; boundary=\(TestAPI.boundary)'"))
        #expect(command.hasSuffix("--data-binary @\(file.path)"))
    }
}
