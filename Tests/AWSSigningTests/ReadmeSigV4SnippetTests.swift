import AWSSigning
import Foundation
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// The README's SigV4 snippet, pasted verbatim into a function so the
/// compiler checks it; a test checks the README still says the same.
@Suite struct ReadmeSigV4SnippetTests {
    /// Never called (it would go to AWS): it exists to compile the snippet.
    static func snippet(photoURL: URL) async throws -> URL {
        // README SigV4 snippet begins
        let signer = SigV4Signer(credentials: try .environment(), region: "eu-west-1")  // AWS_ACCESS_KEY_ID, …
        let client = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.retry(), .sigV4(signer)])
        let bucket = "https://my-bucket.s3.eu-west-1.amazonaws.com"
        let upload = try HTTPRequestBuilder.put(bucket).path("photos", "cat.jpg").file(at: photoURL).build()
        _ = try await client.send(upload)                         // the file's SHA-256 is signed
        let download = try HTTPRequestBuilder.get(bucket).path("photos", "cat.jpg").build()
        let link = try signer.presignedURL(for: download.head, expiresIn: .seconds(3600), date: Date())
        // README SigV4 snippet ends
        return link
    }

    @Test func readmeShowsTheSnippetCompiledHere() throws {
        let readme = try ReadmeSnippet.readmeBlock(in: "Signing requests for AWS (SigV4)", at: 0)
        #expect(!readme.isEmpty)
        #expect(try ReadmeSnippet.compiled(named: "README SigV4 snippet", in: #filePath) == readme)
    }
}
