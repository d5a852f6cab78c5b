public import Foundation

extension URL {
    /// This URL with `encodedQuery` (already percent-encoded, such as the
    /// output of ``URLEncodedFormEncoder``) added after its existing query.
    ///
    /// The existing query is kept first, byte for byte and in its order; an
    /// empty `encodedQuery` returns the URL unchanged. A fragment stays last.
    public func appendingEncodedQuery(_ encodedQuery: String) -> URL {
        guard !encodedQuery.isEmpty,
            var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encodedQuery
        } else {
            components.percentEncodedQuery = encodedQuery
        }
        return components.url ?? self
    }

    /// This URL with `value` encoded as query parameters after its existing query.
    ///
    /// - Throws: ``URLEncodedFormError`` naming the key path at fault.
    public func appendingQuery(
        _ value: some Encodable,
        encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) throws(URLEncodedFormError) -> URL {
        appendingEncodedQuery(try encoder.encode(value))
    }

    /// This URL with names and values encoded as query parameters after its existing query.
    public func appendingQuery(
        _ pairs: [(String, String)],
        encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()
    ) -> URL {
        appendingEncodedQuery(encoder.encode(pairs))
    }
}
