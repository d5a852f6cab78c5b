import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import TestSupport
import Testing

/// The tus client against aiohttp-tus (from PyPI, installed by `.ci/run`),
/// with connections cut by a proxy in between.
@Suite struct TusUploadTests {
    static let client = RequestClient(transport: AsyncHTTPClientTransport())
    static let chunk: Int64 = 2 << 20

    func upload(_ fixture: UploadFixture, to url: URL, attempts: Int = 6) throws -> TusUpload {
        try TusUpload(
            creationURL: url,
            body: .file(at: fixture.file),
            metadata: [("filename", fixture.file.lastPathComponent), ("filetype", "application/octet-stream"), ("album", "holiday")],
            chunkSize: Self.chunk,
            retry: quickRetry(attempts: attempts)
        )
    }

    /// An upload of a fresh file that gave up where the proxy cut its
    /// connection (one attempt only), as a process killed there would stop;
    /// `body` gets the file, the server, the proxy and the state saved last.
    func withInterruptedUpload(
        size: Int, name: String, cutAfter: Int,
        _ body: (UploadFixture, TusServer, FaultProxy, ResumableUploadState) async throws -> Void
    ) async throws {
        let fixture = try UploadFixture(size: size, name: name)
        defer { fixture.remove() }
        let server = try await TusServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: cutAfter, cuts: 1)
        defer { proxy.stop() }
        let states = Recorder<ResumableUploadState>()
        let first = try upload(fixture, to: proxy.url(path: "/uploads"), attempts: 1)
        await #expect(throws: RequestError.self) {
            _ = try await first.send(with: Self.client) { states.append($0) }
        }
        try await body(fixture, server, proxy, try #require(states.all.last))
    }

    @Test("A file survives three cut connections in one send")
    func survivesThreeCuts() async throws {
        let fixture = try UploadFixture(size: 12 << 20, name: "cuts.bin")
        defer { fixture.remove() }
        let server = try await TusServer.start()
        defer { server.stop() }
        let proxy = try await FaultProxy.start(target: server.url(), cutAfter: 1_500_000, cuts: 3)
        defer { proxy.stop() }

        let states = Recorder<ResumableUploadState>()
        let progress = Recorder<Int64>()
        let result = try await upload(fixture, to: proxy.url(path: "/uploads"))
            .send(with: Self.client, stateChanged: { states.append($0) }, progress: { progress.append($0.bytesSent) })

        #expect(result.response.status.code == 204)
        #expect(result.uploadURL.port == proxy.port)
        let stored = try #require(try server.completedUpload(named: "cuts.bin"))
        #expect(stored.sha256 == fixture.sha256)
        let stats = try await proxy.stats()
        #expect(stats.cuts == 3)
        // aiohttp-tus keeps nothing of a cut PATCH, so each cut costs at most
        // the chunk it interrupted; the rest is heads.
        #expect(stats.clientToServerBytes <= Int64(fixture.size) + 3 * Self.chunk + 16 * 1024, "\(stats.clientToServerBytes) bytes for \(fixture.size)")
        #expect(states.all.first?.offset == 0, "saved before the first PATCH")
        #expect(states.all.map(\.offset) == states.all.map(\.offset).sorted())
        #expect(progress.all.last == Int64(fixture.size))
    }

    @Test("A saved state continues the upload from the server's offset")
    func resumesFromASavedState() async throws {
        // The connection carries two chunks; the third crosses the cut.
        try await withInterruptedUpload(size: 8 << 20, name: "state.bin", cutAfter: 5_000_000) { fixture, server, proxy, saved in
            #expect(saved.offset == 2 * Self.chunk)
            let progress = Recorder<Int64>()
            let result = try await upload(fixture, to: proxy.url(path: "/uploads"))
                .send(with: Self.client, resumingFrom: saved, progress: { progress.append($0.bytesSent) })
            #expect(result.uploadURL == saved.uploadURL)
            #expect(progress.all.first == saved.offset, "progress starts at the server's offset")
            let stored = try #require(try server.completedUpload(named: "state.bin"))
            #expect(stored.sha256 == fixture.sha256)
        }
    }

    @Test("A file changed since the state was saved is refused, before anything is sent")
    func changedFileIsRefused() async throws {
        try await withInterruptedUpload(size: 6 << 20, name: "changed.bin", cutAfter: 1_000_000) { fixture, _, proxy, saved in
            let handle = try FileHandle(forWritingTo: fixture.file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more".utf8))
            try handle.close()
            let connections = try await proxy.stats().connections

            let second = try upload(fixture, to: proxy.url(path: "/uploads"))
            let error = await #expect(throws: ResumableUploadError.self) {
                _ = try await second.send(with: Self.client, resumingFrom: saved)
            }
            #expect(error?.code == .bodyChanged)
            #expect(error?.description.contains("changed.bin is now") == true, "\(String(describing: error))")
            #expect(try await proxy.stats().connections == connections)
        }
    }

    @Test("Termination deletes the upload on the server")
    func terminationDeletes() async throws {
        try await withInterruptedUpload(size: 3 << 20, name: "gone.bin", cutAfter: 1_000_000) { fixture, _, proxy, saved in
            let upload = try upload(fixture, to: proxy.url(path: "/uploads"))
            try await upload.terminate(saved, with: Self.client)
            let error = await #expect(throws: ResumableUploadError.self) {
                _ = try await upload.serverOffset(of: saved, with: Self.client)
            }
            #expect(error?.code == .uploadNotFound)
        }
    }

    @Test("Resumed past the start, the largest chunk size a caller can give sends the rest in one PATCH, without overflow")
    func largestChunkSizeDoesNotOverflow() async throws {
        try await withInterruptedUpload(size: 8 << 20, name: "max.bin", cutAfter: 5_000_000) { fixture, server, proxy, saved in
            #expect(saved.offset > 0)
            let upload = try TusUpload(
                creationURL: proxy.url(path: "/uploads"), body: .file(at: fixture.file),
                metadata: [("filename", "max.bin")], chunkSize: .max
            )
            _ = try await upload.send(with: Self.client, resumingFrom: saved)
            #expect(try server.completedUpload(named: "max.bin")?.sha256 == fixture.sha256)
        }
    }

    @Test("A metadata key that would break the list is refused, naming it")
    func badMetadataKeyIsRefused() throws {
        let error = #expect(throws: ResumableUploadError.self) {
            try TusUpload(creationURL: URL(filePath: "/"), body: .data(Data("x".utf8)), metadata: [("file name", "a")])
        }
        #expect(error?.description.contains("\"file name\"") == true)
    }
}
