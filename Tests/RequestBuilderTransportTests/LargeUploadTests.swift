import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// A 1 GiB file streamed through AsyncHTTPClient in bounded memory.
@Suite struct LargeUploadTests {
    @Test func streamsOneGibibyteFileInBoundedMemory() async throws {
        let size = 1 << 30
        let server = try await TestHTTPServer.start(recordLimit: 0)
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, _) = try TransportIntegrationTests.makeFile(size: size, in: directory)
        let before = PeakMemory.residentBytes()  // the peak so far
        let request = try TransportIntegrationTests.request(.put, server, body: try .file(at: file))
        let response = try await RequestClient(transport: AsyncHTTPClientTransport()).send(request)
        try await server.stop()
        #expect(response.status == .ok)
        #expect(server.requests.first?.bodyByteCount == Int64(size))
        #expect(server.requests.first?.isComplete == true)
        // The server shares this process, so this bounds both; a body held in
        // memory would add a whole GiB.
        if let before, let after = PeakMemory.residentBytes() {
            #expect(after - before < 256 << 20, "peak resident memory grew by \(after - before) bytes")
        }
    }
}

/// The process's peak resident set size, `VmHWM` in `/proc/self/status` (Linux only).
enum PeakMemory {
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        let number = line.dropFirst("VmHWM:".count).split(separator: " ").first
        return number.flatMap { Int($0) }.map { $0 * 1024 }
    }
}
