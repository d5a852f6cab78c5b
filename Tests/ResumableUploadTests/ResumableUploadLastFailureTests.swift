import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import TestSupport
import Testing

/// An upload that fails on every attempt, differently each time, throws
/// the failure that ended it: the one a user must act on, not one the
/// retries already went past.
@Suite struct ResumableUploadLastFailureTests {
    static let client = RequestClient(transport: AsyncHTTPClientTransport())

    static func reply(_ status: String, _ headers: [String] = []) -> RawResponseServer.Reply {
        .text("HTTP/1.1 \(status)", headers: headers + ["Content-Length: 0"])
    }

    @Test("Draft: three failed attempts (503, 502, 504) throw the 504")
    func draftThrowsItsLastFailure() async throws {
        let fixture = try UploadFixture(size: 1_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("201 Created", ["Location: /upload/1"])
            case 1: Self.reply("503 Service Unavailable")  // the append
            case 2: Self.reply("502 Bad Gateway")  // the retry's offset probe
            default: Self.reply("504 Gateway Timeout")  // the next retry's probe
            }
        }
        defer { Task { try? await server.stop() } }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/files")).body(try RequestBody.file(at: fixture.file)).build()
        let upload = try ResumableUpload(request, chunkSize: 1_000, retry: quickRetry(attempts: 3))
        let error = await #expect(throws: (any Error).self) {
            _ = try await upload.send(with: Self.client)
        }
        let text = String(describing: error)
        #expect(text.contains("504"), "\(text)")
        #expect(!text.contains("503") && !text.contains("502"), "\(text)")
        #expect(server.requestCount == 4)
    }

    @Test("tus: three failed attempts (503, 502, 504) throw the 504")
    func tusThrowsItsLastFailure() async throws {
        let fixture = try UploadFixture(size: 1_000)
        defer { fixture.remove() }
        let tus = ["Tus-Resumable: 1.0.0"]
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", tus + ["Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", tus + ["Location: /files/1"])
            case 2: Self.reply("503 Service Unavailable", tus)  // the PATCH
            case 3: Self.reply("502 Bad Gateway", tus)  // the retry's HEAD
            default: Self.reply("504 Gateway Timeout", tus)  // the next retry's HEAD
            }
        }
        defer { Task { try? await server.stop() } }
        let upload = try TusUpload(
            creationURL: server.url(path: "/files/"), body: try RequestBody.file(at: fixture.file), chunkSize: 1_000, retry: quickRetry(attempts: 3)
        )
        let error = await #expect(throws: (any Error).self) {
            _ = try await upload.send(with: Self.client)
        }
        let text = String(describing: error)
        #expect(text.contains("504"), "\(text)")
        #expect(!text.contains("503") && !text.contains("502"), "\(text)")
        #expect(server.requestCount == 5)
    }
}
