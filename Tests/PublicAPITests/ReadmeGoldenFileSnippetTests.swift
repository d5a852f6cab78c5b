import Foundation
import Testing

@Suite struct ReadmeGoldenFileSnippetTests {
    /// The README's golden-file example is the whole of ReadmeGoldenFileTest.swift,
    /// which this target compiles and runs, so the example cannot rot.
    @Test func readmeShowsTheGoldenFileTestRunHere() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent()
        let root = folder.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let test = try String(contentsOf: folder.appending(path: "ReadmeGoldenFileTest.swift"), encoding: .utf8)
        let section = readme.components(separatedBy: "\n## Golden-file tests\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let block = section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first
        #expect(block == test, "README's golden-file example differs from ReadmeGoldenFileTest.swift")
    }
}
