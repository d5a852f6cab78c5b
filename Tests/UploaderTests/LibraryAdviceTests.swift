import RequestBuilder
import Testing

@testable import uploader

/// The library sentences the command rewrites (#24.15) are still the
/// library's: if one changes, this fails, instead of API advice reaching
/// the command's users unrewritten.
@Suite struct LibraryAdviceTests {
    @Test func everyRewrittenPhraseIsStillTheLibrarys() throws {
        let libraryTexts = [
            Self.baseURLRefusal(),
            RequestError.responseTooLarge(limit: 1).description,
        ]
        for (rewrite, text) in zip(LibraryAdvice.rewrites, libraryTexts) {
            #expect(text.contains(rewrite.library), "\(text)")
            #expect(!LibraryAdvice.rewriting(text).contains(rewrite.library))
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
