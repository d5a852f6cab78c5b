import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession
import TestSupport
import Testing

/// On Linux URLSession holds a body about twice in memory (issue #25, item 3:
/// a 1 GiB upload peaked at 2,084 MiB), so `URLSessionTransport` refuses a
/// body over its `maximumBodySize` before sending anything, whether its
/// length is known (a file) or found while it is staged (a stream).
@Suite struct URLSessionBodyLimitTests {
    @Test func theDefaultLimitIsStatedForThisPlatform() {
        #if canImport(FoundationNetworking)
        #expect(URLSessionTransport().maximumBodySize == 64 << 20)
        #else
        #expect(URLSessionTransport().maximumBodySize == nil)
        #endif
    }

    @Test(arguments: [false, true])
    func aBodyOverTheLimitIsRefusedAndNothingIsSent(lengthKnown: Bool) async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let staging = directory.appending(path: "staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let limit: Int64 = 1 << 20
        let (file, _) = try TransportIntegrationTests.makeFile(size: Int(limit) + 1, in: directory)
        let body: RequestBody
        if lengthKnown {
            body = try .file(at: file)
        } else {
            let chunks = AsyncStream<[UInt8]> { continuation in
                for _ in 0..<64 { continuation.yield([UInt8](repeating: 1, count: 64 << 10)) }  // 4 MiB, never all staged
                continuation.finish()
            }
            body = .stream(chunks)
        }
        let transport = URLSessionTransport(inMemoryLimit: 1024, stagingDirectory: staging, maximumBodySize: limit)
        let request = try TransportIntegrationTests.request(.put, server, body: body)
        let error = await #expect(throws: RequestError.self) {
            try await RequestClient(transport: transport).send(request)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("maximumBodySize of \(limit) bytes") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("AsyncHTTPClientTransport") == true)
        #expect(server.requests.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)
        try await server.stop()
    }

    @Test func aBodyAtTheLimitIsSent() async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit: Int64 = 1 << 20
        let (file, _) = try TransportIntegrationTests.makeFile(size: Int(limit), in: directory)
        let transport = URLSessionTransport(inMemoryLimit: 1024, stagingDirectory: directory, maximumBodySize: limit)
        let response = try await RequestClient(transport: transport).send(try TransportIntegrationTests.request(.put, server, body: try .file(at: file)))
        #expect(response.status == .ok)
        #expect(server.requests.first?.bodyByteCount == limit)
        try await server.stop()
    }
}
