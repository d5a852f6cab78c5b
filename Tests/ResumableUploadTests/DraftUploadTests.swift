import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import TestSupport
import Testing

/// The IETF draft client against swift-nio-extras' NIOResumableUpload, with
/// connections cut by a proxy in between.
@Suite struct DraftUploadTests {
    static let client = RequestClient(transport: AsyncHTTPClientTransport())

    @Test("A file survives three cut connections in one send, each byte sent once", arguments: ResumableUpload.DraftVersion.allCases)
    func survivesThreeCuts(version: ResumableUpload.DraftVersion) async throws {
        let fixture = try UploadFixture(size: 24 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 5_000_000, cuts: 3)
        defer { proxy.stop() }

        let request = try HTTPRequestBuilder(.post, proxy.url(path: "/files/payload.bin")).file(at: fixture.file).build()
        let upload = try ResumableUpload(request, version: version, retry: quickRetry(attempts: 6))
        let states = Recorder<ResumableUploadState>()
        let progress = Recorder<Int64>()
        let response = try await upload.send(with: Self.client, stateChanged: { states.append($0) }, progress: { progress.append($0.bytesSent) })

        let answer = try JSONDecoder().decode(StoredAnswer.self, from: response.body)
        #expect(answer.sha256 == fixture.sha256)
        #expect(answer.bytes == Int64(fixture.size))
        let stats = try await proxy.stats()
        #expect(stats.cuts == 3)
        // The server keeps every byte it read: nothing of the body goes twice;
        // the rest is the requests' heads.
        #expect(stats.clientToServerBytes <= Int64(fixture.size) + 8 * 1024, "\(stats.clientToServerBytes) bytes sent for a \(fixture.size)-byte file")
        #expect(states.all.count == 4, "saved at creation and after each of the three resumes")
        #expect(Set(states.all.map(\.uploadURL)).count == 1)
        #expect(progress.all.last == Int64(fixture.size))
    }

    @Test("A saved state continues the upload in a new client value, from the server's offset")
    func resumesFromASavedState() async throws {
        let fixture = try UploadFixture(size: 16 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 6_000_000, cuts: 1)
        defer { proxy.stop() }
        let makeRequest = { try HTTPRequestBuilder(.put, proxy.url(path: "/files/state.bin")).file(at: fixture.file).build() }

        // The first run gives up at the cut, as a process killed there would stop.
        let states = Recorder<ResumableUploadState>()
        let first = try ResumableUpload(try makeRequest(), retry: quickRetry(attempts: 1))
        await #expect(throws: RequestError.self) {
            try await first.send(with: Self.client) { states.append($0) }
        }
        let saved = try #require(states.all.last)
        let stored = try JSONDecoder().decode(ResumableUploadState.self, from: JSONEncoder().encode(saved))

