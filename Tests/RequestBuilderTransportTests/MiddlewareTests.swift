import Foundation
import HTTPBody
import HTTPTypes
import Logging
import RequestBuilder
import RequestBuilderTesting
import Testing

/// Middleware behaviour against the stub transport (no network).
@Suite struct MiddlewareTests {
    static func request(_ method: HTTPRequest.Method = .get, body: RequestBody? = nil) throws -> PreparedRequest {
        let request = HTTPRequestBuilder(method, "https://api.example.com/notes")
        return try (body.map { request.body($0) } ?? request).build()
    }

    /// Records the pauses the retry middleware asks for instead of sleeping.
    final class SleepRecorder: Sendable {
        let pauses = LockedBox<[Duration]>([])
        var sleep: @Sendable (Duration) async throws -> Void {
            { [pauses] duration in pauses.mutate { $0.append(duration) } }
        }
    }

    func retryingClient(_ stub: StubTransport, _ recorder: SleepRecorder, optIn: Bool = false) -> RequestClient {
        RequestClient(transport: stub, middleware: [
            RetryMiddleware(
                maximumAttempts: 4,
                initialBackoff: .seconds(1),
                retriesNonIdempotentRequests: optIn,
                sleep: recorder.sleep,
                now: { Date(timeIntervalSince1970: 784_111_777) },  // Sun, 06 Nov 1994 08:49:37 GMT
                random: { 1 }
            ),
        ])
    }

    @Test func retriesServiceUnavailableHonouringRetryAfterSeconds() async throws {
        let stub = StubTransport([.status(.serviceUnavailable, headerFields: [.retryAfter: "7"]), .status(.ok)])
        let recorder = SleepRecorder()
        let response = try await retryingClient(stub, recorder).send(try Self.request())
        #expect(response.status == .ok)
        #expect(stub.receivedRequests.count == 2)
        #expect(recorder.pauses.value == [.seconds(7)])
    }

    @Test func honoursRetryAfterHTTPDate() async throws {
        let stub = StubTransport([.status(.tooManyRequests, headerFields: [.retryAfter: "Sun, 06 Nov 1994 08:50:07 GMT"]), .status(.ok)])
        let recorder = SleepRecorder()
        _ = try await retryingClient(stub, recorder).send(try Self.request())
        #expect(recorder.pauses.value == [.seconds(30)])
    }

    @Test func parsesObsoleteRetryAfterDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryMiddleware.retryAfter("Sunday, 06-Nov-94 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryMiddleware.retryAfter("Sun Nov  6 08:49:57 1994", now: now) == .seconds(20))
        #expect(RetryMiddleware.retryAfter("soon", now: now) == nil)
        #expect(RetryMiddleware.retryAfter("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
    }

