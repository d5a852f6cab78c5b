import Foundation
public import HTTPTypes

/// What a ``ResponseCache`` files a response under: the request's method
/// and URL, query included (RFC 9111 §2).
public struct ResponseCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The request method, `GET` or `HEAD` for stored responses.
    public var method: HTTPRequest.Method
    /// The absolute URL, such as `https://api.example.com/posts?page=2`.
    public var url: String

    /// Creates a key.
    public init(method: HTTPRequest.Method, url: String) {
        self.method = method
        self.url = url
    }

    /// The key of `request`, or `nil` when its head has no complete URL.
    init?(_ request: PreparedRequest) {
        guard let url = request.url?.absoluteString else { return nil }
        self.init(method: request.head.method, url: url)
    }

    /// `METHOD URL`.
    public var description: String { "\(method.rawValue) \(url)" }
}
