import Foundation
import HTTPBody
import HTTPBodyTesting
import Testing

@Suite struct QueryEncodingTests {
    struct Search: Encodable {
        var q: String
        var page: Int
        var filters: Filters
        var sort: [String]

        struct Filters: Encodable {
            var lang: String
            var since: Date
        }
    }

    private let search = Search(
        q: "swift & c++ = fun?", page: 2,
        filters: .init(lang: "en", since: Date(timeIntervalSince1970: 0)), sort: ["-stars", "name"]
    )

    /// The request target (path and query) of a URL, as a request line carries it.
    private func target(_ url: URL) throws -> String {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    @Test func addsQueryToURLWithoutOne() async throws {
        let url = try #require(URL(string: "https://example.com/search")).appendingQuery(search)
        expectGolden(try await EncoderFixtures.get(try target(url)), named: "new.http")
    }

    @Test func keepsExistingQueryFirstAndInOrder() async throws {
        let base = try #require(URL(string: "https://example.com/search?z=1&a=%2F&flag"))
        let url = try base.appendingQuery(search, encoder: .init(arrayEncoding: .noBrackets, spaceEncoding: .plusReplaced))
        #expect(url.query(percentEncoded: true)?.hasPrefix("z=1&a=%2F&flag&q=swift+%26") == true)
        expectGolden(try await EncoderFixtures.get(try target(url)), named: "merged.http")
    }

    @Test func encodesPairsWithReservedAndUnicodeCharacters() async throws {
        let pairs = [("naïve key", "a/b?c#d"), ("emoji", "🚀"), ("empty", ""), ("list[]", "x y")]
        let url = try #require(URL(string: "http://example.com/p")).appendingQuery(pairs)
        expectGolden(try await EncoderFixtures.get(try target(url)), named: "pairs.http")
        let sorted = try #require(URL(string: "http://example.com/p?b=2")).appendingQuery(pairs, encoder: .init(keyOrdering: .sorted))
        expectGolden(try await EncoderFixtures.get(try target(sorted)), named: "pairs-sorted.http")
    }

    @Test func keepsFragmentLast() throws {
        let url = try #require(URL(string: "https://example.com/p?a=1#section")).appendingEncodedQuery("b=2")
        #expect(url.absoluteString == "https://example.com/p?a=1&b=2#section")
    }

    @Test func emptyQueryLeavesURLUnchanged() throws {
        let url = try #require(URL(string: "https://example.com/p?a=1"))
        #expect(url.appendingEncodedQuery("") == url)
        let bare = try #require(URL(string: "https://example.com/p?"))
        #expect(bare.appendingEncodedQuery("b=2").absoluteString == "https://example.com/p?b=2")
    }

    @Test func queryErrorsNameTheKeyPath() throws {
        let url = try #require(URL(string: "https://example.com/"))
        let error = #expect(throws: URLEncodedFormError.self) { try url.appendingQuery(["ratio": Double.nan]) }
        #expect(error?.keyPath == "ratio")
    }
}
