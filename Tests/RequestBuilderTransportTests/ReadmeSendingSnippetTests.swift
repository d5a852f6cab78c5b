import Foundation
import Logging
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import Testing

/// The README's "Sending requests" snippet, pasted verbatim into a function so
/// the compiler checks it; a test checks the README still says the same.
@Suite struct ReadmeSendingSnippetTests {
    /// Never called (it would go to api.example.com): it exists to compile the snippet.
    static func snippet(
        savedToken: String,
        signIn: @escaping @Sendable () async throws -> String,
        logger: Logger,
        photoURL: URL
    ) async throws -> Response {
        // README snippet begins
        let tokens = CredentialStore(credential: savedToken) { try await signIn() }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [.logging(to: logger), .retry(maximumAttempts: 3), .bearerToken(tokens)]
        )
        let request = PreparedRequest(
            head: HTTPRequest(method: .put, scheme: "https", authority: "api.example.com", path: "/photos/1"),
            body: try .file(at: photoURL)
        )
        let response = try await client.send(request) { progress in print(progress.bytesSent) }
        // README snippet ends
        return response
    }

    @Test func readmeShowsTheSendingSnippetCompiledHere() throws {
        let testFile = URL(filePath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let section = readme.components(separatedBy: "## Sending requests").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let block = section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first ?? ""
        let compiled = source.components(separatedBy: "// README snippet begins\n").dropFirst().first?
            .components(separatedBy: "        // README snippet ends").first ?? ""
        let unindented = compiled.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
        let readmeCode = block.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
        #expect(!readmeCode.isEmpty)
        #expect(unindented.trimmingCharacters(in: .newlines) == readmeCode)
    }
}
