import HTTPBody

/// Percent-encoding of one path segment (RFC 3986, section 3.3).
enum PathSegment {
    /// Encodes every byte outside `pchar`, so `/`, `?` and `#` inside a segment
    /// stay data, never structure.
    static func encode(_ segment: String, position: Int) throws(RequestError) -> String {
        guard !segment.isEmpty else {
            throw RequestError.invalidRequest("Path segment \(position) is empty; it would put \"//\" in the path")
        }
        guard segment != ".", segment != ".." else {
            // Servers and proxies remove dot segments, so the request would reach another resource.
            throw RequestError.invalidRequest(
                "Path segment \(position), \(segment.debugDescription), is a dot segment, which servers resolve away (RFC 3986, section 5.2.4)"
            )
        }
        return PercentEncoding.encode(segment, allowing: .pathSegment)
    }
}
