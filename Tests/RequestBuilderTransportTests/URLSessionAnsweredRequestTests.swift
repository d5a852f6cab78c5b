import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession
import TestSupport
import Testing

/// URLSessionTransport never sends an answered request again.
@Suite struct URLSessionAnsweredRequestTests {
    /// A multipart form well over the transport's in-memory limit: a file part
    /// and a stream part, so nothing of its length is known up front.
    static func form(fileSize: Int, in directory: URL) throws -> (MultipartFormData, [UInt8]?) {
        let (file, bytes) = try TransportIntegrationTests.makeFile(size: fileSize, in: directory)
        var form = MultipartFormData()
        form.append(stream: AsyncStream { $0.yield(Array("a streamed note".utf8)); $0.finish() }, name: "note")
        try form.appendFile(at: file, name: "file", contentType: .octetStream)
        return (form, bytes)
    }

    @Test func aPostAnsweredWithABodyCutShortIsSentOnce() async throws {
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (form, _) = try Self.form(fileSize: 6 << 20, in: directory)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nContent-Length: \(10 << 20)\r\n\r\n", chunk: [UInt8](repeating: 1, count: 4096), count: 16)
        }
        let client = RequestClient(
            transport: URLSessionTransport(),
            middleware: [RetryMiddleware(maximumAttempts: 4, retriesNonIdempotentRequests: true, sleep: { _ in })]
        )
        for body in [RequestBody.text("payload"), try .multipart(form)] {
            let error = await #expect(throws: RequestError.self) { try await client.send(try HostileServerTests.post(server.url(), body: body)) }
            #expect(error?.code == .transport)
        }
        #expect(server.requestCount == 2, "each POST was answered, so each is sent once")
        try await server.stop()
    }
}
