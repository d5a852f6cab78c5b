import HTTPBody
import HTTPTypes

/// A request in SigV4's canonical form (the first task of signing): method,
/// canonical URI, canonical query, canonical headers, signed header names
/// and payload hash, one per line.
///
/// The rules, from AWS's "Create a canonical request" and the S3 API
/// reference (sigv4-header-based-auth):
/// - URI: each path segment URI-encoded (`PercentEncoding.sigV4`). For S3 the
///   path is the object key as sent: each segment is decoded and encoded once,
///   and nothing is normalized (`a//b` and `./` are parts of keys). For other
///   services the path is normalized as RFC 3986 removes dot segments, with
///   empty segments removed too, and the path as sent is encoded once more
///   ("twice" in AWS's words, counting the encoding of the URL itself).
/// - Query: each name and value decoded, then encoded; sorted by encoded
///   name, then value; a name without `=` has an empty value. A `+` is a
///   plus sign, not a space (SigV4 knows no form encoding): send a space as `%20`.
/// - Headers: names lowercased, values trimmed with inner runs of spaces and
///   tabs collapsed to one space, the values of a repeated name joined with
///   `,` in order; sorted by name. `host` is always signed.
struct CanonicalRequest {
    /// The canonical request's text.
    let text: String
    /// The signed header names, `;`-separated (`SignedHeaders=`).
    let signedHeaders: String

    /// Header fields never signed: hop-by-hop fields and others a proxy or
    /// client may add or rewrite after signing (botocore's list, with the
    /// hop-by-hop fields of RFC 9110, section 7.6.1).
    static let unsignedFieldNames: Set<String> = [
        "authorization", "user-agent", "expect", "transfer-encoding", "x-amzn-trace-id",
        "connection", "keep-alive", "proxy-authorization", "proxy-connection", "te", "trailer", "upgrade",
    ]

    /// The canonical form of `head`.
    ///
    /// - Parameters:
    ///   - host: The `host` value to sign.
    ///   - leavingOut: Field names (lowercase) not to sign beyond ``unsignedFieldNames``.
    ///   - extraQuery: Query items, already encoded, added to the head's (a presigned URL's).
    ///   - dropQuery: Decoded query names to leave out of the head's query.
    init(
        head: HTTPRequest, host: String, isS3: Bool, payloadHash: String,
        leavingOut: Set<String> = [], extraQuery: [(String, String)] = [], dropQuery: Set<String> = []
    ) {
        let target = RequestTarget(head.path ?? "/")
        var headers: [String: [String]] = ["host": [Self.trimmed(host)]]
        for field in head.headerFields {
            let name = field.name.canonicalName
            if name == "host" || Self.unsignedFieldNames.contains(name) || leavingOut.contains(name) { continue }
            headers[name, default: []].append(Self.trimmed(field.value))
        }
        let names = headers.keys.sorted()
        signedHeaders = names.joined(separator: ";")
        let headerLines = names.map { "\($0):\(headers[$0, default: []].joined(separator: ","))\n" }.joined()
        text = [
            head.method.rawValue,
            isS3 ? target.s3Path : target.normalizedPath,
            target.canonicalQuery(adding: extraQuery, leavingOut: dropQuery),
            headerLines,
            signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
    }

    /// `value` without leading or trailing spaces and tabs, inner runs of them as one space.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}

/// A request target (`/path?query`) as SigV4 reads it.
struct RequestTarget {
    let path: Substring
    let query: Substring?

    init(_ target: String) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if let mark = withoutFragment.firstIndex(of: "?") {
            path = withoutFragment[..<mark]
            query = withoutFragment[withoutFragment.index(after: mark)...]
        } else {
            path = withoutFragment
            query = nil
        }
    }

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

    /// The query items as sent (`name=value` or `name`, between `&`s; empty ones skipped).
    var items: [QueryItem] {
        guard let query else { return [] }
        return query.split(separator: "&").map(QueryItem.init)
    }

    /// One query item: its text as sent, and its name and value still encoded.
    struct QueryItem {
        let text: Substring
        let name: Substring
        let value: Substring

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
        var decodedName: String { String(decoding: PercentEncoding.decode(name.utf8), as: UTF8.self) }
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
