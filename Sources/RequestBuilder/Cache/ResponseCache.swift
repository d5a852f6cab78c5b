/// Where ``ConditionalRequestMiddleware`` keeps responses between requests:
/// in memory by default (``InMemoryResponseCache``), or a store of yours,
/// such as one that survives a relaunch.
///
/// The requirements are `async` so an actor can conform as it is; the
/// middleware awaits each call on the request's path, so keep them quick.
/// Three requirements, as `URLCache` has: reading, storing, and removing
/// what a later response made stale (a `200` without validators, or a
/// `PUT` to the same URL).
public protocol ResponseCache: Sendable {
    /// The response stored under `key`, if any.
    func cachedResponse(for key: ResponseCacheKey) async -> CachedResponse?
    /// Stores `response` under `key`, replacing what was there; a store
    /// may drop it, or others, to stay within its bounds.
    func storeCachedResponse(_ response: CachedResponse, for key: ResponseCacheKey) async
    /// Removes what is stored under `key`.
    func removeCachedResponse(for key: ResponseCacheKey) async
}

extension ResponseCache where Self == InMemoryResponseCache {
    /// A new in-memory cache bounded by entry count and total bytes; see ``InMemoryResponseCache``.
    public static func inMemory(
        maximumEntries: Int = InMemoryResponseCache.defaultMaximumEntries,
        maximumTotalBytes: Int = InMemoryResponseCache.defaultMaximumTotalBytes
    ) -> InMemoryResponseCache {
        InMemoryResponseCache(maximumEntries: maximumEntries, maximumTotalBytes: maximumTotalBytes)
    }
}
