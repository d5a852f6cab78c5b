import AsyncHTTPClient
import NIOCore
import RequestBuilder

/// AsyncHTTPClient's response body as byte arrays, its failures given the
/// request layer's one error type, for ``ResponseBody``.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    let body: HTTPClientResponse.Body
    let request: PreparedRequest

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator(), request: request)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let request: PreparedRequest

        mutating func next() async throws -> [UInt8]? {
            do {
                return try await base.next().map { Array($0.readableBytesView) }
            } catch {
                throw AsyncHTTPClientTransport.requestError(for: error, request: request)
            }
        }
    }
}
