import Foundation
import HTTPBody
import HTTPTypes
import Logging
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import RequestBuilderTesting
import TestSupport
import Testing

/// The one retry loop tells a permanent failure from one that may pass, as
/// a user stacking `.retry` meets it: permanent failures are tried once.
@Suite struct RetryClassificationTests {
    /// Counts the attempts that reach it (placed after the retry).
    struct CountingAttempts: RequestMiddleware {
        let count: LockedBox<Int>
        func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
            count.mutate { $0 += 1 }
            return try await next(request)
        }
    }

    static func retry(attempts: Int = 3, retries: LockedBox<Int>? = nil, budget: Duration? = nil, logger: Logger? = nil) -> RetryMiddleware {
        RetryMiddleware(
            maximumAttempts: attempts,
            initialBackoff: .milliseconds(50),
            maximumTotalTime: budget,
            logger: logger ?? Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            willRetry: { _ in retries?.mutate { $0 += 1 } }
        )
    }

    static func get(_ url: String, timeout: Duration = .seconds(600)) throws -> PreparedRequest {
        try HTTPRequestBuilder.get(url).timeout(timeout).build()
    }

    @Test("Statuses: 408, 425, 429 and 5xx are tried again; any other 4xx once", arguments: [
        (400, 1), (401, 1), (403, 1), (404, 1), (407, 1), (409, 1), (410, 1), (422, 1),
        (408, 2), (425, 2), (429, 2), (500, 2), (501, 2), (502, 2), (503, 2), (504, 2),
    ])
    func statusesAreClassified(code: Int, attempts: Int) async throws {
        let stub = StubTransport([.status(HTTPResponse.Status(code: code))], fallback: .status(.ok))
        let client = RequestClient(transport: stub, middleware: [Self.retry()])
        _ = try? await client.send(Self.get("https://api.example.com/notes"))
        #expect(stub.receivedRequests.count == attempts, "\(code)")
    }

    @Test("Permanent codes are tried once, transient ones again", arguments: [
        (RequestError.Code.unknownHost, 1), (.untrustedCertificate, 1), (.proxyAuthenticationRequired, 1),
        (.credentialRefresh, 1), (.body, 1), (.invalidRequest, 1), (.transport, 2), (.timedOut, 2),
    ])
    func codesAreClassified(code: RequestError.Code, attempts: Int) async throws {
        let failure = RequestError(code: code, description: "GET https://api.example.com/notes: \(code)")
        #expect(failure.isTransient == (attempts == 2))
        let stub = StubTransport([.failure(failure)], fallback: .status(.ok))
        let client = RequestClient(transport: stub, middleware: [Self.retry()])
        _ = try? await client.send(Self.get("https://api.example.com/notes"))
        #expect(stub.receivedRequests.count == attempts, "\(code)")
    }

    @Test func anUnknownHostIsTriedOnce() async throws {
        let attempts = LockedBox(0)
        let retries = LockedBox(0)
        let transport = AsyncHTTPClientTransport()
        let client = RequestClient(transport: transport, middleware: [Self.retry(retries: retries), CountingAttempts(count: attempts)])
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Self.get("http://no-such-host.invalid/up"))
        }
        try await transport.shutdown()
        #expect(error?.code == .unknownHost, "\(String(describing: error))")
        #expect(attempts.value == 1)
        #expect(retries.value == 0)
    }

    /// A certificate from an unknown issuer (the CA not trusted), and an
    /// expired one from a trusted CA.
    @Test(arguments: [TLSTestServer.Mode.ok, .expired])
    func anUntrustedCertificateIsTriedOnce(mode: TLSTestServer.Mode) async throws {
        let server = try await TLSTestServer.start(mode: mode)
        defer { server.stop() }
        let attempts = LockedBox(0)
        let trust = mode == .ok ? TLSSettings() : TLSSettings(trustRoots: .pemFile(server.file("ca.pem")))
        let transport = try AsyncHTTPClientTransport(tls: trust)
        let client = RequestClient(transport: transport, middleware: [Self.retry(), CountingAttempts(count: attempts)])
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Self.get(server.url(path: "/up").absoluteString))
        }
        try await transport.shutdown()
        #expect(error?.code == .untrustedCertificate, "\(String(describing: error))")
        #expect(attempts.value == 1)
        #expect(try server.requests().isEmpty)
    }

    @Test func aProxyAskingForCredentialsIsTriedOnce() async throws {
        let proxy = try await ForwardProxy.start(credentials: "user:secret")
        defer { proxy.stop() }
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let attempts = LockedBox(0)
        let transport = try AsyncHTTPClientTransport(
            tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))),
            proxies: .all(ProxyServer(host: "127.0.0.1", port: proxy.port, username: "user", password: "wrong"))
        )
        let client = RequestClient(transport: transport, middleware: [Self.retry(), CountingAttempts(count: attempts)])
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Self.get(server.url(path: "/up").absoluteString))
        }
        try await transport.shutdown()
        #expect(error?.code == .proxyAuthenticationRequired, "\(String(describing: error))")
        #expect(attempts.value == 1)
        #expect(try proxy.accessLog().count <= 1)
    }

    @Test("A refresh that fails calls the sign-in once, however many retries are stacked", arguments: [nil, "stale"])
    func aFailedRefreshCallsTheSignInOnce(credential: String?) async throws {
        struct SignInFailed: Error {}
        let signIns = LockedBox(0)
        let store = CredentialStore(credential: credential) {
            signIns.mutate { $0 += 1 }
            throw SignInFailed()
        }
        let stub = StubTransport(fallback: .status(.unauthorized))
        let client = RequestClient(transport: stub, middleware: [.retry(maximumAttempts: 3), .retry(maximumAttempts: 3), .bearerToken(store)])
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Self.get("https://api.example.com/notes"))
        }
        #expect(error?.code == .credentialRefresh)
        #expect(error?.underlying is SignInFailed)
        #expect(signIns.value == 1)
        #expect(stub.receivedRequests.count == (credential == nil ? 0 : 1))
    }

    @Test func aRetryThatCanNeverApplyIsLoggedOnceAtDebugLevel() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let stub = StubTransport(fallback: .status(.serviceUnavailable))
        let client = RequestClient(transport: stub, middleware: [Self.retry(logger: logger)])
        for _ in 0..<3 {
            let post = try HTTPRequestBuilder.post("https://api.example.com/notes").body(.text("hi")).build()
            _ = try? await client.send(post)
        }
        #expect(stub.receivedRequests.count == 3)
        #expect(lines.value == [
            "debug POST https://api.example.com/notes is sent once, without retries: POST is not idempotent and retriesNonIdempotentRequests is off",
        ])
        _ = try? await client.send(Self.get("https://api.example.com/notes"))
        #expect(stub.receivedRequests.count == 6, "a GET is still retried")
        #expect(lines.value.count == 1)
    }

    /// Records each attempt's timeout (placed after the retry).
    struct RecordingTimeouts: RequestMiddleware {
        let timeouts: LockedBox<[Duration?]>
        func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
            timeouts.mutate { $0.append(request.timeout) }
            return try await next(request)
        }
    }

    /// Counted, not timed, so a loaded machine cannot fail it: every attempt
    /// takes at least 300 ms, so a 1 s budget leaves room for at most four
    /// (a hundred without it), and a retried attempt's timeout is at most
    /// what was left of the budget, not the request's 600 s.
    @Test func theTotalTimeBoundsTheAttemptsAndTheirTimeouts() async throws {
        let failure = RequestError(code: .timedOut, description: "GET https://api.example.com/notes: timed out")
        let stub = StubTransport(fallback: .failure(failure, delay: .milliseconds(300)))
        let timeouts = LockedBox<[Duration?]>([])
        let client = RequestClient(transport: stub, middleware: [
            Self.retry(attempts: 100, budget: .seconds(1)), RecordingTimeouts(timeouts: timeouts),
        ])
        let error = await #expect(throws: RequestError.self) {
            try await client.send(Self.get("https://api.example.com/notes", timeout: .seconds(600)))
        }
        #expect(error?.code == .timedOut)
        let recorded = timeouts.value
        #expect((1...4).contains(recorded.count), "\(recorded)")
        #expect(recorded.first == .seconds(600), "a first attempt keeps its own timeout")
        for timeout in recorded.dropFirst() {
            #expect(timeout.map { $0 > .zero && $0 <= .seconds(1) } == true, "\(recorded)")
        }
    }
}
