import Foundation

/// README code blocks and the test code that compiles them, so a test can
/// check that the README shows exactly what the compiler checked.
///
/// A test file pastes a block between `// <name> begins` and
/// `// <name> ends` inside a function (indented eight spaces, as a method
/// body is) and compares ``compiled(named:in:)`` with ``readmeBlock(in:at:)``.
public enum ReadmeSnippet {
    /// The `index`th Swift block of the README section headed `## <section>`
    /// (its `###` subsections included), `import` lines left out.
    public static func readmeBlock(in section: String, at index: Int) throws -> String {
        let readme = try String(contentsOf: packageRoot.appending(path: "README.md"), encoding: .utf8)
        let text = readme.components(separatedBy: "## \(section)\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let block = text.components(separatedBy: "```swift\n").dropFirst(index + 1).first?
            .components(separatedBy: "```").first ?? ""
        return block.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The lines of `file` between `// <name> begins` and `// <name> ends`, unindented.
    public static func compiled(named name: String, in file: String) throws -> String {
        let source = try String(contentsOf: URL(filePath: file), encoding: .utf8)
        let compiled = source.components(separatedBy: "// \(name) begins\n").dropFirst().first?
            .components(separatedBy: "        // \(name) ends").first ?? ""
        return compiled.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The package's folder: this file is at `Tests/TestSupport/ReadmeSnippet.swift`.
    private static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
