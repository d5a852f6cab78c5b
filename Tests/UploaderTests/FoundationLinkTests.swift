import Foundation
import Testing

/// Our libraries and the uploader use FoundationEssentials, never the whole
/// of Foundation: on Linux, one reference to it (`NSError`,
/// `JSONSerialization`, `DateFormatter`, `FileHandle`, `CharacterSet`, or
/// `String.contains(String)` in a file that imports Foundation) links ICU
/// and CoreFoundation into the installed uploader: 48 MB, and 1,800 more
/// conformance records that the Swift runtime scans at every first type
/// lookup (a tiny upload took 17.2 ms so, 14.7 ms without). Checked in the
/// objects this build compiled, which reference what the release build's do.
@Suite struct FoundationLinkTests {
    /// The modules the installed uploader links. RequestBuilderURLSession
    /// needs URLSession, which is Foundation's, and is not among them.
    static let modules = [
        "HTTPBody", "AWSSigning", "RequestBuilder", "RequestBuilderAsyncHTTPClient", "ResumableUploads", "ObjectStorage",
        "UploaderItems", "uploader",
    ]

    /// Mangled-name pieces of the whole of Foundation's own symbols (its
    /// types and its extensions of other modules' types); FoundationEssentials'
    /// are spelled `20FoundationEssentials` and match neither.
    static let foundationSymbols = ["$s10Foundation", "10FoundationE", "31FoundationInternationalization"]

    @Test func noModuleOfOursReferencesTheWholeOfFoundation() async throws {
        let products = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var objects = 0
        var references: [String] = []
        for module in Self.modules {
            let folder = products.appending(path: "\(module).build")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".o") }
            #expect(!files.isEmpty, "no objects in \(folder.path)")
            objects += files.count
            // llvm-nm comes with the toolchain; nm with binutils.
            let listing = try await UploaderProcess.runShell(
                "nm=$(command -v llvm-nm || command -v nm) || exit 127; \"$nm\" -u -A *.o", currentDirectory: folder
            )
            try #require(listing.status == 0, "listing \(module)'s undefined symbols failed (\(listing.status)): \(listing.standardError)")
            for line in listing.outputText.split(separator: "\n") where Self.foundationSymbols.contains(where: { line.firstRange(of: $0) != nil }) {
                references.append("\(module)/\(line)")
            }
        }
        #expect(objects > 50, "only \(objects) objects found under \(products.path)")
        #expect(references.isEmpty, "references to the whole of Foundation:\n\(references.joined(separator: "\n"))")
    }
}
