import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import TestSupport
import Testing

/// Both clients against raw-socket servers that break the protocols exactly
/// as issue #24 describes: offsets that jump, skip or never move, a
/// completing answer whose body breaks, a Location on another origin.
@Suite struct HostileUploadServerTests {
    static let client = RequestClient(transport: AsyncHTTPClientTransport())

    static func reply(_ status: String, _ headers: [String] = [], body: String = "") -> RawResponseServer.Reply {
        .text("HTTP/1.1 \(status)", headers: headers + ["Content-Length: \(body.utf8.count)"], body: body)
    }

    /// The methods of the requests `server` received, in order.
    static func methods(_ server: RawResponseServer) -> [String] {
        server.receivedHeads.map { String(decoding: $0.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self) }
    }

    static func fixtureBody(_ size: Int) throws -> (RequestBody, UploadFixture) {
        let fixture = try UploadFixture(size: size)
        return (try RequestBody.file(at: fixture.file), fixture)
    }

    @Test(
        "tus: a PATCH answered with an offset other than start + bytes sent is a protocol error after that one PATCH",
        arguments: [3_000_000, 1_048_576 + 1_000, 1_048_576 - 1_000]
    )
    func tusOffsetMustBeExact(reported: Int) async throws {
        let (body, fixture) = try Self.fixtureBody(3_000_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: /files/1"])
            default: Self.reply("204 No Content", ["Tus-Resumable: 1.0.0", "Upload-Offset: \(reported)"])
            }
        }
        defer { Task { try? await server.stop() } }
        let upload = try TusUpload(creationURL: server.url(path: "/files/"), body: body, chunkSize: 1 << 20, retry: quickRetry(attempts: 3))
        let error = await #expect(throws: ResumableUploadError.self) {
            _ = try await upload.send(with: Self.client)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.description.contains("reports Upload-Offset \(reported), not 1048576") == true, "\(String(describing: error))")
        #expect(Self.methods(server) == ["OPTIONS", "POST", "PATCH"])
    }

    /// The server made the upload, so it takes the body: an append over
    /// `continueThreshold` goes at once, with no `Expect: 100-continue` to
    /// hold it a second for an interim answer that never comes.
    @Test("An append larger than the continue threshold goes without Expect: 100-continue")
    func appendsAreNotHeldForContinue() async throws {
        let (body, fixture) = try Self.fixtureBody(3_000_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: /files/1"])
            case 2: Self.reply("204 No Content", ["Tus-Resumable: 1.0.0", "Upload-Offset: 2097152"])
            default: Self.reply("204 No Content", ["Tus-Resumable: 1.0.0", "Upload-Offset: 3000000"])
            }
        }
        defer { Task { try? await server.stop() } }
        let upload = try TusUpload(creationURL: server.url(path: "/files/"), body: body, chunkSize: 2 << 20, retry: quickRetry(attempts: 1))
        _ = try await upload.send(with: Self.client)
        #expect(Self.methods(server) == ["OPTIONS", "POST", "PATCH", "PATCH"])
        for head in server.receivedHeads.dropFirst(2) {
            let text = String(decoding: head, as: UTF8.self).lowercased()
            #expect(!text.contains("expect:"), "\(text)")
        }
    }

    /// A draft upload begins with the request as built, which carries
    /// `Expect: 100-continue` for its large body; its appends do not.
    @Test("A draft upload's appends do not carry the Expect its first request had")
    func draftAppendsDropTheFirstRequestsExpect() async throws {
        let (body, fixture) = try Self.fixtureBody(3_000_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("201 Created", ["Location: /upload/1"])
            case 1: Self.reply("204 No Content", ["Upload-Offset: 2097152"])
            default: Self.reply("201 Created", ["Upload-Offset: 3000000", "Upload-Complete: ?1"])
            }
        }
        defer { Task { try? await server.stop() } }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/files")).body(body).build()
        #expect(request.head.headerFields[.expect] == "100-continue")
        let upload = try ResumableUpload(request, chunkSize: 2 << 20, retry: quickRetry(attempts: 1))
        _ = try? await upload.send(with: Self.client)
        let appends = server.receivedHeads.map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasPrefix("PATCH") }
        #expect(!appends.isEmpty, "\(Self.methods(server))")
        for text in appends {
            #expect(!text.lowercased().contains("expect:"), "\(text)")
        }
    }

    @Test("Draft: an append answered 204 with an offset that does not move stops at once, not after thousands of requests")
    func draftOffsetMustMove() async throws {
        let (body, fixture) = try Self.fixtureBody(10_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("201 Created", ["Location: /upload/1"])
            // Past 20 requests the old client would still be looping: a 404
            // ends it with another error than the one expected.
            case 1 ... 20: Self.reply("204 No Content", ["Upload-Offset: 0"])
            default: Self.reply("404 Not Found")
            }
        }
        defer { Task { try? await server.stop() } }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/files")).body(body).build()
        let upload = try ResumableUpload(request, chunkSize: 1_000, retry: quickRetry(attempts: 3))
        let error = await #expect(throws: ResumableUploadError.self) {
            _ = try await upload.send(with: Self.client)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.description.contains("reports Upload-Offset 0, not 1000") == true, "\(String(describing: error))")
        #expect(server.requestCount == 2)
    }

    @Test("Draft: the completing append answered 200 whose body breaks is never sent again")
    func draftAnsweredCompletionIsFinal() async throws {
        let (body, fixture) = try Self.fixtureBody(1_000)
        defer { fixture.remove() }
        let broken = RawResponseServer.Reply.bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nonly ten!!".utf8))
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("201 Created", ["Location: /upload/1"])
            // What the old client's offset probe (HEAD) got before it sent
            // the completing append again.
            case 2: Self.reply("204 No Content", ["Upload-Offset: 0"])
            default: broken
            }
        }
        defer { Task { try? await server.stop() } }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/files")).body(body).build()
        let upload = try ResumableUpload(request, retry: quickRetry(attempts: 4))
        await #expect(throws: (any Error).self) {
            _ = try await upload.send(with: Self.client)
        }
        #expect(Self.methods(server) == ["POST", "PATCH"])
    }

    @Test("Draft: a Location on another origin gets no Authorization or Cookie; the creation on the same origin does")
    func draftCrossOriginDropsCredentials() async throws {
        let (body, fixture) = try Self.fixtureBody(1_000)
        defer { fixture.remove() }
        let other = try await RawResponseServer.start { _ in Self.reply("200 OK", body: "ok") }
        defer { Task { try? await other.stop() } }
        let origin = try await RawResponseServer.start { _ in Self.reply("201 Created", ["Location: http://localhost:\(other.port)/upload/1"]) }
        defer { Task { try? await origin.stop() } }
        let request = try HTTPRequestBuilder(.post, origin.url(path: "/files"))
            .headers([.authorization: "Bearer sekrit-token", .cookie: "session=sekrit-cookie"])
            .body(body).build()
        let upload = try ResumableUpload(request, retry: quickRetry(attempts: 1))
        let response = try await upload.send(with: Self.client)
        #expect(response.status.code == 200)
        let sameOrigin = String(decoding: try #require(origin.receivedHeads.first), as: UTF8.self)
        #expect(sameOrigin.contains("sekrit-token") && sameOrigin.contains("sekrit-cookie"))
        let crossOrigin = String(decoding: try #require(other.receivedHeads.first), as: UTF8.self)
        #expect(crossOrigin.hasPrefix("PATCH /upload/1 "))
        #expect(!crossOrigin.contains("sekrit"), "\(crossOrigin)")
    }

    @Test(
        "tus: a Tus-Max-Size that is not a non-negative integer is a protocol error naming it, before anything is created",
        arguments: ["-096", "+5", "1e9", "99999999999999999999"]
    )
    func tusMaximumSizeMustBeANonNegativeInteger(size: String) async throws {
        let (body, fixture) = try Self.fixtureBody(1_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { _ in
            Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation", "Tus-Max-Size: \(size)"])
        }
        defer { Task { try? await server.stop() } }
        let upload = try TusUpload(creationURL: server.url(path: "/files/"), body: body, retry: quickRetry(attempts: 1))
        let error = await #expect(throws: ResumableUploadError.self) {
            _ = try await upload.send(with: Self.client)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.description.contains("Tus-Max-Size \(size.debugDescription) is not a non-negative integer") == true, "\(String(describing: error))")
        #expect(Self.methods(server) == ["OPTIONS"])
    }

    @Test("tus: a Location that is not http or https is refused, naming it")
    func tusNonHTTPLocationIsRefused() async throws {
        let (body, fixture) = try Self.fixtureBody(1_000)
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            index == 0
                ? Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
                : Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: file:///etc/passwd"])
        }
        defer { Task { try? await server.stop() } }
        let upload = try TusUpload(creationURL: server.url(path: "/files/"), body: body, retry: quickRetry(attempts: 1))
        let error = await #expect(throws: ResumableUploadError.self) {
            _ = try await upload.send(with: Self.client)
        }
        #expect(error?.description.contains("\"file:///etc/passwd\" is not an http or https URL") == true, "\(String(describing: error))")
        #expect(server.requestCount == 2)
    }

    @Test("A file rewritten in place with its size and modification time kept is refused on resume (ctime)")
    func rewriteKeepingMtimeIsNoticed() async throws {
        let fixture = try UploadFixture(size: 1_000)
        defer { fixture.remove() }
        // A stated type: sniffed, the rewritten bytes would change the
        // Content-Type, which is noticed without any ctime.
        let type = try #require(MediaType("application/octet-stream"))
        let creationURL = try #require(URL(string: "http://127.0.0.1:9/files"))
        let uploadURL = try #require(URL(string: "http://127.0.0.1:9/upload/1"))
        let request = try HTTPRequestBuilder(.post, creationURL).body(RequestBody.file(at: fixture.file, contentType: type)).build()
        let upload = try ResumableUpload(request, retry: quickRetry(attempts: 1))
        let state = ResumableUploadState(uploadProtocol: .draft, uploadURL: uploadURL, offset: 0, body: upload.bodyIdentity, draftVersion: 6)

        var before = stat()
        #expect(stat(fixture.file.path, &before) == 0)
        // Whole seconds apart on any file system's ctime resolution.
        try await Task.sleep(for: .milliseconds(1_100))
        let handle = try FileHandle(forWritingTo: fixture.file)
        try handle.write(contentsOf: Data(repeating: 0x41, count: 1_000))
        try handle.close()
        // UTIME_OMIT ((1 << 30) - 2, a macro Swift does not import): the
        // access time is left alone; the modification time is set back.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), before.st_mtim]
        #expect(utimensat(AT_FDCWD, fixture.file.path, &times, 0) == 0)

        let rebuilt = try HTTPRequestBuilder(.post, creationURL).body(RequestBody.file(at: fixture.file, contentType: type)).build()
        let resumed = try ResumableUpload(rebuilt, retry: quickRetry(attempts: 1))
        let error = await #expect(throws: ResumableUploadError.self) {
            _ = try await resumed.send(with: Self.client, resumingFrom: state)
        }
        #expect(error?.code == .bodyChanged, "\(String(describing: error))")
    }
}
