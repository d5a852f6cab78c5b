import Foundation
import HTTPTypes
import RequestBuilder
import Testing

@Suite("InMemoryResponseCache keeps within its bounds, least recently used out first")
struct InMemoryResponseCacheTests {
    static func key(_ name: String) -> ResponseCacheKey {
        ResponseCacheKey(method: .get, url: "https://api.example.com/\(name)")
    }

    static func entry(bodySize: Int) -> CachedResponse {
        CachedResponse(response: Response(head: HTTPResponse(status: .ok, headerFields: [.eTag: #""e""#]), body: Data(count: bodySize)))
    }

    @Test("Past the entry bound, the least recently used entry goes; a read counts as a use")
    func evictsLeastRecentlyUsedEntry() async {
        let cache = InMemoryResponseCache(maximumEntries: 2)
        await cache.storeCachedResponse(Self.entry(bodySize: 1), for: Self.key("a"))
        await cache.storeCachedResponse(Self.entry(bodySize: 1), for: Self.key("b"))
        _ = await cache.cachedResponse(for: Self.key("a"))
        await cache.storeCachedResponse(Self.entry(bodySize: 1), for: Self.key("c"))

        #expect(await cache.count == 2)
        #expect(await cache.cachedResponse(for: Self.key("a")) != nil)
        #expect(await cache.cachedResponse(for: Self.key("b")) == nil)
        #expect(await cache.cachedResponse(for: Self.key("c")) != nil)
    }

    @Test("Past the byte bound, old entries go until the total fits; one larger than the bound is refused")
    func keepsWithinTotalBytes() async {
        let entrySize = Self.entry(bodySize: 100).byteCount
        let cache = InMemoryResponseCache(maximumEntries: 100, maximumTotalBytes: entrySize * 2)
        for name in ["a", "b", "c"] {
            await cache.storeCachedResponse(Self.entry(bodySize: 100), for: Self.key(name))
        }
        #expect(await cache.count == 2)
        #expect(await cache.totalBytes == entrySize * 2)
        #expect(await cache.cachedResponse(for: Self.key("a")) == nil)

        await cache.storeCachedResponse(Self.entry(bodySize: entrySize * 2), for: Self.key("huge"))
        #expect(await cache.cachedResponse(for: Self.key("huge")) == nil)
        #expect(await cache.totalBytes == entrySize * 2)
    }

    @Test("Replacing and removing an entry keep the byte count exact")
    func replacingKeepsTheCount() async {
        let cache = InMemoryResponseCache()
        await cache.storeCachedResponse(Self.entry(bodySize: 10), for: Self.key("a"))
        await cache.storeCachedResponse(Self.entry(bodySize: 30), for: Self.key("a"))
        #expect(await cache.totalBytes == Self.entry(bodySize: 30).byteCount)
        await cache.removeCachedResponse(for: Self.key("a"))
        #expect(await cache.totalBytes == 0)
        #expect(await cache.count == 0)
    }
}
