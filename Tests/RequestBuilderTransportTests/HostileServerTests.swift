import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// What a server can answer that a client must survive: a status line
/// AsyncHTTPClient alone traps on, bodies larger than memory, bodies that
/// never end or break off, and hosts that refuse or never answer. None may
/// end the process, and none may send an answered POST a second time.
@Suite struct HostileServerTests {
    static func post(_ url: URL, body: RequestBody? = .text("payload")) throws -> PreparedRequest {
        let request = HTTPRequestBuilder(.post, url).acceptingStatus(.any)
        return try (body.map { request.body($0) } ?? request).build()
    }

    static let statusLines = ["HTTP/1.1 000 X", "HTTP/1.1 042 Y", "HTTP/1.1 099 Z"]

    @Test(arguments: statusLines, [false, true])
    func statusBelowOneHundredIsAProtocolErrorNotACrash(statusLine: String, afterContinue: Bool) async throws {
        for body in ["", "body bytes"] {
            let prefix = afterContinue ? "HTTP/1.1 100 Continue\r\n\r\n" : ""
            let head = "\(statusLine)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            let server = try await RawResponseServer.start { _ in .bytes(Array((prefix + head + body).utf8)) }
            let error = await #expect(throws: RequestError.self) {
                try await RequestClient(transport: AsyncHTTPClientTransport()).send(try Self.post(server.url(path: "/up")))
            }
            #expect(error?.code == .transport)
            #expect(error?.description.contains("invalid status line") == true, "\(String(describing: error))")
            try await server.stop()
        }
    }

    @Test func keepsTheServersOwnReasonPhrase() async throws {
        let server = try await RawResponseServer.start { _ in
            .text("HTTP/1.1 503 Slow Down", headers: ["Content-Length: 2"], body: "no")
        }
        let response = try await AsyncHTTPClientTransport().send(try Self.post(server.url()))
        #expect(response.status.code == 503)
        #expect(response.status.reasonPhrase == "Slow Down")
        try await server.stop()
    }

    @Test func streamsABodyLargerThanTheCollectLimitInChunks() async throws {
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nContent-Length: \(100 << 20)\r\n\r\n", chunk: chunk, count: 100)
        }
        let response = try await RequestClient(transport: AsyncHTTPClientTransport()).stream(try Self.post(server.url()))
        var total = 0
        var largest = 0
        for try await piece in response.body {
            total += piece.count
            largest = max(largest, piece.count)
        }
        #expect(total == 100 << 20)
        #expect(largest <= 1 << 20)  // handed on as it arrives, never gathered
        try await server.stop()
    }

    @Test func largeBodyFailsTheCollectLimitAndTheAnsweredPostIsNotSentAgain() async throws {
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nContent-Length: \(80 << 20)\r\n\r\n", chunk: chunk, count: 80)
        }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [RetryMiddleware(maximumAttempts: 4, retriesNonIdempotentRequests: true, sleep: { _ in })]
        )
        let error = await #expect(throws: RequestError.self) { try await client.send(try Self.post(server.url())) }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.description.contains("67108864-byte limit") == true)
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    @Test func endlessChunkedBodyFailsTheLimitOnce() async throws {
        let chunk = Array("100000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x100000) + Array("\r\n".utf8)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunk: chunk, count: nil)
        }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [RetryMiddleware(maximumAttempts: 4, retriesNonIdempotentRequests: true, sleep: { _ in })]
        )
        let error = await #expect(throws: RequestError.self) {
            try await client.send(try Self.post(server.url()), maximumBodySize: 8 << 20)
        }
        #expect(error?.code == .responseTooLarge)
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    @Test func bodyBreakingOffAfterTheHeadIsNotRetried() async throws {
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nContent-Length: \(10 << 20)\r\n\r\n", chunk: [UInt8](repeating: 1, count: 4096), count: 16)
        }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [RetryMiddleware(maximumAttempts: 4, retriesNonIdempotentRequests: true, sleep: { _ in })]
        )
        let error = await #expect(throws: RequestError.self) { try await client.send(try Self.post(server.url())) }
        #expect(error?.code == .transport)
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    // The two tests below tell apart a failure within seconds from the old
    // behaviour, which waited for the request's deadline: an hour here. The
    // bound between them is `TestTime.liveness` (ten minutes), since in full
    // runs on a loaded machine a 0.5 s connect timeout was seen to end after
    // 396 s.

    @Test func refusedConnectionFailsAtOnce() async throws {
        let server = try await RawResponseServer.start { _ in .bytes([]) }
        let url = server.url()
        try await server.stop()  // nothing listens on the port now
        let request = try Self.post(url).updating(timeout: .seconds(3600))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: RequestError.self) {
            try await RequestClient(transport: AsyncHTTPClientTransport()).send(request)
        }
        // AsyncHTTPClient's defaults kept connecting until the deadline (about
        // 90 seconds without one) and then reported a timeout.
        #expect(error?.code == .transport)
        #expect(error?.description.contains("refused") == true, "\(String(describing: error))")
        #expect(clock.now - start < TestTime.liveness)
    }

    @Test func unansweredConnectGivesUpAfterTheConnectTimeout() async throws {
        // A listening socket whose backlog is full drops further SYNs, so a
        // connection to it neither succeeds nor is refused.
        let listener = try SilentListener(fillingBacklog: true)
        let client = HTTPClient(
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            configuration: AsyncHTTPClientTransport.configuration(connectTimeout: .milliseconds(500))
        )
        // The connect timeout ends it long before this timeout.
        let request = try Self.post(URL(string: "http://127.0.0.1:\(listener.port)/") ?? URL(filePath: "/")).updating(timeout: .seconds(3600))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: RequestError.self) {
            try await RequestClient(transport: AsyncHTTPClientTransport(client: client)).send(request)
        }
        try await client.shutdown()
        withExtendedLifetime(listener) {}
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(clock.now - start < TestTime.liveness)
    }

    @Test func hugeTimeoutSaturatesInsteadOfTrapping() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 200 OK", headers: ["Content-Length: 0"]) }
        for timeout: Duration in [.seconds(Int64.max), .seconds(9_300_000_000), .nanoseconds(Int64.max) * 1000] {
            let request = try Self.post(server.url()).updating(timeout: timeout)
            let response = try await AsyncHTTPClientTransport().send(request)
            #expect(response.status.code == 200)
        }
        try await server.stop()
    }

    @Test func bodyErrorsAreNeverRetried() async throws {
        let server = try await TestHTTPServer.start()
        let directory = FileManager.default.temporaryDirectory.appending(path: "hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "contains-boundary.txt")
        try Data(("x".repeated(600_000) + "--fixed-boundary--").utf8).write(to: file)
        var form = MultipartFormData(boundary: try .constant("fixed-boundary"))
        try form.appendFile(at: file, name: "file")
        let request = try Self.post(server.url(path: "/up"), body: try .multipart(form)).updating { $0.method = .put }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [RetryMiddleware(maximumAttempts: 4, retriesNonIdempotentRequests: true, sleep: { _ in })]
        )
        let error = await #expect(throws: RequestError.self) { try await client.send(request) }
        #expect(error?.code == .body, "\(String(describing: error))")
        #expect(error?.description.contains("fixed-boundary") == true)
        #expect(server.requests.count <= 1)
        try await server.stop()
    }

    @Test func responseBodyReadTwiceFailsInsteadOfTrapping() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 200 OK", headers: ["Content-Length: 5"], body: "hello") }
        let response = try await AsyncHTTPClientTransport().stream(try Self.post(server.url()))
        #expect(try await response.body.collect(upTo: 100) == Data("hello".utf8))
        let error = await #expect(throws: RequestError.self) { try await response.body.collect(upTo: 100) }
        #expect(error?.description.contains("already read") == true)
        try await server.stop()
    }
}

private extension String {
    func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}

extension HostileServerTests {
    @Test(arguments: ["127.0.0.1:65536", "127.0.0.1:99999", "127.0.0.1:12345678901234567890"])
    func portOutOfRangeIsRefusedBeforeConnecting(authority: String) async throws {
        // A prepared request comes from the builder alone, which refuses the
        // port: no transport is handed one (AsyncHTTPClient would trap on it).
        let error = #expect(throws: RequestError.self) { try HTTPRequestBuilder.get("http://\(authority)/").build() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("0 to 65535") == true)
    }
}
