import Foundation
import HTTPBody
import HTTPBodyTesting
import RequestBuilder
import Testing

/// What an app shows for an error (`localizedDescription`, as a SwiftUI
/// alert or a UIKit label does) is the error's own sentence, never
/// Foundation's "The operation could not be completed".
@Suite struct ReadableErrorTests {
    @Test func localizedDescriptionIsTheDescription() async throws {
        var errors: [any Error] = []
        do { _ = try RequestBody.file(at: URL(filePath: "/no/such/file.bin")) } catch { errors.append(error) }
        do { _ = try MultipartBoundary.constant("") } catch { errors.append(error) }
        do { _ = try URLEncodedFormEncoder().encode(42) } catch { errors.append(error) }
        do { _ = try HTTPRequestBuilder.get("ftp://example.com/").build() } catch { errors.append(error) }
        let golden = GoldenFile(url: URL(filePath: "/no/such/folder/golden.bin"))
        if let failure = golden.check([1, 2, 3], recording: .never) { errors.append(failure) }
        #expect(errors.count == 5)
        for error in errors {
            let description = "\(error)"
            #expect(!description.isEmpty)
            #expect(error.localizedDescription == description, "\(type(of: error))")
            #expect(!error.localizedDescription.contains("could not be completed"))
        }
    }

    @Test func aTimeoutSuggestsWhatHelpsInLibraryTerms() throws {
        let request = try HTTPRequestBuilder.get("https://example.com/").build()
        let error = RequestError.timedOut(request, after: .seconds(1))
        #expect(error.recoverySuggestion == "Try again later, or allow the request more time with HTTPRequestBuilder.timeout(_:).")
        #expect(RequestError.responseTooLarge(limit: 1).recoverySuggestion?.contains("RequestClient.stream(_:progress:)") == true)
        #expect(RequestError.invalidRequest("x").recoverySuggestion == nil)
    }

    /// A golden file failure's kind prints as the static member's name.
    @Test func aGoldenFileFailureKindPrintsAsItsName() {
        let golden = GoldenFile(url: URL(filePath: "/no/such/folder/golden.bin"))
        let failure = golden.check([1], recording: .never)
        #expect(failure.map { "\($0.kind)" } == "missing")
    }
}
