import Foundation
import HTTPBody
import Testing

/// The README's "Multipart uploads" snippet, pasted verbatim so the compiler
/// checks it and a test runs it; another test checks the README still says the same.
@Suite struct ReadmeMultipartSnippetTests {
    /// Runs from the package root, as `swift test` does, so the relative path resolves.
    @Test func multipartSnippetRuns() async throws {
        // README snippet begins
        var form = MultipartFormData()                    // a random boundary
        form.append("Sunset over the bay", name: "title")
        try form.appendFile(at: URL(filePath: "Samples/hello.txt"), name: "photo")  // sized now, read when sent
        let body = try RequestBody.multipart(form)        // Content-Length known up front
        for try await chunk in body.chunks() {            // 256 KiB chunks straight from the disk
            _ = chunk
        }
        // README snippet ends
        #expect(body.length == Int64(try await body.collect().count))
    }

    @Test func readmeShowsTheSnippetCompiledHere() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let section = readme.components(separatedBy: "## Multipart uploads").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let block = section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first ?? ""
        let source = try String(contentsOf: URL(filePath: #filePath), encoding: .utf8)
        let compiled = source.components(separatedBy: "// README snippet begins\n").dropFirst().first?
            .components(separatedBy: "        // README snippet ends").first ?? ""
        let snippet = compiled.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
        #expect(block == "import HTTPBody\n\n" + snippet)
    }
}
