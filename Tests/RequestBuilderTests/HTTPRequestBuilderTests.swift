import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import Testing

@Suite struct HTTPRequestBuilderTests {
    @Test func everyCallReturnsACopyAndLeavesTheOriginalAlone() throws {
        let base = HTTPRequestBuilder.get(TestAPI.baseURLString).path("posts").bearer("t")
        let one = try base.path("1").query("expand", "user").build()
        let all = try base.build()
        #expect(one.head.path == "/v1/posts/1?expand=user")
        #expect(all.head.path == "/v1/posts")
        #expect(all.head.headerFields[.authorization] == "Bearer t")
    }

    @Test func baseURLQueryStaysFirstAndPortIsKept() throws {
        let request = try HTTPRequestBuilder.get("https://api.example.com:8443/v1/?key=abc").path("posts").query("page", "2").build()
        #expect(request.head.authority == "api.example.com:8443")
        #expect(request.head.path == "/v1/posts?key=abc&page=2")
        #expect(request.url?.absoluteString == "https://api.example.com:8443/v1/posts?key=abc&page=2")
    }

    @Test func bareHostGetsRootPath() throws {
        let request = try HTTPRequestBuilder.get("http://localhost:8080").build()
        #expect(request.head.path == "/")
        #expect(request.head.scheme == "http")
    }

    @Test func timeoutAndAcceptedStatusesAreCarried() throws {
        let request = try HTTPRequestBuilder.delete(TestAPI.baseURLString).path("posts", "1")
            .timeout(.seconds(5)).acceptingStatus(.codes([204, 404])).build()
        #expect(request.timeout == .seconds(5))
        #expect(request.acceptableStatus.accepts(.notFound))
        #expect(!request.acceptableStatus.accepts(.ok))
    }

    @Test func basicAuthorizationIsBase64OfUserAndPassword() throws {
        let request = try HTTPRequestBuilder.get(TestAPI.baseURLString).basic(username: "kim", password: "s3cr:t").build()
        #expect(request.head.headerFields[.authorization] == "Basic a2ltOnMzY3I6dA==")
        #expect(throws: RequestError.self) { try HTTPField.authorization(username: "a:b", password: "x") }
    }

    @Test func explicitContentTypeOverridesTheBodys() async throws {
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString)
            .contentType(MediaType(type: "application", subtype: "vnd.api+json"))
            .json(["a": 1])
            .build()
        let text = String(decoding: try await wireBytes(request), as: UTF8.self)
        #expect(text.contains("Content-Type: application/vnd.api+json\r\n"))
        #expect(!text.contains("Content-Type: application/json\r\n"))
    }

    @Test func laterBodyReplacesEarlierOne() throws {
        let request = try HTTPRequestBuilder.post(TestAPI.baseURLString).json(["a": 1]).form([("b", "2")]).build()
        #expect(request.body?.contentType == .formURLEncoded)
    }
}
