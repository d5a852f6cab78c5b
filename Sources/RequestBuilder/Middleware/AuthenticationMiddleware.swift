import HTTPBody
public import HTTPTypes

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
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        let (credential, generation) = try await store.current()
        let replayable = request.body?.isReplayable ?? true
        do {
            let response = try await next(authorized(request, with: credential))
            guard response.status == .unauthorized, replayable else { return response }
            // Out of scope past here: the 401's unread body is dropped before the refresh.
        } catch let error as RequestError where error.response?.status == .unauthorized && replayable {
            // A status check further in threw the 401.
        }
        let (fresh, _) = try await store.renew(after: generation)
        return try await next(authorized(request, with: fresh))
    }

    private func authorized(_ request: PreparedRequest, with credential: String) throws -> PreparedRequest {
        let value = format(credential)
        return try request.updating { $0.headerFields[field] = value }
    }
}

extension RequestMiddleware where Self == AuthenticationMiddleware {
    /// Sends `Authorization: Bearer <token>` from `store`, refreshing it on `401`.
    public static func bearerToken(_ store: CredentialStore) -> AuthenticationMiddleware {
        AuthenticationMiddleware(store: store)
    }
}
