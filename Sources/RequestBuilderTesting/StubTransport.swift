public import Foundation
import HTTPBody
public import HTTPTypes
public import RequestBuilder

/// A transport for tests that answers from a script instead of a network,
/// and records every request it receives.
///
/// ```swift
/// let stub = StubTransport([
///     .status(.serviceUnavailable, headerFields: [.retryAfter: "1"]),
///     .json(#"{"id": 7}"#),
/// ])
/// let client = RequestClient(transport: stub, middleware: [.retry()])
/// _ = try await client.send(request)
/// #expect(stub.receivedRequests.count == 2)
/// ```
///
/// Replies are used in order; once they run out, every further request gets
/// the fallback reply (`200 OK` with no body unless you choose another).
public final class StubTransport: HTTPTransport {
    /// One scripted answer: a response or an error, after an optional delay.
    public struct Reply: Sendable {
        let outcome: @Sendable (PreparedRequest) throws -> Response
        /// How long to wait before answering; the wait honours cancellation.
        public var delay: Duration

        /// An answer computed from the request.
        public init(delay: Duration = .zero, _ outcome: @escaping @Sendable (PreparedRequest) throws -> Response) {
            self.outcome = outcome
            self.delay = delay
        }

        /// A response with a status, header fields and body bytes.
        public static func status(
            _ status: HTTPResponse.Status,
            headerFields: HTTPFields = [:],
            body: Data = Data(),
            delay: Duration = .zero
        ) -> Reply {
            Reply(delay: delay) { _ in Response(head: HTTPResponse(status: status, headerFields: headerFields), body: body) }
        }

        /// A `200 OK` JSON response, such as an endpoint's sample data.
        public static func json(_ text: String, status: HTTPResponse.Status = .ok, delay: Duration = .zero) -> Reply {
            .status(status, headerFields: [.contentType: "application/json"], body: Data(text.utf8), delay: delay)
        }

        /// A `200 OK` answer with an endpoint's `sampleData`
        /// (an empty body when it has none).
        /// A sample of a type other than `Data` or `Data?` fails the request.
        public static func sample(of endpoint: some Endpoint, delay: Duration = .zero) -> Reply {
            Reply(delay: delay) { _ in
                Response(head: HTTPResponse(status: .ok), body: try endpoint.sampleBytes() ?? Data())
            }
        }

        /// A failure, such as `RequestError(code: .transport, ...)`.
        public static func failure(_ error: any Error, delay: Duration = .zero) -> Reply {
            Reply(delay: delay) { _ in throw error }
        }
    }

    /// A request as the stub received it, body bytes included.
    public struct ReceivedRequest: Sendable {
        /// The head as sent.
        public let head: HTTPRequest
        /// The body bytes, or `nil` for a request without a body.
        public let body: [UInt8]?
    }

    private struct State {
        var replies: [Reply]
        var received: [ReceivedRequest] = []
    }

    private let state: LockedValue<State>
    private let fallback: Reply

    /// Creates a stub that gives `replies` in order, then `fallback`.
    public init(_ replies: [Reply] = [], fallback: Reply = .status(.ok)) {
        state = LockedValue(State(replies: replies))
        self.fallback = fallback
    }

    /// The requests received so far, oldest first.
    public var receivedRequests: [ReceivedRequest] {
        state.withLock { $0.received }
    }

    /// Reads the body (reporting progress), records the request and answers from the script.
    public func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse {
        var body: [UInt8]?
        if let requestBody = request.body {
            var bytes: [UInt8] = []
            do {
                for try await chunk in requestBody.chunks() {
                    bytes += chunk
                    progress(UploadProgress(bytesSent: Int64(bytes.count), totalBytes: requestBody.length))
                }
            } catch {
                throw RequestError.body(request, "\(error)", underlying: error)
            }
            body = bytes
        }
        let received = ReceivedRequest(head: request.head, body: body)
        let reply = state.withLock { state in
            state.received.append(received)
            return state.replies.isEmpty ? fallback : state.replies.removeFirst()
        }
        if reply.delay > .zero {
            do {
                try await Task.sleep(for: reply.delay)
            } catch {
                throw RequestError.cancelled(request)
            }
        }
        return StreamedResponse(try reply.outcome(request))
    }
}
