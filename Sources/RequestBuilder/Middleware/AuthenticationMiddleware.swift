/// Adds a credential to each request and, on `401 Unauthorized`, refreshes
/// it and sends the request once more.
///
/// The refresh goes through a shared ``CredentialStore``, so however many
/// requests in flight get a `401` at once, the credential is refreshed once.
/// A request whose body cannot be replayed gets its `401` passed on.
public struct AuthenticationMiddleware: RequestMiddleware {
    /// The shared credential.
    public let store: CredentialStore
    /// The header field that carries it, `Authorization` by default.
    public var field: HTTPField.Name
    /// Turns the credential into the field's value, such as `Bearer <token>`.
    public var format: @Sendable (String) -> String

    /// Creates the middleware.
    public init(
        store: CredentialStore,
        field: HTTPField.Name = .authorization,
        format: @escaping @Sendable (String) -> String = { "Bearer \($0)" }
    ) {
        self.store = store
        self.field = field
        self.format = format
    }

    /// Sends the request with the credential, refreshing it once on `401`.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> Response {
        let (credential, generation) = try await store.current()
        let first: Result<Response, any Error>
        do {
            first = .success(try await next(authorized(request, with: credential)))
        } catch {
            first = .failure(error)
        }
        guard Self.isUnauthorized(first), request.body?.isReplayable ?? true else { return try first.get() }
        let (fresh, _) = try await store.renew(after: generation)
        return try await next(authorized(request, with: fresh))
    }

    /// A `401`, whether returned or thrown by a status check further in.
    private static func isUnauthorized(_ outcome: Result<Response, any Error>) -> Bool {
        switch outcome {
        case .success(let response): response.status == .unauthorized
        case .failure(let error as RequestError): error.response?.status == .unauthorized
        case .failure: false
        }
    }

    private func authorized(_ request: PreparedRequest, with credential: String) -> PreparedRequest {
        var request = request
        request.head.headerFields[field] = format(credential)
        return request
    }
}

extension RequestMiddleware where Self == AuthenticationMiddleware {
    /// Sends `Authorization: Bearer <token>` from `store`, refreshing it on `401`.
    public static func bearerToken(_ store: CredentialStore) -> AuthenticationMiddleware {
        AuthenticationMiddleware(store: store)
    }
}
