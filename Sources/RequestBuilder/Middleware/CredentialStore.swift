/// Holds the current credential and refreshes it, once, for every request
/// that found it stale.
///
/// When several requests get `401` with the same credential, the first starts
/// a refresh and the others wait for that same refresh; a request that
/// finds the credential already renewed since it was sent just retries with
/// the new one. An actor, because this is the one piece of state all
/// requests in flight share.
public actor CredentialStore {
    private var credential: String?
    private var generation = 0
    private var refreshing: Task<String, any Error>?
    private let refresh: @Sendable () async throws -> String

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - credential: The credential to start with, or `nil` to refresh before the first request.
    ///   - refresh: Obtains a new credential, such as a new access token from a refresh token.
    public init(credential: String?, refresh: @escaping @Sendable () async throws -> String) {
        self.credential = credential
        self.refresh = refresh
    }

    /// The credential to send now, with a number that identifies it.
    func current() async throws -> (String, generation: Int) {
        if let refreshing { return (try await refreshing.value, generation) }
        if let credential { return (credential, generation) }
        return try await renew(after: generation)
    }

    /// Replaces the credential sent as `generation`, unless that was already done.
    func renew(after staleGeneration: Int) async throws -> (String, generation: Int) {
        if let refreshing { return (try await refreshing.value, generation) }
        if staleGeneration != generation, let credential { return (credential, generation) }
        let refresh = self.refresh
        let task = Task {
            do {
                return try await refresh()
            } catch {
                throw RequestError(code: .credentialRefresh, description: "The credential could not be refreshed: \(error)", underlying: error)
            }
        }
        refreshing = task
        defer { refreshing = nil }
        let fresh = try await task.value
        credential = fresh
        generation += 1
        return (fresh, generation)
    }
}
