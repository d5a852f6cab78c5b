/// Fails with ``RequestError/Code/unacceptableStatus`` when a response's status
/// is not one the request's ``PreparedRequest/acceptableStatus`` accepts.
///
/// ``RequestClient`` always validates the final response; place this
/// middleware explicitly to validate earlier in the chain (for example
/// inside logging, so the failure is logged as one).
public struct StatusValidationMiddleware: RequestMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Passes the request on and checks the status of what comes back.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> Response {
        let response = try await next(request)
        guard request.acceptableStatus.accepts(response.status) else {
            throw RequestError.unacceptableStatus(response, for: request)
        }
        return response
    }
}

extension RequestMiddleware where Self == StatusValidationMiddleware {
    /// Fails on statuses the request does not accept.
    public static var validateStatus: StatusValidationMiddleware { StatusValidationMiddleware() }
}
