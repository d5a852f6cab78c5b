import Crypto
import HTTPBody
public import Foundation
public import HTTPTypes
import RequestBuilder

/// Signs requests with AWS Signature Version 4: in the `Authorization`
/// header (``sign(_:payloadHash:date:)``), in the query string of a
/// presigned URL (``presignedURL(for:expiresIn:date:)``), or a browser
/// POST form's policy (``signature(ofPolicy:date:)``).
///
/// The signer is a value holding credentials and a scope; it reads no clock
/// and no body, so the same inputs always give the same signature. To sign
/// requests as a RequestBuilder `RequestClient` sends them, hashing or streaming
/// the body, use ``SigV4Middleware``.
///
/// S3's rules apply when `service` is `s3` (or `s3express`, `s3-outposts`,
/// `s3-object-lambda`): the path is the object key as sent, encoded once and
/// not normalized, and `x-amz-content-sha256` carries the payload hash.
///
/// ```swift
/// let signer = SigV4Signer(credentials: try .environment(), region: "eu-west-1")
/// var head = HTTPRequest(method: .get, scheme: "https", authority: "bucket.s3.eu-west-1.amazonaws.com", path: "/photo.jpg")
/// try signer.sign(&head, payloadHash: SigV4Signer.emptyPayloadHash, date: Date())
/// ```
public struct SigV4Signer: Sendable {
    /// The access key that signs.
    public let credentials: AWSCredentials
    /// The region in the credential scope, such as `us-east-1`.
    public let region: String
    /// The service in the credential scope, such as `s3`.
    public let service: String

    /// A signer for `service` in `region`.
    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The payload hash that says the body is not signed: `UNSIGNED-PAYLOAD`.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of an empty body, in hex: the payload hash of a request without one.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The algorithm's name, the first word of `Authorization`.
    static let algorithm = "AWS4-HMAC-SHA256"

    /// Signs `head` in its `Authorization` field.
    ///
    /// Sets `x-amz-date` to `date`, `x-amz-content-sha256` to `payloadHash`
    /// (S3 only: other services sign the hash without sending it) and
    /// `x-amz-security-token` when the credentials have a session token, then
    /// `Authorization`, replacing any of them the head had. Every other field
    /// is signed, except those a proxy or client may change (`User-Agent`,
    /// `Expect`, `Transfer-Encoding` and hop-by-hop fields). `host` is the
    /// head's `Host` field when it has one (a prepared request's head does),
    /// else the authority without a default port (80 for http, 443 for https),
    /// as clients send it.
    ///
    /// - Parameters:
    ///   - head: The request to sign; its fields are updated in place.
    ///   - payloadHash: The body's SHA-256 in lowercase hex (``PayloadDigest``),
    ///     ``unsignedPayload``, or `STREAMING-AWS4-HMAC-SHA256-PAYLOAD` for an
    ///     aws-chunked body.
    ///   - date: The signing time; AWS refuses one more than 15 minutes off.
    /// - Throws: ``AWSSigningError/Code/invalidRequest`` when the head has no authority.
    public func sign(_ head: inout HTTPRequest, payloadHash: String, date: Date) throws(AWSSigningError) {
        _ = try signReturningSeed(&head, payloadHash: payloadHash, date: date)
    }

    /// Signs `head` as ``sign(_:payloadHash:date:)`` does, and returns the
    /// signature and key, which an aws-chunked body's chunk signatures chain from.
    func signReturningSeed(_ head: inout HTTPRequest, payloadHash: String, date: Date) throws(AWSSigningError) -> (signature: String, key: SigningKey) {
        let steps = try signingSteps(for: head, payloadHash: payloadHash, date: date)
        head = steps.signedHead
        return (steps.signature, signingKey(for: Self.amzDate(date)))
    }

