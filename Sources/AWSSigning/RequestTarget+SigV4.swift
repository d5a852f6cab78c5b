import HTTPBody
import RequestBuilder

/// A request target as SigV4 reads it: the canonical URI and query of its
/// canonical request.
extension RequestTarget {
    /// S3's canonical URI: each segment decoded, then encoded once.
    var s3Path: String {
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.sigV4Canonical($0) }
            .joined(separator: "/")
    }

    /// Other services' canonical URI: dot segments and empty segments
    /// removed, a trailing slash kept, each segment encoded as it is.
    var normalizedPath: String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." {
                _ = segments.popLast()
            } else {
                segments.append(segment)
            }
        }
        let trailing = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return "/" + segments.map { PercentEncoding.sigV4($0.utf8) }.joined(separator: "/") + trailing
    }

    /// The canonical query: every item (bar those named in `leavingOut`,
    /// compared decoded) and `extra`, decoded then encoded, sorted.
    func canonicalQuery(adding extra: [(String, String)] = [], leavingOut: Set<String> = []) -> String {
        var encoded: [(String, String)] = []
        for item in items where leavingOut.isEmpty || !leavingOut.contains(item.decodedName) {
            encoded.append((PercentEncoding.sigV4Canonical(item.name), PercentEncoding.sigV4Canonical(item.value)))
        }
        for (name, value) in extra {
            encoded.append((PercentEncoding.sigV4(name.utf8), PercentEncoding.sigV4(value.utf8)))
        }
        // Byte order, as AWS sorts (String's < would order by Unicode scalars,
        // the same for these ASCII strings, but say what is meant).
        encoded.sort { left, right in
            left.0 == right.0 ? left.1.utf8.lexicographicallyPrecedes(right.1.utf8) : left.0.utf8.lexicographicallyPrecedes(right.0.utf8)
        }
        return encoded.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
