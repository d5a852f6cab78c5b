import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import RequestBuilderURLSession
import TestSupport
import Testing

/// `Expect: 100-continue` against nginx as Debian installs it: a body over
/// 1 MiB waits for `100 Continue` over HTTP/1.1, so a server that refuses
/// the upload (413 past `client_max_body_size`, 401 without credentials)
/// gets none of it, even 2 GiB; over HTTP/2 it goes at once without
/// `Expect`; `waitingForContinue(false)` turns it off.
@Suite(.serialized) struct ExpectContinueTests {
    /// A sparse file of `size` bytes: reading it costs time, holding it nothing.
    static func sparseFile(size: Int64) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "expect-\(UUID().uuidString).bin")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return url
    }

    static func put(_ url: URL, file: URL, sent: LockedValue<Int64>? = nil, configure: (HTTPRequestBuilder) -> HTTPRequestBuilder = { $0 }, transport: AsyncHTTPClientTransport) async throws -> Response {
        let request = try configure(HTTPRequestBuilder(.put, url).file(at: file).acceptingStatus(.any).timeout(.seconds(600))).build()
        return try await RequestClient(transport: transport).send(request) { progress in
            sent?.withLock { $0 = max($0, progress.bytesSent) }
        }
    }

    @Test func aRefusedUploadOfTwoGibibytesSendsNothingOfItsBody() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let file = try Self.sparseFile(size: 2 * 1024 * 1024 * 1024)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = AsyncHTTPClientTransport()
        let sent = LockedValue<Int64>(0)
        let tooLarge = try await Self.put(nginx.plainURL(path: "/small/up.bin"), file: file, sent: sent, transport: transport)
        let unauthorized = try await Self.put(nginx.plainURL(path: "/private/up.bin"), file: file, sent: sent, transport: transport)
        #expect(tooLarge.status.code == 413)
        #expect(unauthorized.status.code == 401)
        #expect(sent.withLock { $0 } == 0)
        let log = try await nginx.accessLog(atLeast: 2)
        #expect(log.map(\.status) == [413, 401])
        // What nginx read of each request is its head alone.
        #expect(log.allSatisfy { $0.expect == "100-continue" && $0.length < 1024 && $0.version == "HTTP/1.1" }, "\(log)")
    }

    @Test func anAcceptedUploadGetsItsContinueAndSendsTheWholeBody() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let size: Int64 = 3 * 1024 * 1024 + 17
        let file = try Self.sparseFile(size: size)
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await Self.put(nginx.plainURL(path: "/dav/up.bin"), file: file, transport: AsyncHTTPClientTransport())
        #expect(response.status.code == 201)
        #expect(nginx.storedSize("up.bin") == size)
        let log = try await nginx.accessLog(atLeast: 1)
        #expect(log.first?.expect == "100-continue" && (log.first?.length ?? 0) > size, "\(log)")
    }

    @Test func overHTTP2TheBodyGoesAtOnceWithoutExpect() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let size: Int64 = 2 * 1024 * 1024
        let file = try Self.sparseFile(size: size)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(nginx.caFile)))
        let response = try await Self.put(nginx.url(path: "/dav/h2.bin"), file: file, transport: transport)
        try await transport.shutdown()
        #expect(response.status.code == 201)
        #expect(nginx.storedSize("h2.bin") == size)
        let log = try await nginx.accessLog(atLeast: 1)
        #expect(log.first?.version == "HTTP/2.0" && log.first?.expect == nil, "\(log)")
    }

    /// URLSession has no gate of ours: it is handed the field, and on Linux
    /// libcurl, under swift-corelibs-foundation, waits for the answer as curl does.
    @Test func urlSessionSendsTheFieldAndLeavesTheWaitingToURLSession() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let counter = try await FaultProxy.start(target: nginx.plainURL(path: "/"), cutAfter: nil)
        defer { counter.stop() }
        let file = try Self.sparseFile(size: 8 * 1024 * 1024)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try HTTPRequestBuilder(.put, counter.url(path: "/small/up.bin")).file(at: file).acceptingStatus(.any).timeout(.seconds(600)).build()
        let response = try await RequestClient(transport: URLSessionTransport()).send(request)
        let sent = try await counter.stats()
        #expect(response.status.code == 413)
        let log = try await nginx.accessLog(atLeast: 1)
        #expect(log.first?.expect == "100-continue", "\(log)")
        // The head alone (318 bytes when measured).
        #expect(sent.clientToServerBytes < 2048, "\(sent.clientToServerBytes) bytes sent")
    }

    @Test func smallBodiesAndBodiesThatSayNoGoWithoutExpect() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let small = try Self.sparseFile(size: 1024 * 1024)
        let large = try Self.sparseFile(size: 2 * 1024 * 1024)
        defer { [small, large].forEach { try? FileManager.default.removeItem(at: $0) } }
        let transport = AsyncHTTPClientTransport()
        _ = try await Self.put(nginx.plainURL(path: "/dav/small.bin"), file: small, transport: transport)
        _ = try await Self.put(nginx.plainURL(path: "/dav/no.bin"), file: large, configure: { $0.waitingForContinue(false) }, transport: transport)
        _ = try await Self.put(nginx.plainURL(path: "/dav/own.bin"), file: small, configure: { $0.waitingForContinue(true) }, transport: transport)
        let log = try await nginx.accessLog(atLeast: 3)
        #expect(log.map(\.expect) == [nil, nil, "100-continue"], "\(log)")
        #expect(log.map(\.status) == [201, 201, 201])
    }
}
