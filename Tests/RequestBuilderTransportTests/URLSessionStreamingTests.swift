import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession
import TestSupport
import Testing

/// URLSessionTransport on Linux streams large bodies instead of copying
/// them, and an answered request is never sent again.
@Suite struct URLSessionStreamingTests {
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

    @Test func aLargeMultipartBodyArrivesWholeAndNothingIsStaged() async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let staging = directory.appending(path: "staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let (form, bytes) = try Self.form(fileSize: 12 << 20, in: directory)
        let request = try TransportIntegrationTests.request(.put, server, body: try .multipart(form))
        let stagedSeen = LockedValue(false)
        let lastProgress = LockedValue<UploadProgress?>(nil)
        let client = RequestClient(transport: URLSessionTransport(stagingDirectory: staging))
        let response = try await client.stream(request) { progress in
            lastProgress.withLock { $0 = progress }
            if (try? FileManager.default.contentsOfDirectory(atPath: staging.path()).isEmpty) == false { stagedSeen.withLock { $0 = true } }
        }
        _ = try await response.collect()
        try await server.stop()
        #expect(response.status == .ok)
        let received = try #require(server.requests.first?.body)
        let file = try #require(bytes)
        #expect(received.firstRange(of: file) != nil, "the file part arrived whole")
        #expect(received.firstRange(of: Array("a streamed note".utf8)) != nil)
        #if canImport(FoundationNetworking)
        #expect(!stagedSeen.withLock { $0 }, "streamed on Linux: no staged copy")
        #endif
        #expect(lastProgress.withLock { $0?.bytesSent } == Int64(received.count))
    }
}
