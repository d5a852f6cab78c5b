import Foundation
import HTTPBody
import HTTPTypes
import MultipartKit
import RequestBuilder
import TestSupport
import Testing

/// Multipart uploads through both transports, parsed on arrival by
/// multipart-kit (which shares no code with our encoder).
@Suite struct MultipartUploadTests {
    @Test(arguments: TransportIntegrationTests.Kind.allCases)
    func uploadsEveryPartByteForByte(kind: TransportIntegrationTests.Kind) async throws {
        let server = try await TestHTTPServer.start()
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, fileBytes) = try TransportIntegrationTests.makeFile(size: 5 * 1024 * 1024 + 1, in: directory)
        let binary = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var form = MultipartFormData()
        form.append("Sunset \u{1F305}", name: "title")
        form.append(Data(binary), name: "blob", filename: "blob.bin", contentType: .octetStream)
        try form.appendFile(at: file, name: "photo", contentType: .octetStream)
        let request = try TransportIntegrationTests.request(.post, server, body: try .multipart(form))
        _ = try await RequestClient(transport: kind.make()).send(request)
        try await server.stop()

        let received = try #require(server.requests.first)
        let contentType = try #require(received.header("Content-Type"))
        #expect(contentType == "multipart/form-data; boundary=\(form.boundary.value)")
        let parts = try Self.parse(try #require(received.body), boundary: form.boundary.value)
        try #require(parts.count == 3)
        #expect(parts[0].body == Array("Sunset \u{1F305}".utf8))
        #expect(parts[1].body == binary)
        #expect(parts[2].body == fileBytes)
        #expect(parts[2].headers.contains { $0.hasPrefix("Content-Disposition: form-data; name=\"photo\"; filename=\"body-") })
    }

    struct Part {
        var headers: [String] = []
        var body: [UInt8] = []
    }

    static func parse(_ bytes: [UInt8], boundary: String) throws -> [Part] {
        final class Collector {
            var parts: [Part] = []
            var current = Part()
        }
        let collector = Collector()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in collector.current.headers.append("\(name): \(value)") }
        parser.onBody = { buffer in collector.current.body.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            collector.parts.append(collector.current)
            collector.current = Part()
        }
        try parser.execute(bytes)
        return collector.parts
    }
}
