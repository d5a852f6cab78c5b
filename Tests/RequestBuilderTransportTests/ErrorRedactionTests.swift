import Foundation
import HTTPBody
import HTTPTypes
import Logging
import RequestBuilder
import TestSupport
import Testing

/// No credential in an error: every kind of `RequestError` a request can
/// end with, on both transports, is made with a secret planted in the
/// query, the `Authorization` and `X-Api-Key` fields and the redirect
/// targets, and its description, `localizedDescription`, each `willRetry`
/// reason and each log line are searched for the secret.
@Suite struct ErrorRedactionTests {
    typealias Kind = TransportIntegrationTests.Kind

    static let secret = "SECRET-c0ffee"

    /// A request to `url` carrying the secret in its query and its credential fields.
    static func request(_ url: String, method: HTTPRequest.Method = .get) -> HTTPRequestBuilder {
        HTTPRequestBuilder(method, url + "?token=\(secret)&page=2")
            .bearer(secret)
            .header("X-Api-Key", secret)
    }

    /// What `operation` threw, as a `RequestError`.
    static func failure(_ operation: () async throws -> Void) async -> RequestError? {
        do {
            try await operation()
            Issue.record("expected a failure")
            return nil
        } catch let error as RequestError {
            return error
        } catch {
            Issue.record("expected a RequestError, got \(error)")
            return nil
        }
    }

