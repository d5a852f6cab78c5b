// The same post and photo API as one enum, for users coming from Moya's
// `TargetType`. An enum has one `Response` type for all its cases, so it is
// `Data` here; the `API` namespace at the end gives each case its own type
// with `returning(_:)`, so call sites get a `Post` without naming it.
//
// Run with `swift run posts-api-enum`.

import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting

struct Post: Decodable, Sendable {
    var id: Int
    var title: String
}

struct NewPost: Encodable, Sendable {
    var userId: Int
    var title: String
    var body: String
}

enum PostAPI: Endpoint {
    case getPosts(userId: Int?)
    case getPost(id: Int)
    case createPost(NewPost)
    case updatePost(id: Int, NewPost)
    case patchPost(id: Int, title: String)
    case deletePost(id: Int)
    case uploadPhoto(albumId: Int, title: String, image: Data)

    typealias Response = Data

    // A literal URL, valid by inspection.
    var baseURL: URL { URL(string: "https://jsonplaceholder.typicode.com")! }

    var path: [String] {
        switch self {
        case .getPosts, .createPost: ["posts"]
        case .getPost(let id), .updatePost(let id, _), .patchPost(let id, _), .deletePost(let id): ["posts", String(id)]
        case .uploadPhoto(let albumId, _, _): ["albums", String(albumId), "photos"]
        }
    }

    var method: HTTPRequest.Method {
        switch self {
        case .getPosts, .getPost: .get
        case .createPost, .uploadPhoto: .post
        case .updatePost: .put
        case .patchPost: .patch
        case .deletePost: .delete
        }
    }

    var task: HTTPTask {
        switch self {
        case .getPosts(let userId?): .query([("userId", String(userId))])
        case .getPosts(nil), .getPost, .deletePost: .plain
        case .createPost(let post), .updatePost(_, let post): .json(post)
        case .patchPost(_, let title): .json(["title": title])
        case .uploadPhoto(_, let title, let image):
            .multipart(boundary: (try? .constant("sample-boundary-1234567890")) ?? .random()) { form in
                form.append(title, name: "title")
                form.append(image, name: "photo", filename: "sunset.png", contentType: MediaType("image/png"))
            }
            .adding(.query([("resize", "1024")]))
        }
    }

    // Moya's type for headers works as it is.
    var headers: [String: String]? { ["Accept": "application/json"] }
}

/// Typed endpoints from the enum's cases: `API.posts.get(id: 1)` is an
/// endpoint whose `Response` is `Post`.
enum API {
    static let posts = Posts()

    struct Posts: Sendable {
        func get(id: Int) -> some Endpoint<Post> { PostAPI.getPost(id: id).returning(Post.self) }
        func create(_ post: NewPost) -> some Endpoint<Post> { PostAPI.createPost(post).returning(Post.self) }
        func delete(id: Int) -> some Endpoint<EmptyResponse> { PostAPI.deletePost(id: id).returning(EmptyResponse.self) }
    }
}

/// Prints a request as HTTP/1.1 would send it, escaping bytes that are not printable text.
func show(_ endpoint: PostAPI) async {
    print("### \(endpoint)")
    do {
        let bytes = try await endpoint.prepare().raw().collect()
        var text = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\r": continue
            case "\n", " "..."~": text.unicodeScalars.append(scalar)
            default: text += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        print(text)
    } catch {
        print("error: \(error)")
    }
    print()
}

let post = NewPost(userId: 1, title: "Hello", body: "First post")
for endpoint in [
    PostAPI.getPosts(userId: 1), .getPost(id: 1), .createPost(post), .updatePost(id: 1, post),
    .patchPost(id: 1, title: "Just the title"), .deletePost(id: 1),
    .uploadPhoto(albumId: 7, title: "Sunset", image: Data([0x89, 0x50, 0x4E, 0x47])),
] {
    await show(endpoint)
}

// A typed call: the stub answers as the server would, and `send` returns a Post.
let client = RequestClient(transport: StubTransport([.json(#"{"id": 1, "title": "Hello"}"#)]))
do {
    let fetched = try await client.send(API.posts.get(id: 1))
    print("### API.posts.get(id: 1) decoded: Post(id: \(fetched.id), title: \(fetched.title))")
} catch {
    print("error: \(error)")
}