    @Test func rejectsRetryAfterDatesThatCannotBe() {
        let now = Date(timeIntervalSince1970: 784_111_777)
        for text in ["Thu, 30 Feb 1995 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                     "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49 1994"] {
            #expect(RetryMiddleware.retryAfter(text, now: now) == nil, "\(text)")
        }
        // RFC 9110: a two-digit year more than 50 years ahead is in the past century.
        let in2030 = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(RetryMiddleware.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: in2030) == .zero)
        #expect(RetryMiddleware.retryAfter("Monday, 06-Nov-34 08:49:37 GMT", now: in2030).map { $0 > .seconds(86_400) } == true)
    }

    @Test func hugeRetryAfterValuesNeverTrap() {
        let now = Date(timeIntervalSince1970: 784_111_777)
        let farFuture = RetryMiddleware.retryAfter("Sun, 06 Nov 999999999 08:49:37 GMT", now: now)
        #expect(farFuture.map { $0 > .seconds(1_000_000_000) } ?? true)
        #expect(RetryMiddleware.retryAfter("99999999999999999999999", now: now) == nil)
        #expect(RetryMiddleware.retryAfter("9223372036854775807", now: now) == .seconds(Int.max))
    }

    @Test func hugeInitialBackoffIsCappedWithoutOverflow() async throws {
        let stub = StubTransport([.status(.badGateway)], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let retry = RetryMiddleware(
            maximumAttempts: 40, initialBackoff: .seconds(Int64.max / 2), maximumBackoff: .seconds(30),
            sleep: recorder.sleep, random: { 1 }
        )
        _ = try await RequestClient(transport: stub, middleware: [retry]).send(try Self.request(.get))
        #expect(recorder.pauses.value == [.seconds(30)])
    }

    @Test func backsOffExponentiallyWithoutRetryAfter() async throws {
        let stub = StubTransport([.status(.badGateway), .status(.gatewayTimeout), .status(.internalServerError)], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let response = try await retryingClient(stub, recorder).send(try Self.request())
        #expect(response.status == .ok)
        #expect(recorder.pauses.value == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func jitterKeepsBackoffBetweenHalfAndAll() async throws {
        let stub = StubTransport([.status(.serviceUnavailable)], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let client = RequestClient(transport: stub, middleware: [
            RetryMiddleware(initialBackoff: .seconds(2), sleep: recorder.sleep, random: { 0 }),
        ])
        _ = try await client.send(try Self.request())
        #expect(recorder.pauses.value == [.seconds(1)])
    }

    @Test func retriesConnectionFailuresAndTimeouts() async throws {
        let request = try Self.request()
        let stub = StubTransport([
            .failure(RequestError.transport(request, "connection reset")),
            .failure(RequestError.timedOut(request, after: .seconds(1))),
        ], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let response = try await retryingClient(stub, recorder).send(request)
        #expect(response.status == .ok)
        #expect(stub.receivedRequests.count == 3)
    }

    @Test func neverRetriesOtherClientErrors() async throws {
        let stub = StubTransport([.status(.badRequest)], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let error = await #expect(throws: RequestError.self) {
            try await retryingClient(stub, recorder).send(try Self.request())
        }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.response?.status == .badRequest)
        #expect(stub.receivedRequests.count == 1)
    }

    @Test func neverRetriesDecodingErrors() async throws {
        struct Note: Decodable { let id: Int }
        let stub = StubTransport([.json("not json")], fallback: .json(#"{"id": 1}"#))
        let recorder = SleepRecorder()
        let error = await #expect(throws: RequestError.self) {
            try await retryingClient(stub, recorder).send(try Self.request(), decoding: Note.self)
        }
        #expect(error?.code == .decoding)
        #expect(stub.receivedRequests.count == 1)
    }

    @Test func doesNotRetryPostUnlessOptedIn() async throws {
        let recorder = SleepRecorder()
        let stub = StubTransport([.status(.serviceUnavailable)], fallback: .status(.ok))
        await #expect(throws: RequestError.self) {
            try await retryingClient(stub, recorder).send(try Self.request(.post, body: .text("hi")))
        }
        #expect(stub.receivedRequests.count == 1)

        let optedIn = StubTransport([.status(.serviceUnavailable)], fallback: .status(.ok))
        let response = try await retryingClient(optedIn, recorder, optIn: true).send(try Self.request(.post, body: .text("hi")))
        #expect(response.status == .ok)
        #expect(optedIn.receivedRequests.map(\.body) == [Array("hi".utf8), Array("hi".utf8)])
    }

    @Test func doesNotRetryBodiesThatCannotBeReplayed() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("once".utf8))
            continuation.finish()
        }
        let stub = StubTransport([.status(.serviceUnavailable)], fallback: .status(.ok))
        let recorder = SleepRecorder()
        let error = await #expect(throws: RequestError.self) {
            try await retryingClient(stub, recorder).send(try Self.request(.put, body: .stream(stream)))
        }
        #expect(error?.response?.status == .serviceUnavailable)
        #expect(stub.receivedRequests.count == 1)
    }

    @Test func givesUpAfterMaximumAttempts() async throws {
        let stub = StubTransport(fallback: .status(.serviceUnavailable))
        let recorder = SleepRecorder()
        let error = await #expect(throws: RequestError.self) {
            try await retryingClient(stub, recorder).send(try Self.request())
        }
        #expect(error?.response?.status == .serviceUnavailable)
        #expect(stub.receivedRequests.count == 4)
    }

    @Test func validatesStatusAgainstAcceptableStatus() async throws {
        let stub = StubTransport(fallback: .status(.notFound))
        let request = try Self.request()
        await #expect(throws: RequestError.self) { try await RequestClient(transport: stub).send(request) }
        let accepting = request.updating(acceptableStatus: .codes([200, 404]))
        let response = try await RequestClient(transport: stub).send(accepting)
        #expect(response.status == .notFound)
    }

    @Test func logsRequestsWithCredentialsRedacted() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let stub = StubTransport(fallback: .status(.created, body: Data("done".utf8)))
        let client = RequestClient(transport: stub, middleware: [.logging(to: logger)])
        let request = try Self.request(.post, body: .text("hello")).updating { head in
            head.headerFields[.authorization] = "Bearer secret-token"
            head.headerFields[.cookie] = "session=secret-cookie"
            head.headerFields[.proxyAuthorization] = "Basic secret-proxy"
        }
        _ = try await client.send(request)
        let text = lines.value.joined(separator: "\n")
        #expect(!text.contains("secret"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains("Cookie: <redacted>"))
        #expect(text.contains("Proxy-Authorization: <redacted>"))
        #expect(text.contains("POST https://api.example.com/notes -> 201 in "))
        #expect(text.contains("-> 201 in ") && text.contains("sent 5 bytes"))
        #expect(text.contains("POST https://api.example.com/notes received 4 bytes"))
    }

    /// The default set covers API keys and signed-URL secrets as well as
    /// `Authorization` and cookies, in header fields and the query, whatever
    /// the case of their names (issue 25.4).
    @Test func redactsTheDefaultSetInHeadersAndQueryInAnyCase() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let stub = StubTransport(fallback: .status(.ok, headerFields: [.setCookie: "id=secret-set-cookie"]))
        let client = RequestClient(transport: stub, middleware: [.logging(to: logger)])
        let request = try HTTPRequestBuilder.get("https://api.example.com/notes?API_KEY=secret-1&Token=secret-2&page=3&x-amz-signature=secret-3&access%5Ftoken=secret-4")
            .headers([HTTPField.Name("x-api-key")!: "secret-api-key", HTTPField.Name("X-AMZ-Security-Token")!: "secret-session"])
            .build()
        _ = try await client.send(request)
        let text = lines.value.joined(separator: "\n")
        #expect(!text.contains("secret"), "\(text)")
        #expect(text.contains("GET https://api.example.com/notes?API_KEY=<redacted>&Token=<redacted>&page=3&x-amz-signature=<redacted>&access%5Ftoken=<redacted> -> 200"), "\(text)")
        #expect(text.contains("x-api-key: <redacted>") && text.contains("X-AMZ-Security-Token: <redacted>"))
        #expect(text.contains("Set-Cookie: <redacted>"))
    }

    /// A combining mark right after `?`, `&`, `=` or `@` joins it into one
    /// Character with the delimiter; the pair or password after it is still
    /// found and hidden (inputs found by FuzzLogRedaction).
    @Test(arguments: [
        ("/p?\u{05BB}a=1&token=hidden-1", "/p?\u{05BB}a=1&token=<redacted>"),
        ("/p?a=1&\u{0358}&tok%65n=hidden-2&", "/p?a=1&\u{0358}&tok%65n=<redacted>&"),
        ("/p?x=\u{064C}&X-Amz-Signature=hidden-3", "/p?x=\u{064C}&X-Amz-Signature=<redacted>"),
    ])
    func redactsAfterACombiningMark(path: String, redacted: String) {
        let redaction = LoggingMiddleware.Redaction.default
        #expect(Array(redaction.redactedPath(path).utf8) == Array(redacted.utf8))
        let head = HTTPRequest(method: .get, scheme: "https", authority: "user:hidden-4@\u{065D}host", path: path)
        let authority = redaction.redacted(head).authority ?? ""
        #expect(!authority.contains("hidden"), "\(authority.debugDescription)")
        #expect(Array(authority.utf8) == Array("user:***@\u{065D}host".utf8))
    }

    /// A redaction of one's own: the names given are hidden, in any case,
    /// and nothing else is, once the request has the same list (a log never
    /// shows what the request's own list hides).
    @Test func redactsTheNamesItIsGiven() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        var redaction = LoggingMiddleware.Redaction.default
        redaction.headerNames.insert("X-Session")
        redaction.queryParameterNames.insert("SIG")
        redaction.headerNames.remove("authorization")
        let client = RequestClient(transport: StubTransport(fallback: .status(.ok)), middleware: [.logging(to: logger, redaction: redaction)])
        let request = try HTTPRequestBuilder.get("https://api.example.com/a?sig=hidden-1&token=hidden-2")
            .headers([HTTPField.Name("x-session")!: "hidden-3", .authorization: "Bearer shown"])
            .redacting(redaction)
            .build()
        _ = try await client.send(request)
        let text = lines.value.joined(separator: "\n")
        #expect(!text.contains("hidden"), "\(text)")
        #expect(text.contains("/a?sig=<redacted>&token=<redacted> -> 200"))
        #expect(text.contains("Authorization: Bearer shown"))
        lines.mutate { $0.removeAll() }
        _ = try await client.send(try HTTPRequestBuilder.get("https://api.example.com/a").bearer("hidden-4").build())
        #expect(lines.value.joined(separator: "\n").contains("Authorization: <redacted>"), "\(lines.value)")
        #expect(LoggingMiddleware.Redaction.default.redacts(.authorization))
        #expect(!LoggingMiddleware.Redaction.default.redacts(.contentType))
    }

    /// Listed last, as its documentation says, the logging sees the token's
    /// `401` and the attempt `.bearerToken` made after refreshing it.
    @Test func loggingListedLastSeesEveryAttemptOfTheBearerToken() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let tokens = CredentialStore(credential: "old-token") { "new-token" }
        let stub = StubTransport([.status(.unauthorized), .status(.ok)])
        let client = RequestClient(transport: stub, middleware: [.bearerToken(tokens), .logging(to: logger)])
        _ = try await client.send(try Self.request())
        let heads = lines.value.filter { $0.contains(" -> ") }
        #expect(heads.count == 2, "\(lines.value)")
        #expect(heads.first?.contains("-> 401") == true && heads.last?.contains("-> 200") == true)
        #expect(!lines.value.joined().contains("-token"), "\(lines.value)")
    }

    /// Each outcome's line at the level that matches it, defaults and chosen levels alike.
    @Test(arguments: [
        (HTTPResponse.Status.ok, Logger.Level.info, Logger.Level.debug),
        (.found, .info, .debug),
        (.notFound, .notice, .warning),
        (.serviceUnavailable, .error, .critical),
    ])
    func logsEachOutcomeAtItsLevel(status: HTTPResponse.Status, byDefault: Logger.Level, chosen: Logger.Level) async throws {
        let custom = LoggingMiddleware.Levels(success: .debug, clientError: .warning, serverError: .critical, failure: .critical)
        for (levels, expected) in [(LoggingMiddleware.Levels(), byDefault), (custom, chosen)] {
            let lines = LockedBox<[String]>([])
            let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
            let stub = StubTransport(fallback: .status(status))
            let request = try Self.request().updating(acceptableStatus: .any)
            _ = try await RequestClient(transport: stub, middleware: [.logging(to: logger, levels: levels)]).send(request)
            let line = lines.value.first { $0.contains(" -> \(status.code) in ") }
            #expect(line?.hasPrefix("\(expected) ") == true, "\(lines.value)")
        }
    }

    @Test func logsAFailureAsAnErrorAndACancellationAsRoutine() async throws {
        let lines = LockedBox<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let failing = StubTransport(fallback: .failure(RequestError.transport(try Self.request(), "connection refused")))
        await #expect(throws: RequestError.self) { try await RequestClient(transport: failing, middleware: [.logging(to: logger)]).send(try Self.request()) }
        let cancelled = StubTransport(fallback: .failure(RequestError.cancelled(try Self.request())))
        await #expect(throws: RequestError.self) { try await RequestClient(transport: cancelled, middleware: [.logging(to: logger)]).send(try Self.request()) }
        let failures = lines.value.filter { $0.contains(" failed after ") }
        #expect(failures.count == 2, "\(lines.value)")
        #expect(failures.first?.hasPrefix("error ") == true)
        #expect(failures.last?.hasPrefix("info ") == true)
    }

    @Test func refreshesCredentialOnceOnUnauthorized() async throws {
        let refreshes = LockedBox(0)
        let store = CredentialStore(credential: "stale") {
            refreshes.mutate { $0 += 1 }
            return "fresh"
        }
        let stub = StubTransport([.init { request in
            let ok = request.head.headerFields[.authorization] == "Bearer fresh"
            return Response(head: HTTPResponse(status: ok ? .ok : .unauthorized))
        }], fallback: .init { request in
            let ok = request.head.headerFields[.authorization] == "Bearer fresh"
            return Response(head: HTTPResponse(status: ok ? .ok : .unauthorized))
        })
        let client = RequestClient(transport: stub, middleware: [.bearerToken(store)])
        #expect(try await client.send(try Self.request()).status == .ok)
        #expect(try await client.send(try Self.request()).status == .ok)
        #expect(refreshes.value == 1)
        #expect(stub.receivedRequests.compactMap { $0.head.headerFields[.authorization] } == ["Bearer stale", "Bearer fresh", "Bearer fresh"])
    }

    /// Records what the rest of the chain gave back: a response or an error.
    struct OutcomeRecorder: RequestMiddleware {
        let outcomes: LockedBox<[String]>
        func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
            do {
                let response = try await next(request)
                outcomes.mutate { $0.append("response \(response.status.code)") }
                return response
            } catch {
                outcomes.mutate { $0.append("error") }
                throw error
            }
        }
    }

    /// `.validateStatus` placed inside another middleware fails there, so
    /// the outer one sees the failure; without it, only the client's own
    /// check (outermost) fails the call.
    @Test(arguments: [true, false])
    func validateStatusFailsWhereItIsPlaced(placed: Bool) async throws {
        let outcomes = LockedBox<[String]>([])
        let stub = StubTransport(fallback: .json(#"{"error":"gone"}"#, status: .notFound))
        let inner: [any RequestMiddleware] = placed ? [.validateStatus] : []
        let client = RequestClient(transport: stub, middleware: [OutcomeRecorder(outcomes: outcomes)] + inner)
        let error = await #expect(throws: RequestError.self) { try await client.send(try Self.request()) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.description.contains("gone") == true)
        #expect(outcomes.value == [placed ? "error" : "response 404"])
    }

    @Test func stubRecordsRequestsAndProgress() async throws {
        let stub = StubTransport()
        let progress = LockedBox<[UploadProgress]>([])
        _ = try await stub.send(try Self.request(.post, body: .text("abc"))) { report in progress.mutate { $0.append(report) } }
        #expect(stub.receivedRequests.first?.body == Array("abc".utf8))
        #expect(progress.value == [UploadProgress(bytesSent: 3, totalBytes: 3)])
    }

    @Test func stubDelaysHonourCancellation() async throws {
        let stub = StubTransport(fallback: .status(.ok, delay: .seconds(60)))
        let task = Task { try await RequestClient(transport: stub).send(try Self.request()) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }
}

/// A value behind a lock, for tests that collect from `@Sendable` closures.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// Collects formatted log lines (message plus metadata) into a box.
struct CapturingLogHandler: LogHandler {
    let lines: LockedBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.mutate { $0.append("\(event.level) \(event.message)") }
    }
}

/// Sending endpoints: the response decodes into the endpoint's type.
@Suite struct EndpointSendingTests {
    struct Post: Codable, Sendable, Equatable { var id: Int; var title: String }

    struct Sample: Endpoint {
        typealias Response = Post
        var baseURL: URL { URL(string: "https://api.example.com/v1") ?? URL(filePath: "/") }
        var path: [String] { ["posts", "a/b"] }
        var method: HTTPRequest.Method { .get }
        var task: HTTPTask { .plain }
        var headers: HTTPFields { [:] }
        var sampleData: Data? { Data(#"{"id": 7, "title": "Hello"}"#.utf8) }
    }

    @Test func sendsEndpointAndDecodesItsResponseType() async throws {
        let stub = StubTransport([.sample(of: Sample())])
        let post = try await RequestClient(transport: stub).send(Sample())
        #expect(post == Post(id: 7, title: "Hello"))
        #expect(stub.receivedRequests.first?.head.path == "/v1/posts/a%2Fb")
    }

    @Test func reportsUndecodableEndpointResponseAsDecodingError() async throws {
        let stub = StubTransport([.json(#"{"id": "seven"}"#)])
        let error = await #expect(throws: RequestError.self) { try await RequestClient(transport: stub).send(Sample()) }
        #expect(error?.code == .decoding)
        #expect(error?.response?.body == Data(#"{"id": "seven"}"#.utf8))
    }
}
