import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import RequestBuilderURLSession
import TestSupport
import Testing

/// A request's timeout bounds the whole exchange, as curl's `--max-time`
/// does, on both transports: a server that sends a head and then stalls
/// mid-body, or trickles its body, is stopped at the timeout. Before, the
/// timeout ended with the head (AsyncHTTPClient) or counted only idle time
/// (URLSession), and these calls never returned.
@Suite struct WholeExchangeTimeoutTests {
    /// How a server misbehaves once it has read the request.
    enum Misbehaviour: String, CaseIterable, CustomTestStringConvertible {
        /// A head with `Content-Length: 100000`, 10 bytes, then nothing.
        case stallsMidBody
        /// The same head, then one byte every 250 ms: never idle for long.
        case tricklesBody
        var testDescription: String { rawValue }

        static let head = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"

        var reply: RawResponseServer.Reply {
            switch self {
            case .stallsMidBody: .stalling(Array((Self.head + "0123456789").utf8))
            case .tricklesBody: .trickling(head: Self.head, byte: UInt8(ascii: "."), interval: .milliseconds(250))
            }
        }
    }

    /// How long the test waits before calling the exchange a hang; far past
    /// the request's 1-second timeout, scaled for a loaded machine.
    static let hangBudget = TestTime.liveness

    /// Runs `operation`; `nil` if it is still running after `budget` (it is
    /// then cancelled, so a hang ends the test instead of the run).
    static func bounded<Value: Sendable>(
        by budget: Duration = hangBudget,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, any Error>? {
        await withTaskGroup(of: Result<Value, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await operation()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: budget)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static func request(to server: RawResponseServer) throws -> PreparedRequest {
        try HTTPRequestBuilder.post("http://127.0.0.1:\(server.port)/up")
            .body(.bytes(Array("payload".utf8), contentType: nil))
            .timeout(.seconds(1))
            .build()
    }

    /// The error a bounded call ended with, recording a hang or a success as a failure.
    static func timeoutError<Value>(_ outcome: Result<Value, any Error>?) -> RequestError? {
        switch outcome {
        case nil:
            Issue.record("still running after \(hangBudget): the timeout did not bound the exchange")
            return nil
        case .success:
            Issue.record("succeeded against a server that never finishes its body")
            return nil
        case .failure(let error as RequestError):
            return error
        case .failure(let error):
            Issue.record("not a RequestError: \(error)")
            return nil
        }
    }

    @Test(arguments: TransportIntegrationTests.Kind.allCases, Misbehaviour.allCases)
    func timeoutBoundsTheResponseBody(kind: TransportIntegrationTests.Kind, misbehaviour: Misbehaviour) async throws {
        let server = try await RawResponseServer.start { _ in misbehaviour.reply }
        let request = try Self.request(to: server)
        let transport = kind.make()
        let outcome = await Self.bounded { try await RequestClient(transport: transport).send(request) }
        let error = Self.timeoutError(outcome)
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(error?.description == "POST http://127.0.0.1:\(server.port)/up: timed out after 1 second")
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    /// A streamed response's body is read after `stream` returns; the same
    /// deadline bounds the reads.
    @Test(arguments: Misbehaviour.allCases)
    func streamedBodyIsBoundedBySameDeadline(misbehaviour: Misbehaviour) async throws {
        let server = try await RawResponseServer.start { _ in misbehaviour.reply }
        let request = try Self.request(to: server)
        let outcome = await Self.bounded {
            let response = try await RequestClient(transport: AsyncHTTPClientTransport()).stream(request)
            #expect(response.status == .ok)  // the head came at once
            for try await _ in response.body {}
        }
        let error = Self.timeoutError(outcome)
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(error?.description.contains("127.0.0.1:\(server.port)") == true)
        try await server.stop()
    }

    /// A body read after the deadline has passed fails at once.
    @Test func readingTheBodyAfterTheDeadlineFailsAtOnce() async throws {
        let server = try await RawResponseServer.start { _ in Misbehaviour.stallsMidBody.reply }
        let request = try Self.request(to: server).updating(timeout: .milliseconds(300))
        let outcome = await Self.bounded {
            let response = try await AsyncHTTPClientTransport().stream(request)
            try await Task.sleep(for: .milliseconds(400))  // past the deadline before the first read
            return try await response.collect()
        }
        let error = Self.timeoutError(outcome)
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        try await server.stop()
    }
}
