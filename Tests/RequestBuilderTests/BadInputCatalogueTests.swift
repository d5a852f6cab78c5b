import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import Testing

/// Rows of docs/bad-input.md that no other test covered: each bad builder
/// input fails `build()` with `invalidRequest` and a sentence naming it.
@Suite struct BadInputCatalogueTests {
    private func buildError(_ builder: HTTPRequestBuilder) -> RequestError? {
        do {
            _ = try builder.build()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("", "is not a valid URL"),
        ("ftp://example.com/files", "is not an http or https URL"),
        ("https://user:secret@example.com/", "user name or password"),
        ("https://example.com/page#top", "has a fragment"),
    ])
    func badBaseURLIsRejectedNamingIt(baseURL: String, reason: String) throws {
        let error = try #require(buildError(HTTPRequestBuilder.get(baseURL)))
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains(reason), "\(error)")
        if !baseURL.contains("secret") {
            #expect(error.description.contains(baseURL.debugDescription))
        } else {
            #expect(!error.description.contains("secret"), "the password must not be echoed")
        }
    }

    /// One `Host` field stands in for the authority's Host line (curl's
    /// `-H Host:`, the uploader's `Host:` item); a second is refused.
    @Test func oneHostFieldReplacesTheAuthorityAndTwoAreRejected() async throws {
        let request = try HTTPRequestBuilder.get(TestAPI.baseURLString).header("Host", "other.example").build()
        let head = String(decoding: request.raw().head, as: UTF8.self)
        #expect(head.hasPrefix("GET /v1 HTTP/1.1\r\nHost: other.example\r\n"), "\(head)")
        #expect(head.components(separatedBy: "Host:").count == 2, "exactly one Host line")
        let error = try #require(buildError(HTTPRequestBuilder.get(TestAPI.baseURLString).header("Host", "a.example").header("host", "b.example")))
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("more than one Host field"))
    }

    @Test(arguments: ["", "two words", " leading"])
    func bearerTokenThatIsEmptyOrHasWhitespaceIsRejected(token: String) throws {
        let error = try #require(buildError(HTTPRequestBuilder.get(TestAPI.baseURLString).bearer(token)))
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("bearer token for header Authorization"))
    }

    @Test func basicUserNameWithColonIsRejected() throws {
        let error = try #require(buildError(HTTPRequestBuilder.get(TestAPI.baseURLString).basic(username: "a:b", password: "pw")))
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("colon"))
    }

    @Test func basicPasswordWithControlCharacterIsRejected() throws {
        let error = try #require(buildError(HTTPRequestBuilder.get(TestAPI.baseURLString).basic(username: "ann", password: "pw\u{7}")))
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("control characters"))
    }

    @Test func dotDotSegmentIsRejectedWithItsPosition() throws {
        let error = try #require(buildError(HTTPRequestBuilder.get(TestAPI.baseURLString).path("a", ".")))
        #expect(error.description.contains("Path segment 2"))
        #expect(error.description.contains("dot segment"))
    }
}
