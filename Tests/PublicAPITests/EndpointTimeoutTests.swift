// An endpoint's timeout in each type people declare it with, taking effect
// against a real server that answers too late.

import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// An endpoint to a server that answers after a minute, with a timeout
/// of the given type.
protocol SlowServerEndpoint: Endpoint where Response == Data, Headers == HTTPFields {
    var base: URL { get }
}

extension SlowServerEndpoint {
    var baseURL: URL { base }
    var path: [String] { ["slow"] }
    var method: HTTPRequest.Method { .get }
    var task: HTTPTask { .plain }
    var headers: HTTPFields { [:] }
}

@Suite("Endpoint timeouts in the types people declare them with")
struct EndpointTimeoutTests {
    /// A base URL for requests that are built and never sent.
    static let unusedServer = URL(string: "http://127.0.0.1:9/") ?? URL(filePath: "/")

    /// Moya's habit: `TimeInterval?`.
    struct OptionalTimeInterval: SlowServerEndpoint {
        let base: URL
        var timeout: TimeInterval? { 0.3 }
    }

    struct PlainTimeInterval: SlowServerEndpoint {
        let base: URL
        var timeout: TimeInterval { 0.3 }
    }

    struct WholeSeconds: SlowServerEndpoint {
        let base: URL
        var timeout: Int { 1 }
    }

    struct OptionalDuration: SlowServerEndpoint {
        let base: URL
        var timeout: Duration? { .milliseconds(300) }
    }

    /// Sends `endpoint` to a server that answers `200 OK` after a minute
    /// and expects the endpoint's timeout to end it first: ignored, the
    /// request would succeed. (No bound on the time taken: other suites may
    /// hold the event loops, and a timeout is a lower bound anyway.)
    func expectTimeout(_ makeEndpoint: (URL) -> some Endpoint) async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, delay: .seconds(60))]))
        let client = RequestClient(transport: AsyncHTTPClientTransport())
        let error = await #expect(throws: RequestError.self) { try await client.send(makeEndpoint(server.url())) }
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        try await server.stop()
    }

    @Test("TimeInterval? takes effect")
    func optionalTimeInterval() async throws {
        try await expectTimeout { OptionalTimeInterval(base: $0) }
    }

    @Test("TimeInterval takes effect")
    func plainTimeInterval() async throws {
        try await expectTimeout { PlainTimeInterval(base: $0) }
    }

    @Test("Int seconds take effect")
    func wholeSeconds() async throws {
        try await expectTimeout { WholeSeconds(base: $0) }
    }

    @Test("Duration? takes effect")
    func optionalDuration() async throws {
        try await expectTimeout { OptionalDuration(base: $0) }
    }

    @Test("A TimeInterval reaches the prepared request exactly")
    func timeIntervalIsCarriedExactly() throws {
        let request = try OptionalTimeInterval(base: Self.unusedServer).prepare()
        #expect(request.timeout == .milliseconds(300))
    }

    @Test("A timeout of a type that cannot mean one is refused, naming the type")
    func unreadableTypeIsRefused() throws {
        struct TextTimeout: SlowServerEndpoint {
            let base: URL
            var timeout: String { "30" }
        }
        let error = #expect(throws: RequestError.self) { try TextTimeout(base: Self.unusedServer).prepare() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("TextTimeout") == true)
        #expect(error?.description.contains("String") == true, "\(String(describing: error))")
    }

    @Test("A zero, negative or non-finite timeout is refused", arguments: [0, -1, Double.nan, -Double.infinity])
    func outOfRangeIsRefused(seconds: Double) throws {
        struct Given: SlowServerEndpoint {
            let base: URL
            let seconds: Double
            var timeout: TimeInterval { seconds }
        }
        let error = #expect(throws: RequestError.self) { try Given(base: Self.unusedServer, seconds: seconds).prepare() }
        #expect(error?.description.contains("positive") == true, "\(String(describing: error))")
    }

    @Test("A huge TimeInterval means no practical limit, not a crash")
    func hugeTimeIntervalIsCut() throws {
        struct Forever: SlowServerEndpoint {
            let base: URL
            var timeout: TimeInterval { 1e300 }
        }
        let request = try Forever(base: Self.unusedServer).prepare()
        #expect(request.timeout == .seconds(1_000_000_000))
    }

    @Test("No timeout declared leaves the transport's default")
    func noTimeoutDeclared() throws {
        struct Plain: SlowServerEndpoint { let base: URL }
        #expect(try Plain(base: Self.unusedServer).prepare().timeout == nil)
    }
}
