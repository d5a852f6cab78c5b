import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

@testable import uploader

/// The library sentences the command rewrites (#24.15) are still the
/// library's: if one changes, this fails, instead of API advice reaching
/// the command's users unrewritten.
@Suite struct LibraryAdviceTests {
    @Test func everyRewrittenPhraseIsStillTheLibrarys() async throws {
        let libraryTexts = [
            TransportFailureText.untrustedCertificate("host:443", rootsFile: nil),
            "the server must renew it \(TransportFailureText.skipVerification)",
            TransportFailureText.clientCertificateRequired("host:443"),
            await Self.readOnceRedirectRefusal(),
            Self.baseURLRefusal(),
            RequestError.responseTooLarge(limit: 1).description,
        ]
        #expect(libraryTexts.count == LibraryAdvice.rewrites.count)
        for (rewrite, text) in zip(LibraryAdvice.rewrites, libraryTexts) {
            #expect(text.contains(rewrite.library), "\(text)")
            #expect(!LibraryAdvice.rewriting(text).contains(rewrite.library))
        }
    }

    /// A redirect's refusal to send a body read once again, as the library words it.
    private static func readOnceRedirectRefusal() async -> String {
        let transport = StubTransport(fallback: .status(.temporaryRedirect, headerFields: [.location: "/again"]))
        let client = RequestClient(transport: transport, middleware: [.followingRedirects()])
        let body = RequestBody.stream(AsyncStream<[UInt8]> { $0.yield([1]); $0.finish() }, length: 1)
        do {
            _ = try await client.send(try HTTPRequestBuilder.post("http://example.com/up").body(body).build())
            return ""
        } catch {
            return "\(error)"
        }
    }

    private static func baseURLRefusal() -> String {
        do {
            _ = try HTTPRequestBuilder.get("http://user:pass@example.com/").build()
            return ""
        } catch {
            return "\(error)"
        }
    }
}
