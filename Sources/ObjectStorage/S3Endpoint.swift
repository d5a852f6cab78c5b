public import Foundation
import HTTPBody

/// Where an S3 service answers, the region requests are signed for, and how
/// a bucket appears in a URL.
///
/// ```swift
/// let aws = S3Endpoint.aws(region: "eu-west-1")
/// let minio = S3Endpoint(url: URL(string: "http://127.0.0.1:9000")!, region: "us-east-1")
/// ```
public struct S3Endpoint: Sendable, Hashable {
    /// How a bucket is named in a request's URL.
    public struct Addressing: Sendable, Hashable {
        fileprivate enum Base: Hashable { case virtualHosted, path }
        fileprivate let base: Base

        /// `https://BUCKET.s3.REGION.amazonaws.com/KEY`: AWS's own form.
        public static let virtualHosted = Addressing(base: .virtualHosted)
        /// `URL/BUCKET/KEY`: what S3-compatible stores (MinIO, Ceph, moto)
        /// answer at one host, and what AWS needs for bucket names with dots
        /// over HTTPS.
        public static let path = Addressing(base: .path)
    }

    /// The service's base URL, scheme and host (and port), no path.
    public var url: URL
    /// The region requests are signed for, such as `us-east-1`.
    public var region: String
    /// How buckets appear in URLs.
    public var addressing: Addressing

    /// An S3-compatible store at `url`, addressed path-style by default.
    public init(url: URL, region: String = "us-east-1", addressing: Addressing = .path) {
        self.url = url
        self.region = region
        self.addressing = addressing
    }

    /// AWS S3 in `region`, addressed virtual-hosted style.
    public static func aws(region: String) -> S3Endpoint {
        // A region is letters, digits and dashes; anything else makes a URL that fails to parse.
        let host = "s3.\(region).amazonaws.com"
        return S3Endpoint(url: URL(string: "https://\(host)") ?? URL(fileURLWithPath: "/"), region: region, addressing: .virtualHosted)
    }

    /// The URL of `bucket` (with a trailing slash) or of an object in it:
    /// the key's segments percent-encoded once, `/` kept.
    func url(bucket: String, key: String?) throws(S3Error) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host else {
            throw S3Error(code: .invalidArgument, description: "The endpoint URL '\(url.absoluteString)' has no host")
        }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        let encodedKey = key.map { S3Endpoint.encodePath($0) } ?? ""
        switch addressing.base {
        case .virtualHosted:
            components.host = "\(bucket).\(host)"
            components.percentEncodedPath = base + "/" + encodedKey
        case .path:
            components.percentEncodedPath = base + "/" + bucket + "/" + encodedKey
        }
        components.percentEncodedQuery = nil
        guard let result = components.url else {
            throw S3Error(code: .invalidArgument, description: "The bucket '\(bucket)' and key make no valid URL at '\(url.absoluteString)'")
        }
        return result
    }

    /// RFC 3986 unreserved characters and `/` kept; every other byte of the
    /// UTF-8 key as `%XX`, as SigV4's canonical URI for S3 expects.
    static func encodePath(_ key: String) -> String {
        PercentEncoding.encode(key, allowing: .unreservedOrSlash)
    }
}
