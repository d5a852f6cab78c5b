public import Foundation
public import HTTPTypes

/// An endpoint with its response decoded as another type: the way one enum
/// of operations (Moya's style, one `Response` for every case) gives each
/// case a typed result.
///
/// ```swift
/// enum PostAPI: Endpoint {
///     case getPost(id: Int)
///     typealias Response = Data
///     // baseURL, path, method, task, headers...
/// }
/// let post = try await client.send(PostAPI.getPost(id: 1).returning(Post.self))  // a Post
/// ```
///
/// Everything but the response type is the base endpoint's.
public struct TypedEndpoint<Base: Endpoint, Response: Decodable>: Endpoint {
    /// The endpoint that describes the request.
    public let base: Base

    /// Wraps `base`, decoding its responses as `Response`.
    public init(_ base: Base, returning response: Response.Type = Response.self) {
        self.base = base
    }

    public var baseURL: URL { base.baseURL }
    public var path: [String] { base.path }
    public var method: HTTPRequest.Method { base.method }
    public var task: HTTPTask { base.task }
    public var headers: Base.Headers { get throws { try base.headers } }
    public var timeout: Base.Timeout { base.timeout }
    public var acceptableStatus: AcceptableStatus { base.acceptableStatus }
    public var sampleData: Base.SampleData { base.sampleData }
    public var decoder: JSONDecoder { base.decoder }
}

extension Endpoint {
    /// This endpoint with its response decoded as `type`.
    ///
    /// ```swift
    /// static func post(id: Int) -> some Endpoint<Post> {
    ///     PostAPI.getPost(id: id).returning(Post.self)
    /// }
    /// ```
    public func returning<Value: Decodable>(_ type: Value.Type) -> TypedEndpoint<Self, Value> {
        TypedEndpoint(self, returning: type)
    }
}
