// One enum of operations (Moya's style) with a typed result per case, sent
// to a real server.

import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

@Suite("Typed endpoints from one enum of operations")
struct TypedEndpointTests {
    struct Post: Decodable, Equatable {
        var id: Int
        var title: String
    }

    enum PostAPI: Endpoint {
        case getPost(id: Int, server: URL)
        case deletePost(id: Int, server: URL)

        typealias Response = Data

        var baseURL: URL {
            switch self {
            case .getPost(_, let server), .deletePost(_, let server): server
            }
        }
        var path: [String] {
            switch self {
            case .getPost(let id, _), .deletePost(let id, _): ["posts", String(id)]
            }
        }
        var method: HTTPRequest.Method {
            switch self {
            case .getPost: .get
            case .deletePost: .delete
            }
        }
        var task: HTTPTask { .plain }
        var headers: [String: String]? { ["Accept": "application/json"] }
        // Generous: a timeout bounds the whole exchange, body included, in
        // wall time, and at the start of a full run the CPU-bound suites
        // (property round trips, gzip) can hold both cooperative threads
        // for over 20 s before this test's read of the body gets one, and
        // beside other builds a GET was seen to take over 120 s.
        var timeout: TimeInterval { 600 }
    }

    /// The namespace users write: `API.posts.get(id:)` is an endpoint whose
    /// `Response` is `Post`.
    enum API {
        static let posts = Posts()

        struct Posts: Sendable {
            func get(id: Int, server: URL) -> some Endpoint<Post> {
                PostAPI.getPost(id: id, server: server).returning(Post.self)
            }
            func delete(id: Int, server: URL) -> some Endpoint<EmptyResponse> {
                PostAPI.deletePost(id: id, server: server).returning(EmptyResponse.self)
            }
        }
    }

    @Test("A case made typed decodes its own response type from a real server")
    func typedCaseDecodes() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([
            .status(200, headers: [("Content-Type", "application/json")], body: #"{"id": 3, "title": "Typed"}"#),
            .status(204),
        ]))
        let client = RequestClient(transport: AsyncHTTPClientTransport())
        let post: Post = try await client.send(API.posts.get(id: 3, server: server.url()))
        #expect(post == Post(id: 3, title: "Typed"))
        _ = try await client.send(API.posts.delete(id: 3, server: server.url()))
        #expect(server.requests.map(\.method) == ["GET", "DELETE"])
        #expect(server.requests.map(\.uri) == ["/posts/3", "/posts/3"])
        #expect(server.requests.map { $0.header("accept") } == ["application/json", "application/json"])
        try await server.stop()
    }

    @Test("Everything but the response type is the case's own")
    func typedEndpointKeepsTheCase() throws {
        let server = URL(string: "https://api.example.com") ?? URL(filePath: "/")
        let typed = try PostAPI.getPost(id: 1, server: server).returning(Post.self).prepare()
        let plain = try PostAPI.getPost(id: 1, server: server).prepare()
        #expect(typed.head == plain.head)
        #expect(typed.timeout == .seconds(600))
        #expect(typed.timeout == plain.timeout)
    }
}
