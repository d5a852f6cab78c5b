import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Synchronization
import Testing

/// What `willRetry` hands a program reads as a person says it, not as
/// `Duration` prints (`0.034913271155455915 seconds`).
@Suite struct RetryDescriptionTests {
    /// The retry a 503 then a 200 make, with the jitter fixed so the wait
    /// is half of `initialBackoff`, and no real wait.
    static func retry(initialBackoff: Duration) async throws -> RetryMiddleware.Retry {
        let seen = Mutex<[RetryMiddleware.Retry]>([])
        let policy = RetryMiddleware(
            maximumAttempts: 2, initialBackoff: initialBackoff, maximumBackoff: .seconds(10_000),
            sleep: { _ in }, random: { 0 }, willRetry: { retry in seen.withLock { $0.append(retry) } }
        )
        let transport = StubTransport([.status(.serviceUnavailable), .status(.ok)])
        let client = RequestClient(transport: transport, middleware: [policy])
        _ = try await client.send(try HTTPRequestBuilder(.get, URL(string: "http://127.0.0.1:1/x")!).build())
        return try #require(seen.withLock { $0.first })
    }

    @Test("A retry's wait prints readably", arguments: [
        (Duration.nanoseconds(69_826_542), "35 ms"),
        (.microseconds(400), "0 ms"),
        (.milliseconds(1_998), "999 ms"),
        (.milliseconds(2_468), "1.2 s"),
        (.seconds(4), "2 s"),
        (.seconds(119.8), "59.9 s"),
        (.seconds(250), "2 min 5 s"),
        (.seconds(240), "2 min"),
    ])
    func waitPrintsReadably(initialBackoff: Duration, expected: String) async throws {
        let retry = try await Self.retry(initialBackoff: initialBackoff)
        #expect(retry.delayDescription == expected)
        #expect("\(retry)" == "attempt 2 in \(expected): \(retry.reason)")
        #expect(retry.reason.contains("503"), "\(retry.reason)")
    }
}
