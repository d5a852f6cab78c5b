import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

@Suite("sendWithProgress: upload progress as an async sequence, then the response")
struct ProgressSequenceTests {
    static let size = 4 * 1024 * 1024

    static func upload(to server: TestHTTPServer) throws -> PreparedRequest {
        try HTTPRequestBuilder(.post, server.url(path: "/up")).data(Data(count: size)).build()
    }

    @Test("Progress rises to the body's size, the sequence ends with the send, and the response follows")
    func progressRisesToTheSizeAndEnds() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(201, body: "stored")]))
        let upload = RequestClient(transport: AsyncHTTPClientTransport()).sendWithProgress(try Self.upload(to: server))

        var reports: [UploadProgress] = []
        for await progress in upload.progress { reports.append(progress) }
        let response = try await upload.response
        try await server.stop()

        #expect(!reports.isEmpty)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesSent <= $1.bytesSent })
        #expect(reports.last?.bytesSent == Int64(Self.size))
        #expect(reports.allSatisfy { $0.totalBytes == Int64(Self.size) })
        #expect(response.status == .created)
        #expect(String(decoding: response.body, as: UTF8.self) == "stored")
        #expect(server.requests.count == 1)
    }

    @Test("Awaiting only the response, without reading progress or keeping the value, completes the send")
    func responseAloneCompletes() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "ok", delay: .milliseconds(200))]))
        let client = RequestClient(transport: AsyncHTTPClientTransport())
        let response = try await client.sendWithProgress(try Self.upload(to: server)).response
        try await server.stop()
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }

    @Test("Cancelling the task that reads progress cancels the send and closes its connection")
    func cancellingTheReaderCancelsTheSend() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, delay: .seconds(60))]))
        let upload = RequestClient(transport: AsyncHTTPClientTransport()).sendWithProgress(try Self.upload(to: server))
        let reader = Task {
            for await _ in upload.progress {}
        }
        // Cancelled once the server holds the whole request, waiting to answer.
        while server.requests.first?.isComplete != true { try await Task.sleep(for: .milliseconds(10)) }
        reader.cancel()

        let error = await #expect(throws: RequestError.self) { try await upload.response }
        #expect(error?.code == .cancelled)
        #expect(try await server.waitForClosedConnections())
        try await server.stop()
    }
}
