import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

/// The README's "Describing requests" snippets, pasted verbatim into test
/// functions so they compile; a test checks the README still says the same.
@Suite struct ReadmeSnippetTests {
    @Test func endpointSnippetBuilds() async throws {
        // README snippet 1 begins
        struct Post: Codable, Sendable { var id: Int; var title: String }

        struct CreatePost: Endpoint {
            typealias Response = Post                              // what send(_:) returns
            var post: Post
            var baseURL: URL { URL(string: "https://api.example.com/v1")! }
            var path: [String] { ["posts"] }                       // segments, each percent-encoded
            var method: HTTPRequest.Method { .post }
            var task: HTTPTask { .json(post) }                     // or .query, .form, .multipart, .file...
            var headers: HTTPFields { [.accept: "application/json"] }
        }

        let request = try CreatePost(post: Post(id: 0, title: "Hello")).prepare()
        // README snippet 1 ends
        #expect(request.head.path == "/v1/posts")
        #expect(request.body?.contentType == .json)
    }

    @Test func builderSnippetBuilds() async throws {
        // `swift test` runs in the package root, where Samples/hello.txt is.
        // README snippet 2 begins
        let photoURL = URL(filePath: "Samples/hello.txt")
        let upload = try HTTPRequestBuilder.post("https://api.example.com/v1")
            .path("albums", "7", "photos")
            .query("resize", "1024")
            .bearer("token")
            .multipart { form in
                form.append("Sunset", name: "title")
                try form.appendFile(at: photoURL, name: "photo")
            }
            .timeout(.seconds(30))
            .build()
        let bytes = try await upload.raw().collect()  // exactly what HTTP/1.1 sends
        // README snippet 2 ends
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("POST /v1/albums/7/photos?resize=1024 HTTP/1.1\r\n"))
    }

    @Test func typedEnumSnippetSends() async throws {
        struct Post: Codable, Sendable { var id: Int; var title: String }
        let client = RequestClient(transport: StubTransport([.json(#"{"id": 1, "title": "Hi"}"#)]))
        // README snippet 3 begins
        enum PostAPI: Endpoint {
            case getPost(id: Int)
            case deletePost(id: Int)
            typealias Response = Data                          // an enum has one, for every case
            var baseURL: URL { URL(string: "https://api.example.com/v1")! }
            var path: [String] {
                switch self { case .getPost(let id), .deletePost(let id): ["posts", String(id)] }
            }
            var method: HTTPRequest.Method { if case .deletePost = self { .delete } else { .get } }
            var task: HTTPTask { .plain }
            var headers: [String: String]? { ["Accept": "application/json"] }  // Moya's type

            static func post(id: Int) -> some Endpoint<Post> { getPost(id: id).returning(Post.self) }
        }
        let post = try await client.send(PostAPI.post(id: 1))   // a Post
        // README snippet 3 ends
        #expect(post.title == "Hi")
        #expect(client.transport is StubTransport)
    }

    @Test func readmeShowsTheSnippetsCompiledHere() throws {
        let testFile = URL(filePath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let blocks = readme.components(separatedBy: "## Describing requests").last?
            .components(separatedBy: "\n## ").first?  // this section only: others follow it
            .components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first } ?? []
        #expect(blocks.count == 3)
        for (index, block) in blocks.enumerated() {
            let start = "// README snippet \(index + 1) begins\n"
            let end = "        // README snippet \(index + 1) ends"
            let compiled = source.components(separatedBy: start).dropFirst().first?.components(separatedBy: end).first ?? ""
            let unindented = compiled.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
                .joined(separator: "\n")
            #expect(unindented == block, "README snippet \(index + 1) differs from the code compiled in \(testFile.lastPathComponent)")
            #expect(block.split(separator: "\n").count < 20)
        }
    }
}
