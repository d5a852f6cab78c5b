// The post and photo API of the source documents, written the recommended
// way: one small type per operation, each carrying its response type, all
// sharing the base URL and decoder through a protocol of their own.
//
// Run with `swift run posts-api`; it prints each request as HTTP/1.1 bytes
// (no network needed).

import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

// MARK: Models

struct Post: Codable, Sendable {
    var id: Int
    var userId: Int
    var title: String
    var body: String
}

struct NewPost: Encodable, Sendable {
    var userId: Int
    var title: String
    var body: String
}

struct PostPatch: Encodable, Sendable {
    var title: String?
}

struct Photo: Decodable, Sendable {
    var id: Int
    var albumId: Int
    var url: URL
}

// MARK: The API

/// What every endpoint of this API shares: the server, the decoder and an
/// `Accept` field. Each endpoint still states its method and task: those are
/// what differ, and a requirement left to a default is one a typo can lose.
protocol PlaceholderEndpoint: Endpoint {}

extension PlaceholderEndpoint {
    // A literal URL, valid by inspection.
    var baseURL: URL { URL(string: "https://jsonplaceholder.typicode.com")! }
    var decoder: JSONDecoder { Placeholder.decoder }
    var headers: HTTPFields { [.accept: "application/json"] }
}

enum Placeholder {
    /// One decoder for the whole API, created once.
    static let decoder = JSONDecoder.snakeCaseISO8601
    /// A fixed boundary keeps this sample's output the same on every run;
    /// real code leaves the default random boundary.
    static let boundary = "sample-boundary-1234567890"
}

struct ListPosts: PlaceholderEndpoint {
    typealias Response = [Post]
    var userId: Int?
    var method: HTTPRequest.Method { .get }
    var path: [String] { ["posts"] }
    var task: HTTPTask { userId.map { .query([("userId", String($0))]) } ?? .plain }
}

struct GetPost: PlaceholderEndpoint {
    typealias Response = Post
    var id: Int
    var method: HTTPRequest.Method { .get }
    var path: [String] { ["posts", String(id)] }
    var task: HTTPTask { .plain }
}

struct CreatePost: PlaceholderEndpoint {
    typealias Response = Post
    var post: NewPost
    var method: HTTPRequest.Method { .post }
    var path: [String] { ["posts"] }
    var task: HTTPTask { .json(post) }
    var acceptableStatus: AcceptableStatus { .codes([201]) }
}

struct UpdatePost: PlaceholderEndpoint {
    typealias Response = Post
    var post: Post
    var method: HTTPRequest.Method { .put }
    var path: [String] { ["posts", String(post.id)] }
    var task: HTTPTask { .json(post) }
}

struct PatchPost: PlaceholderEndpoint {
    typealias Response = Post
    var id: Int
    var patch: PostPatch
    var method: HTTPRequest.Method { .patch }
    var path: [String] { ["posts", String(id)] }
    var task: HTTPTask { .json(patch) }
}

struct DeletePost: PlaceholderEndpoint {
    typealias Response = EmptyResponse
    var id: Int
    var method: HTTPRequest.Method { .delete }
    var path: [String] { ["posts", String(id)] }
    var task: HTTPTask { .plain }
}

/// An image upload with query parameters: a multipart body `.adding(.query(...))`.
struct UploadPhoto: PlaceholderEndpoint {
    typealias Response = Photo
    var albumId: Int
    var title: String
    var image: Data
    var token: String
    var method: HTTPRequest.Method { .post }
    var path: [String] { ["albums", String(albumId), "photos"] }
    // The getter may throw: `prepare()` reports a bad token as an invalid request.
    var headers: HTTPFields {
        get throws { HTTPFields([try .authorization(bearer: token), try .accept(.json)]) }
    }
    var task: HTTPTask {
        .multipart(boundary: (try? .constant(Placeholder.boundary)) ?? .random()) { form in
            form.append(title, name: "title")
            form.append(image, name: "photo", filename: "sunset.png", contentType: MediaType("image/png"))
        }
        .adding(.query([("resize", "1024"), ("notify", "false")]))
    }
}

// MARK: Printing

/// Prints a request as HTTP/1.1 would send it, escaping bytes that are not printable text.
func show(_ title: String, _ endpoint: some Endpoint) async {
    print("### \(title)")
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

let samplePNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
await show("List posts", ListPosts(userId: 1))
await show("Get a post", GetPost(id: 1))
await show("Create a post", CreatePost(post: NewPost(userId: 1, title: "Hello", body: "First post")))
await show("Update a post", UpdatePost(post: Post(id: 1, userId: 1, title: "Hello again", body: "Edited")))
await show("Patch a post", PatchPost(id: 1, patch: PostPatch(title: "Just the title")))
await show("Delete a post", DeletePost(id: 1))
await show("Upload a photo", UploadPhoto(albumId: 7, title: "Sunset", image: samplePNG, token: "sample-token"))