    /// The steps of signing `head` as ``sign(_:payloadHash:date:)`` would:
    /// the canonical request, the string to sign, the signature and the
    /// signed head. For finding why a server refused a signature: S3 answers
    /// `SignatureDoesNotMatch` with the `CanonicalRequest` and `StringToSign`
    /// it computed, to compare with these.
    ///
    /// - Parameters:
    ///   - head: The request to sign.
    ///   - payloadHash: As for ``sign(_:payloadHash:date:)``.
    ///   - date: The signing time.
    /// - Throws: ``AWSSigningError/Code/invalidRequest`` when the head has no authority.
    public func signingSteps(for head: HTTPRequest, payloadHash: String, date: Date) throws(AWSSigningError) -> SigV4SigningSteps {
        var head = head
        let host = try signedHost(of: head)
        let amzDate = Self.amzDate(date)
        head.headerFields[.authorization] = nil
        head.headerFields[.xAmzDate] = amzDate
        if isS3 {
            head.headerFields[.xAmzContentSHA256] = payloadHash
        }
        if let token = credentials.sessionToken {
            head.headerFields[.xAmzSecurityToken] = token
        }
        let canonical = CanonicalRequest(head: head, host: host, isS3: isS3, payloadHash: payloadHash)
        let stringToSign = stringToSign(canonical, amzDate: amzDate)
        let signature = signingKey(for: amzDate).signature(of: stringToSign)
        head.headerFields[.authorization] =
            "\(Self.algorithm) Credential=\(credential(amzDate: amzDate)), SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
        return SigV4SigningSteps(canonicalRequest: canonical.text, stringToSign: stringToSign, signature: signature, signedHead: head)
    }

    /// A presigned URL for `head`: the signature in the query string
    /// (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`,
    /// `X-Amz-SignedHeaders`, `X-Amz-Security-Token` for temporary
    /// credentials, then `X-Amz-Signature`), usable by anyone until it expires.
    ///
    /// The payload is `UNSIGNED-PAYLOAD` for S3 (other services sign an empty
    /// body). `host` is signed, and so are the head's other fields but its
    /// framing (`Content-Length`) and those ``sign(_:payloadHash:date:)``
    /// leaves out: whoever uses the URL must send them as they are (a
    /// `Content-Type` for a PUT, say); a head with none gives a URL to fetch
    /// with no header at all. The head's query is kept as it is, less any
    /// `X-Amz-` signing parameters of an earlier presigning.
    ///
    /// - Parameters:
    ///   - head: The request the URL stands for: method, scheme, authority,
    ///     path (percent-encoded, as sent) and any fields to sign.
    ///   - expiresIn: How long the URL stays valid: whole seconds, from 1
    ///     second to 7 days.
    ///   - date: The signing time, from which the lifetime counts.
    /// - Throws: ``AWSSigningError/Code/invalidExpiry`` for a lifetime out of
    ///   range; ``AWSSigningError/Code/invalidRequest`` when the head has no
    ///   authority or its parts do not form a URL.
    public func presignedURL(for head: HTTPRequest, expiresIn: Duration, date: Date) throws(AWSSigningError) -> URL {
        let (seconds, attoseconds) = expiresIn.components
        guard attoseconds == 0, (1...604_800).contains(seconds) else { throw .invalidExpiry(expiresIn) }
        guard let authority = head.authority, !authority.isEmpty else {
            throw .invalidRequest("a presigned URL needs the request's authority (its host), and it has none")
        }
        let host = try signedHost(of: head)
        let amzDate = Self.amzDate(date)
        let target = RequestTarget(head.path ?? "/")
        // The head's own query, as sent, without the parameters of an earlier presigning.
        let keptQuery = target.items.filter { !Self.queryParameterNames.contains($0.decodedName) }.map { String($0.text) }
        var unsigned = head
        unsigned.path = String(target.path) + (keptQuery.isEmpty ? "" : "?" + keptQuery.joined(separator: "&"))
        unsigned.headerFields[.xAmzDate] = nil
        let signedNames = CanonicalRequest(head: unsigned, host: host, isS3: isS3, payloadHash: "", leavingOut: Self.framingFieldNames).signedHeaders
        var parameters = [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", credential(amzDate: amzDate)),
            ("X-Amz-Date", amzDate),
            ("X-Amz-Expires", String(seconds)),
            ("X-Amz-SignedHeaders", signedNames),
        ]
        if let token = credentials.sessionToken {
            parameters.append(("X-Amz-Security-Token", token))
        }
        let canonical = CanonicalRequest(
            head: unsigned, host: host, isS3: isS3,
            payloadHash: isS3 ? Self.unsignedPayload : Self.emptyPayloadHash,
            leavingOut: Self.framingFieldNames, extraQuery: parameters
        )
        let signature = signingKey(for: amzDate).signature(of: stringToSign(canonical, amzDate: amzDate))
        parameters.append(("X-Amz-Signature", signature))
        let added = parameters.map { "\($0.0)=\(PercentEncoding.sigV4($0.1.utf8))" }
        let query = (keptQuery + added).joined(separator: "&")
        let text = "\(head.scheme ?? "https")://\(authority)\(target.path.isEmpty ? "/" : String(target.path))?\(query)"
        guard let url = URL(string: text) else {
            throw .invalidRequest("\(text) is not a valid URL (the path must be percent-encoded as sent)")
        }
        return url
    }

