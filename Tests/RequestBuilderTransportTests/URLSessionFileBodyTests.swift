import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPBody
import HTTPTypes
import RequestBuilder
@testable import RequestBuilderURLSession
import TestSupport
import Testing

/// How URLSessionTransport sends a file body larger than its in-memory limit:
/// by its path on Apple platforms (no staged copy), staged on Linux.
@Suite struct URLSessionFileBodyTests {
    @Test(arguments: [true, false])
    func sendsALargeFileBodyWholeAndStagesOnlyWhenItMust(inPlace: Bool) async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let staging = directory.appending(path: "staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let (file, expected) = try TransportIntegrationTests.makeFile(size: 3 * 1024 * 1024 + 7, in: directory)
        let transport = URLSessionTransport(configuration: .ephemeral, inMemoryLimit: 64 * 1024, stagingDirectory: staging, sendsFilesInPlace: inPlace)
        let staged = LockedValue(false)
        let request = try HTTPRequestBuilder.put("http://127.0.0.1:\(server.port)").path("up").file(at: file).build()
        let response = try await transport.send(request) { _ in
            // The staged copy exists while the body goes out, and only then.
            if (try? FileManager.default.contentsOfDirectory(atPath: staging.path()).isEmpty) == false { staged.withLock { $0 = true } }
        }
        try await server.stop()
        #expect(response.status == .ok)
        #expect(server.requests.first?.body == expected)
        #expect(staged.withLock { $0 } == !inPlace, "a staged copy only when the file is not sent in place")
    }

    /// A body of unknown length is staged in a file, and the transport
    /// gives URLSession the staged file's length (docs/architecture.md,
    /// "Framing set past wireHead"): the server receives a Content-Length
    /// equal to the bytes, not chunks.
    @Test func aStagedStreamGoesWithTheLengthOfItsBytes() async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Array(repeating: UInt8(ascii: "z"), count: 100_003)
        let stream = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 4096) { continuation.yield(Array(bytes[start..<min(start + 4096, bytes.count)])) }
            continuation.finish()
        }
        let transport = URLSessionTransport(configuration: .ephemeral, inMemoryLimit: 1024, stagingDirectory: directory)
        let request = try HTTPRequestBuilder.post("http://127.0.0.1:\(server.port)").path("up").body(.stream(stream, length: nil)).build()
        #expect(request.head.headerFields[.transferEncoding] == "chunked")
        let response = try await transport.send(request)
        try await server.stop()
        #expect(response.status == .ok)
        #expect(server.requests.first?.header("Content-Length") == "100003")
        #expect(server.requests.first?.header("Transfer-Encoding") == nil)
        #expect(server.requests.first?.body == bytes)
    }

    @Test func linuxStagesAndApplePlatformsSendInPlace() {
        #if canImport(FoundationNetworking)
        #expect(!URLSessionTransport.platformSendsFilesInPlace)
        #else
        #expect(URLSessionTransport.platformSendsFilesInPlace)
        #endif
    }
}
