import Foundation
import HTTPTypes

/// Fails with ``RequestError/Code/unacceptableStatus`` when a response's status
/// is not one the request's ``PreparedRequest/acceptableStatus`` accepts.
///
/// A `304 Not Modified` to a request that carries `If-None-Match` or
/// `If-Modified-Since` passes: it answers the question the request asked
/// (see ``PreparedRequest/accepts(_:)``).
///
/// ``RequestClient`` always validates the final response; place this
/// middleware explicitly to validate earlier in the chain (for example
/// inside logging, so the failure is logged as one). The error carries the
/// response with the first ``previewLimit`` bytes of its body, where servers
/// explain what went wrong.
public struct StatusValidationMiddleware: RequestMiddleware {
    /// How much of an unaccepted response's body the error keeps: 64 KiB.
    public static let previewLimit = 64 * 1024

    /// Creates the middleware.
    public init() {}

    /// Passes the request on and checks the status of what comes back.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        let response = try await next(request)
        guard request.accepts(response.status) else {
            throw RequestError.unacceptableStatus(await response.preview(upTo: Self.previewLimit), for: request)
        }
        return response
    }
}

extension StreamedResponse {
    /// The response with at most `limit` bytes of its body, the rest left
    /// unread; a body that fails to arrive gives what came before the failure.
    func preview(upTo limit: Int) async -> Response {
        var bytes: [UInt8] = []
        do {
            for try await chunk in body {
                bytes += chunk.prefix(limit - bytes.count)
                if bytes.count >= limit { break }
            }
        } catch {
            // The status is what the caller needs; a partial preview will do.
        }
        return Response(head: head, body: Data(bytes))
    }
}

extension RequestMiddleware where Self == StatusValidationMiddleware {
    /// Fails on statuses the request does not accept.
    public static var validateStatus: StatusValidationMiddleware { StatusValidationMiddleware() }
}