    /// The credential scope with the key ID, `AKID/20150830/us-east-1/s3/aws4_request`:
    /// the `X-Amz-Credential` query parameter, or a POST form's `x-amz-credential` field.
    public func credential(for date: Date) -> String {
        credential(amzDate: Self.amzDate(date))
    }

    /// The signature of a browser-based POST upload: the hex HMAC-SHA256 of
    /// the base64-encoded policy under the derived signing key of `date`
    /// (the form's `x-amz-signature` field; its `x-amz-date` must be the same date).
    ///
    /// - Parameters:
    ///   - base64Policy: The policy document, base64-encoded, exactly as the form's `policy` field sends it.
    ///   - date: The date in the form's `x-amz-credential` and `x-amz-date`.
    public func signature(ofPolicy base64Policy: String, date: Date) -> String {
        signingKey(for: Self.amzDate(date)).signature(of: base64Policy)
    }

    /// `date` in UTC as SigV4 writes it: `20150830T123600Z` (ISO 8601 basic
    /// format, whole seconds). Computed without a formatter, so no locale or
    /// calendar setting can change it.
    public static func amzDate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return paddedYear + two(month) + two(day) + "T" + two(secondOfDay / 3600) + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + "Z"
    }

    /// `date` in UTC in ISO 8601's extended format with milliseconds,
    /// `2015-08-30T12:36:00.000Z`, as S3's POST policies write an
    /// expiration; without a formatter, as ``amzDate(_:)``.
    package static func iso8601(_ date: Date) -> String {
        let basic = amzDate(date)  // 20150830T123600Z
        func cut(_ from: Int, _ count: Int) -> Substring {
            let start = basic.index(basic.startIndex, offsetBy: from)
            return basic[start..<basic.index(start, offsetBy: count)]
        }
        let yearCount = basic.count - 12
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        let fraction = milliseconds < 0 ? milliseconds + 1000 : milliseconds
        let fractionText = String(fraction)
        return "\(cut(0, yearCount))-\(cut(yearCount, 2))-\(cut(yearCount + 2, 2))T\(cut(yearCount + 5, 2)):\(cut(yearCount + 7, 2)):\(cut(yearCount + 9, 2))."
            + String(repeating: "0", count: 3 - fractionText.count) + fractionText + "Z"
    }

    /// Year, month and day of a day counted from 1970-01-01, in the proleptic
    /// Gregorian calendar (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: Parts

    /// Whether S3's canonical rules apply.
    var isS3: Bool { Self.s3Services.contains(service) }

    private static let s3Services: Set<String> = ["s3", "s3express", "s3-outposts", "s3-object-lambda"]

    /// Fields a presigned URL does not sign: whoever fetches it frames the body.
    private static let framingFieldNames: Set<String> = ["content-length"]

    /// The query parameters presigning adds, removed from a head presigned again.
    private static let queryParameterNames: Set<String> = [
        "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires",
        "X-Amz-SignedHeaders", "X-Amz-Security-Token", "X-Amz-Signature",
    ]

    func signingKey(for amzDate: String) -> SigningKey {
        SigningKey(secret: credentials.secretAccessKey, day: String(amzDate.prefix(8)), region: region, service: service)
    }

    /// `20150830/us-east-1/s3/aws4_request`.
    func scope(amzDate: String) -> String {
        "\(amzDate.prefix(8))/\(region)/\(service)/aws4_request"
    }

    private func credential(amzDate: String) -> String {
        "\(credentials.accessKeyID)/\(scope(amzDate: amzDate))"
    }

    private func stringToSign(_ canonical: CanonicalRequest, amzDate: String) -> String {
        let digest = SHA256.hash(data: Array(canonical.text.utf8)).lowercaseHex
        return "\(Self.algorithm)\n\(amzDate)\n\(scope(amzDate: amzDate))\n\(digest)"
    }

    /// The `host` value to sign: the head's `Host` field, else its authority
    /// without the scheme's default port.
    private func signedHost(of head: HTTPRequest) throws(AWSSigningError) -> String {
        if let field = head.headerFields[.hostField] { return field }
        guard let authority = head.authority, !authority.isEmpty else {
            throw .invalidRequest("it has no authority (host) to sign")
        }
        let defaultPort = head.scheme?.lowercased() == "http" ? ":80" : ":443"
        return authority.hasSuffix(defaultPort) ? String(authority.dropLast(defaultPort.count)) : authority
    }
}