    @Test(arguments: Kind.allCases)
    func noErrorDescriptionCarriesACredential(kind: Kind) async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let reasons = LockedBox<[String]>([])
        let retry = RetryMiddleware(maximumAttempts: 2, sleep: { _ in }, willRetry: { retry in reasons.mutate { $0.append(retry.reason) } })
        let client = RequestClient(transport: kind.make(), middleware: [.followingRedirects(max: 1), retry, .logging(to: logger)])
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            switch request.uri.split(separator: "?").first ?? "" {
            case "/missing": .status(404, body: "no such thing")
            // Later than the cancellation below, however long a loaded
            // machine makes its 200 ms.
            case "/slow": .status(200, body: "late", delay: TestTime.budget(.seconds(60)))
            case "/loop": .status(302, headers: [("Location", "/loop?token=\(Self.secret)")])
            case "/ftp": .status(302, headers: [("Location", "ftp://user:\(Self.secret)@127.0.0.1/?token=\(Self.secret)")])
            case "/again": .status(307, headers: [("Location", "/b?access_token=\(Self.secret)")])
            case "/text": .status(200, body: "not json")
            default: .status(200, body: "ok")
            }
        })
        let base = "http://127.0.0.1:\(server.port)"
        let closed = try ForwardProxyTests.closedPort()
        var errors: [RequestError?] = []

        errors.append(await Self.failure { _ = try Self.request("ftp://user:\(Self.secret)@127.0.0.1/").build() })
        errors.append(await Self.failure { _ = try HTTPRequestBuilder.get(base + "/?token=\(Self.secret)#top").build() })
        errors.append(await Self.failure { _ = try await Self.request("http://127.0.0.1:\(closed)/refused").build().send(with: client) })
        errors.append(await Self.failure { _ = try await Self.request(base + "/missing").build().send(with: client) })
        errors.append(await Self.failure { _ = try await Self.request(base + "/slow").timeout(.milliseconds(300)).build().send(with: client) })
        errors.append(await Self.failure { _ = try await Self.request(base + "/loop").build().send(with: client) })
        errors.append(await Self.failure { _ = try await Self.request(base + "/ftp").build().send(with: client) })
        let once = RequestBody.stream(AsyncStream<[UInt8]> { $0.yield(Array("hello".utf8)); $0.finish() }, length: 5)
        errors.append(await Self.failure { _ = try await Self.request(base + "/again", method: .post).body(once).build().send(with: client) })
        let failing = RequestBody.stream(AsyncThrowingStream<[UInt8], any Error> { $0.finish(throwing: POSIXError(.EIO)) }, length: 5)
        errors.append(await Self.failure { _ = try await Self.request(base + "/body", method: .post).body(failing).build().send(with: client) })
        errors.append(await Self.failure {
            _ = try await client.send(try Self.request(base + "/text").build(), decoding: [String].self)
        })
        errors.append(await Self.failure { _ = try await client.send(try Self.request(base + "/text").build(), maximumBodySize: 2) })
        errors.append(await Self.failure {
            let request = try Self.request(base + "/slow").build()
            let task = Task { _ = try await client.send(request) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            try await task.value
        })
        try await server.stop()

        let codes: [RequestError.Code] = [
            .invalidRequest, .invalidRequest, .transport, .unacceptableStatus, .timedOut, .redirect, .redirect, .redirect,
            .body, .decoding, .responseTooLarge, .cancelled,
        ]
        #expect(errors.map { $0?.code } == codes)
        for error in errors.compactMap({ $0 }) {
            #expect(!error.description.contains(Self.secret), "\(error.code): \(error)")
            #expect(error.localizedDescription == error.description)
        }
        // Each kind of failure that names the request names its redacted URL.
        #expect(errors[2]?.description.contains("/refused?token=<redacted>&page=2") == true, "\(String(describing: errors[2]))")
        #expect(errors[5]?.description.contains("/loop?token=<redacted>") == true, "\(String(describing: errors[5]))")
        #expect(!reasons.value.isEmpty)
        for reason in reasons.value {
            #expect(!reason.contains(Self.secret), "\(reason)")
        }
        #expect(!lines.value.isEmpty)
        for line in lines.value {
            #expect(!line.contains(Self.secret), "\(line)")
        }
    }

    /// The request's own list decides: a parameter added to it is hidden
    /// in errors, and `.none` shows what the default hides.
    @Test func theRequestsRedactionIsConfigurable() async throws {
        let closed = try ForwardProxyTests.closedPort()
        var redaction = LoggingMiddleware.Redaction.default
        redaction.queryParameterNames.insert("sig")
        let client = RequestClient(transport: Kind.asyncHTTPClient.make())
        let custom = await Self.failure {
            _ = try await client.send(try HTTPRequestBuilder.get("http://127.0.0.1:\(closed)/a?sig=\(Self.secret)").redacting(redaction).build())
        }
        #expect(custom?.description.hasPrefix("GET http://127.0.0.1:\(closed)/a?sig=<redacted>: ") == true, "\(String(describing: custom))")
        let none = await Self.failure {
            _ = try await client.send(try HTTPRequestBuilder.get("http://127.0.0.1:\(closed)/a?token=\(Self.secret)").redacting(.none).build())
        }
        #expect(none?.description.hasPrefix("GET http://127.0.0.1:\(closed)/a?token=\(Self.secret): ") == true, "\(String(describing: none))")
    }

    /// One list for both rules: every field the redaction names as a
    /// credential (`X-Api-Key` by default, and one the app adds) stays
    /// behind when a redirect leaves the origin, on both transports.
    @Test(arguments: Kind.allCases)
    func aRedirectToAnotherOriginDropsEveryCredentialTheRedactionNames(kind: Kind) async throws {
        let target = try await TestHTTPServer.start()
        let origin = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            .status(302, headers: [("Location", "http://127.0.0.1:\(target.port)/landed")])
        })
        var redaction = LoggingMiddleware.Redaction.default
        redaction.headerNames.insert("X-Session")
        let request = try HTTPRequestBuilder.get(origin.url(path: "/start").absoluteString)
            .header("X-Api-Key", Self.secret)
            .header("X-Session", Self.secret)
            .header("X-Trace", "kept")
            .redacting(redaction)
            .build()
        let response = try await RequestClient(transport: kind.make(), middleware: [.followingRedirects()]).send(request)
        try await origin.stop()
        try await target.stop()
        #expect(response.status == .ok)
        #expect(origin.requests.first?.header("X-Api-Key") == Self.secret)
        let landed = try #require(target.requests.first)
        #expect(landed.header("X-Api-Key") == nil)
        #expect(landed.header("X-Session") == nil)
        #expect(landed.header("X-Trace") == "kept")
    }
}

extension PreparedRequest {
    /// Sends the request with `client`, for a test's one-line failures.
    fileprivate func send(with client: RequestClient) async throws -> Response {
        try await client.send(self)
    }
}
