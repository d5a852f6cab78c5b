/// A ``ResponseCache`` in memory, bounded by entry count and total bytes,
/// dropping the least recently used entries first.
///
/// Memory: at most ``maximumTotalBytes`` as ``CachedResponse/byteCount``
/// counts it, plus a few dozen bytes of bookkeeping per entry. An entry
/// larger than the whole budget is not stored. Eviction scans the entries
/// (O(n) for n ≤ ``maximumEntries``), and only when a store passes a bound.
/// An actor: the one piece of state every request through a client shares.
public actor InMemoryResponseCache: ResponseCache {
    /// The most entries held at once: 100 by default.
    public let maximumEntries: Int
    /// The most bytes held at once: 10 MiB by default.
    public let maximumTotalBytes: Int
    /// The bytes held now.
    public private(set) var totalBytes = 0

    /// The default ``maximumEntries``: 100.
    public static let defaultMaximumEntries = 100
    /// The default ``maximumTotalBytes``: 10 MiB.
    public static let defaultMaximumTotalBytes = 10 * 1024 * 1024

    private var entries: [ResponseCacheKey: (response: CachedResponse, byteCount: Int, lastUse: UInt64)] = [:]
    /// A counter, not a clock: it orders uses without reading the time.
    private var uses: UInt64 = 0

    /// Creates an empty cache.
    public init(
        maximumEntries: Int = InMemoryResponseCache.defaultMaximumEntries,
        maximumTotalBytes: Int = InMemoryResponseCache.defaultMaximumTotalBytes
    ) {
        self.maximumEntries = max(0, maximumEntries)
        self.maximumTotalBytes = max(0, maximumTotalBytes)
    }

    /// How many responses are held now.
    public var count: Int { entries.count }

    /// The response under `key`, which becomes the most recently used.
    public func cachedResponse(for key: ResponseCacheKey) -> CachedResponse? {
        guard let entry = entries[key] else { return nil }
        uses += 1
        entries[key]?.lastUse = uses
        return entry.response
    }

    /// Stores `response` as the most recently used entry, then drops the
    /// least recently used ones until both bounds hold.
    public func storeCachedResponse(_ response: CachedResponse, for key: ResponseCacheKey) {
        removeCachedResponse(for: key)
        let byteCount = response.byteCount
        guard byteCount <= maximumTotalBytes, maximumEntries > 0 else { return }
        uses += 1
        entries[key] = (response, byteCount, uses)
        totalBytes += byteCount
        while entries.count > maximumEntries || totalBytes > maximumTotalBytes,
              let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            removeCachedResponse(for: oldest)
        }
    }

    /// Removes the response under `key`.
    public func removeCachedResponse(for key: ResponseCacheKey) {
        guard let removed = entries.removeValue(forKey: key) else { return }
        totalBytes -= removed.byteCount
    }
}
