import HTTPBody
import HTTPTypes
import RequestBuilder

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
