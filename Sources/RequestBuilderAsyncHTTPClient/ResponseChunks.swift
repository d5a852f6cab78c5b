import AsyncHTTPClient
import NIOCore
import RequestBuilder

/// AsyncHTTPClient's response body as byte arrays, its failures given the
/// request layer's one error type, for ``ResponseBody``; each read bounded
/// by the request's deadline, which AsyncHTTPClient stops watching once the
/// head is in.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    let body: HTTPClientResponse.Body
    let request: PreparedRequest
    let deadline: RequestDeadline?

    func makeAsyncIterator() -> Iterator {
        Iterator(base: BaseIterator(body.makeAsyncIterator()), request: request, deadline: deadline)
    }

    struct Iterator: AsyncIteratorProtocol {
        let base: BaseIterator
        let request: PreparedRequest
        let deadline: RequestDeadline?

        mutating func next() async throws -> [UInt8]? {
            do {
                guard let deadline else { return try await base.next() }
                // Run where the deadline can cancel it: cancelling a read of
                // AsyncHTTPClient's body ends the request and its connection.
                let base = self.base
                return try await deadline.run { try await base.next() }
            } catch {
                throw AsyncHTTPClientTransport.requestError(for: error, request: request, headArrived: true)
            }
        }
    }

    /// AsyncHTTPClient's iterator, handed to the task that reads the next
    /// chunk. `@unchecked Sendable`: reads are strictly one after another
    /// (each `next()` waits for the task it started), never concurrent.
    final class BaseIterator: @unchecked Sendable {
        private var iterator: HTTPClientResponse.Body.AsyncIterator

        init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
            self.iterator = iterator
        }

        func next() async throws -> [UInt8]? {
            try await iterator.next().map { Array($0.readableBytesView) }
        }
    }
}