        let progress = Recorder<Int64>()
        let second = try ResumableUpload(try makeRequest())
        let response = try await second.send(with: Self.client, resumingFrom: stored, progress: { progress.append($0.bytesSent) })
        let answer = try JSONDecoder().decode(StoredAnswer.self, from: response.body)
        #expect(answer.sha256 == fixture.sha256)
        let firstReport = try #require(progress.all.first)
        #expect(firstReport > 5_000_000, "progress starts at the server's offset, not zero")
        let stats = try await proxy.stats()
        #expect(stats.clientToServerBytes <= Int64(fixture.size) + 8 * 1024)
    }

    /// Saving the kept state again with the server's offset would put a
    /// flush to disk between a restart and its first resumed byte, for an
    /// offset that is only a hint: the first state a resumed upload reports
    /// is the one its first append moves on.
    @Test("A resumed upload reports no state before its first byte, then each offset an append confirms")
    func resumedUploadReportsFromItsFirstConfirmedAppend() async throws {
        let fixture = try UploadFixture(size: 12 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 5_000_000, cuts: 1)
        defer { proxy.stop() }
        let makeRequest = { try HTTPRequestBuilder(.put, proxy.url(path: "/files/reports.bin")).file(at: fixture.file).build() }
        let firstStates = Recorder<ResumableUploadState>()
        await #expect(throws: RequestError.self) {
            try await ResumableUpload(try makeRequest(), retry: quickRetry(attempts: 1)).send(with: Self.client) { firstStates.append($0) }
        }
        let saved = try #require(firstStates.all.last)
        let second = try ResumableUpload(try makeRequest(), chunkSize: 2 << 20)
        let held = try await second.serverOffset(of: saved, with: Self.client)
        #expect(held > 0)

        let states = Recorder<ResumableUploadState>()
        let response = try await second.send(with: Self.client, resumingFrom: saved, stateChanged: { states.append($0) })
        let answer = try JSONDecoder().decode(StoredAnswer.self, from: response.body)
        #expect(answer.sha256 == fixture.sha256)
        let offsets = states.all.map(\.offset)
        #expect(offsets.first == held + (2 << 20), "reported offsets \(offsets), the server held \(held)")
        #expect(offsets == offsets.sorted() && Set(offsets).count == offsets.count, "\(offsets)")
        #expect(states.all.allSatisfy { $0.uploadURL == saved.uploadURL && $0.body == saved.body })
    }

    @Test("A multipart form with a fixed boundary resumes into the same bytes")
    func multipartResumes() async throws {
        let fixture = try UploadFixture(size: 8 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 3_000_000, cuts: 2)
        defer { proxy.stop() }
        let request = try HTTPRequestBuilder(.post, proxy.url(path: "/forms"))
            .multipart(boundary: try .constant("resumable-boundary-42")) { form in
                form.append("Holiday", name: "title")
                try form.appendFile(at: fixture.file, name: "video", contentType: .octetStream)
            }
            .build()
        let expected = try await request.body?.collect(upTo: 16 << 20) ?? []
        let upload = try ResumableUpload(request, retry: quickRetry(attempts: 4))
        #expect(upload.bodyIdentity.boundary == "resumable-boundary-42")
        let response = try await upload.send(with: Self.client)
        let answer = try JSONDecoder().decode(StoredAnswer.self, from: response.body)
        #expect(answer.sha256 == UploadFixtureDigest.sha256(expected))
    }

    @Test("A file changed since the state was saved is refused, and nothing is sent")
    func changedFileIsRefused() async throws {
        let fixture = try UploadFixture(size: 4 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 1_000_000, cuts: 1)
        defer { proxy.stop() }
        let makeRequest = { try HTTPRequestBuilder(.post, proxy.url(path: "/files/changed.bin")).file(at: fixture.file).build() }
        let states = Recorder<ResumableUploadState>()
        let first = try ResumableUpload(try makeRequest(), retry: quickRetry(attempts: 1))
        await #expect(throws: RequestError.self) {
            try await first.send(with: Self.client) { states.append($0) }
        }
        let saved = try #require(states.all.last)
        let connectionsBefore = try await proxy.stats().connections

        // Same size, new contents: only the modification time tells.
        let handle = try FileHandle(forWritingTo: fixture.file)
        try handle.seek(toOffset: 10)
        try handle.write(contentsOf: Data("changed".utf8))
        try handle.close()

        let upload = try ResumableUpload(try makeRequest())
        let error = await #expect(throws: ResumableUploadError.self) {
            try await upload.send(with: Self.client, resumingFrom: saved)
        }
        #expect(error?.code == .bodyChanged)
        #expect(error?.description.contains("payload.bin") == true, "\(String(describing: error))")
        #expect(try await proxy.stats().connections == connectionsBefore)
    }

    @Test("An upload URL the server does not know is reported as such")
    func unknownUploadIsNotFound() async throws {
        let fixture = try UploadFixture(size: 1024)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let request = try HTTPRequestBuilder(.post, server.url(path: "/files/x")).file(at: fixture.file).build()
        let upload = try ResumableUpload(request)
        let state = ResumableUploadState(uploadProtocol: .draft, uploadURL: server.url(path: "/resumable_upload/1-2"), offset: 0, body: upload.bodyIdentity, draftVersion: 6)
        let error = await #expect(throws: ResumableUploadError.self) { try await upload.send(with: Self.client, resumingFrom: state) }
        #expect(error?.code == .uploadNotFound)
    }

    @Test("Resumed past the start, the largest chunk size a caller can give sends the rest in one append, without overflow")
    func largestChunkSizeDoesNotOverflow() async throws {
        let fixture = try UploadFixture(size: 4 << 20)
        defer { fixture.remove() }
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 1_500_000, cuts: 1)
        defer { proxy.stop() }
        let request = try HTTPRequestBuilder(.post, proxy.url(path: "/files/max.bin")).file(at: fixture.file).build()
        let states = Recorder<ResumableUploadState>()
        let first = try ResumableUpload(request, chunkSize: 512 * 1024, retry: quickRetry(attempts: 1))
        await #expect(throws: RequestError.self) {
            try await first.send(with: Self.client) { states.append($0) }
        }
        let saved = try #require(states.all.last)
        #expect(saved.offset > 0)
        let response = try await ResumableUpload(request, chunkSize: .max).send(with: Self.client, resumingFrom: saved)
        #expect(try JSONDecoder().decode(StoredAnswer.self, from: response.body).sha256 == fixture.sha256)
    }

    @Test("A stream or a gzip body cannot be resumed, and says why")
    func unresumableBodiesAreRefused() throws {
        let gzip = try HTTPRequestBuilder.post("http://127.0.0.1:9/x").data(Data("hello".utf8)).gzip().build()
        let error = #expect(throws: ResumableUploadError.self) { try ResumableUpload(gzip) }
        #expect(error?.code == .bodyNotResumable)
    }
}

enum UploadFixtureDigest {
    static func sha256(_ bytes: [UInt8]) -> String { PlainExchange.sha256Hex(bytes) }
}
