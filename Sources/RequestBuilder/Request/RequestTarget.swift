import HTTPBody

/// A request target in origin form (RFC 9112, section 3.2.1), `/path?query`,
/// its path and query percent-encoded as they are sent: the one type the
/// builder writes a head's `:path` with and a signer reads it back with.
package struct RequestTarget: Sendable {
    /// The path, percent-encoded; `/` when nothing else.
    package var path: String
    /// The query after `?`, percent-encoded; `nil` when there is none.
    package var query: String?

    /// A target of `path` and `query`.
    package init(path: String, query: String?) {
        self.path = path
        self.query = query
    }

    /// A target read from a head's `:path`: split at the first `?`, any
    /// `#fragment` (which a client never sends) dropped.
    package init(_ text: String) {
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if let mark = withoutFragment.firstIndex(of: "?") {
            path = String(withoutFragment[..<mark])
            query = String(withoutFragment[withoutFragment.index(after: mark)...])
        } else {
            path = String(withoutFragment)
            query = nil
        }
    }

    /// The target as a head's `:path` holds it: the path, then `?` and the
    /// query when there is one.
    package var text: String {
        query.map { path + "?" + $0 } ?? path
    }

    /// This target with `segments` appended to its path, each percent-encoded
    /// on its own, and `query`'s pieces after its own query.
    ///
    /// The path keeps a trailing slash when nothing is appended
    /// (`https://h/v1/` asks for `/v1/`); appended segments are joined with
    /// one slash whatever the path ends with. An empty path becomes `/`, and
    /// an empty query is dropped with its `?`.
    package func appending(segments: [String], query: [String]) throws(RequestError) -> RequestTarget {
        var path = self.path
        if !segments.isEmpty {
            while path.hasSuffix("/") { path.removeLast() }
            for (index, segment) in segments.enumerated() {
                path += "/" + (try PathSegment.encode(segment, position: index + 1))
            }
        }
        if path.isEmpty { path = "/" }
        let pieces = (self.query.map { [$0] } ?? []).filter { !$0.isEmpty } + query
        return RequestTarget(path: path, query: pieces.isEmpty ? nil : pieces.joined(separator: "&"))
    }

    /// The query items as sent (`name=value` or `name`, between `&`s; empty ones skipped).
    package var items: [QueryItem] {
        guard let query else { return [] }
        return query.split(separator: "&").map(QueryItem.init)
    }

    /// One query item: its text as sent, and its name and value still encoded.
    package struct QueryItem: Sendable {
        /// The item as sent, `name=value`.
        package let text: Substring
        /// The name, still percent-encoded.
        package let name: Substring
        /// The value, still percent-encoded; empty for an item without `=`.
        package let value: Substring

        init(_ text: Substring) {
            self.text = text
            if let equals = text.firstIndex(of: "=") {
                name = text[..<equals]
                value = text[text.index(after: equals)...]
            } else {
                name = text
                value = text[text.endIndex...]
            }
        }

        /// The name decoded, for comparing with a parameter's.
        package var decodedName: String { String(decoding: PercentEncoding.decode(name.utf8), as: UTF8.self) }
    }
}
