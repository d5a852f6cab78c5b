import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import Testing

@Suite struct ResponseTests {
    struct Post: Decodable, Equatable {
        var id: Int
        var userId: Int
        var createdAt: Date
    }

    private func response(_ status: HTTPResponse.Status, _ body: String, fields: HTTPFields = [:]) -> Response {
        Response(head: HTTPResponse(status: status, headerFields: fields), body: Data(body.utf8))
    }

    @Test func decodesSnakeCaseKeysAndISO8601Dates() throws {
        let answer = response(.ok, #"{"id": 1, "user_id": 7, "created_at": "2025-04-04T09:30:00Z"}"#)
        let post = try answer.decode(Post.self, using: .snakeCaseISO8601)
        #expect(post == Post(id: 1, userId: 7, createdAt: Date(timeIntervalSince1970: 1_743_759_000)))
    }

    @Test func decodesISO8601DatesWithFractionalSeconds() throws {
        let answer = response(.ok, #"{"id": 1, "user_id": 7, "created_at": "2025-04-04T09:30:00.250Z"}"#)
        let post = try answer.decode(Post.self, using: .snakeCaseISO8601)
        #expect(post.createdAt == Date(timeIntervalSince1970: 1_743_759_000.25))
    }

    @Test func decodingFailureNamesTypeAndCodingPath() throws {
        let answer = response(.ok, #"[{"id": 1, "user_id": 7, "created_at": "2025-04-04T09:30:00Z"}, {"id": "two", "user_id": 7, "created_at": "x"}]"#)
        do {
            _ = try answer.decode([Post].self, using: .snakeCaseISO8601)
            Issue.record("decoding should fail")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.description.contains("Array<Post>"))
            #expect(error.description.contains("\"[1].id\""))
            #expect(error.response?.body == answer.body)
        }
    }

    @Test func missingKeyIsNamed() throws {
        let answer = response(.ok, #"{"id": 1}"#)
        do {
            _ = try answer.decode(Post.self, using: .snakeCaseISO8601)
            Issue.record("decoding should fail")
        } catch {
            #expect(error.description.contains("userId"))
        }
    }

    @Test func rawTypesNeedNoJSON() throws {
        let answer = response(.ok, "plain text")
        #expect(try answer.decode(String.self) == "plain text")
        #expect(try answer.decode(Data.self) == Data("plain text".utf8))
        #expect(try response(.noContent, "").decode(EmptyResponse.self) == EmptyResponse())
    }

    @Test func etagIsReadFromTheHeader() {
        #expect(response(.ok, "", fields: [.eTag: #"W/"abc""#]).etag == #"W/"abc""#)
        #expect(response(.ok, "").etag == nil)
    }

    @Test func unacceptableStatusCarriesStatusAndBodyPreview() throws {
        let answer = response(.notFound, #"{"error": "no such post"}"#)
        do {
            _ = try answer.validated(by: .successful)
            Issue.record("404 should not be accepted")
        } catch {
            #expect(error.code == .unacceptableStatus)
            #expect(error.description.contains("404 Not Found"))
            #expect(error.description.contains("no such post"))
            #expect(error.response?.status == .notFound)
        }
        #expect(throws: Never.self) { try answer.validated(by: .codes([404])) }
    }

    @Test func bodyPreviewIsTruncatedAndEscaped() {
        let answer = response(.badRequest, "line\none\u{1}" + String(repeating: "x", count: 600))
        let preview = answer.bodyPreview(limit: 20)
        #expect(preview == "line\\none\\u{1}xxxxxxxxxxx…")
    }

    @Test func endpointDecodesItsOwnResponseType() throws {
        struct GetPost: Endpoint {
            typealias Response = Post
            var baseURL: URL { TestAPI.baseURL }
            var path: [String] { ["posts", "1"] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: HTTPFields { [:] }
            var decoder: JSONDecoder { .snakeCaseISO8601 }
            var sampleData: Data? { Data(#"{"id": 1, "user_id": 7, "created_at": "2025-04-04T09:30:00Z"}"#.utf8) }
        }
        let post = try GetPost().decodeSample()
        #expect(post.userId == 7)
        let failed = response(.internalServerError, "boom")
        #expect(throws: RequestError.self) { try GetPost().decode(failed) }
    }
}
