import Foundation
import TestSupport
import Testing

/// Every example the README and `--help` show, pasted into a shell as a
/// reader would paste it and run against a real server on 127.0.0.1: each
/// must exit 0, reach the server as one request, and carry every item (an
/// unquoted `;` would end the command early and drop what follows it).
@Suite struct ExamplesRunTests {
    /// The command lines of the README's uploader examples: the opening
    /// block and the `sh` block of "The uploader" (build commands aside).
    static func readmeExamples() throws -> [String] {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let opening = readme.components(separatedBy: "\n\n").dropFirst().first ?? ""
        let uploaderSection = readme.components(separatedBy: "## The uploader").dropFirst().first ?? ""
        let shBlock = uploaderSection.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first ?? ""
        return (opening + "\n" + shBlock).split(separator: "\n").map { line in
            // A trailing `# comment` after two spaces is prose, not part of the command.
            String(line.components(separatedBy: "  #").first ?? "").trimmingCharacters(in: .whitespaces)
        }.filter { $0.contains("uploader ") && !$0.hasPrefix("swift build") && !$0.hasPrefix("#") }
    }

    /// The command lines under EXAMPLES in `--help`, continuation lines joined.
    static func helpExamples(_ help: String) -> [String] {
        let section = help.components(separatedBy: "EXAMPLES").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        var commands: [String] = []
        var pending = ""
        for line in section.split(separator: "\n").dropFirst() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") {
                pending += text.dropLast() + " "
            } else {
                commands.append(pending + text)
                pending = ""
            }
        }
        return commands
    }

    /// Whether a shell would read the line as one pipeline: no `;` outside quotes.
    static func hasUnquotedSemicolon(_ line: String) -> Bool {
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ";" {
                return true
            }
        }
        return false
    }

    /// A folder holding every file the examples name.
    static func exampleFiles() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appending(path: "Samples"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appending(path: "dir"), withIntermediateDirectories: true)
        try Data("Hello from a sample file.\n".utf8).write(to: directory.appending(path: "Samples/hello.txt"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8)).write(to: directory.appending(path: "cat.jpg"))
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: directory.appending(path: "report.pdf"))
        try Data([0, 1, 2, 3, 255]).write(to: directory.appending(path: "dump.bin"))
        try Data("in a folder\n".utf8).write(to: directory.appending(path: "dir/file.txt"))
        try Data("A note\n".utf8).write(to: directory.appending(path: "note.txt"))
        try Data("{\"tags\": [\"a\", \"b\"]}\n".utf8).write(to: directory.appending(path: "meta.json"))
        try Data("k-123\n".utf8).write(to: directory.appending(path: "key.txt"))
        try FileManager.default.createDirectory(at: directory.appending(path: "photos/2024"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8)).write(to: directory.appending(path: "photos/2024/a.jpg"))
        return directory
    }

    /// Runs one example against `server`: its hosts pointed at the server,
    /// `uploader` (and `swift run uploader`) at the built executable.
    static func run(_ example: String, against server: TestHTTPServer, in directory: URL) async throws -> UploaderProcess.Result {
        let command = example
            .replacingOccurrences(of: "swift run uploader", with: "uploader")
            .replacingOccurrences(of: "uploader ", with: "\"$UPLOADER\" ")
            .replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(server.port)")
            .replacingOccurrences(of: "example.com", with: "127.0.0.1:\(server.port)")
        return try await UploaderProcess.runShell(command, currentDirectory: directory)
    }

    @Test func theReadmeShowsExamples() throws {
        let examples = try Self.readmeExamples()
        #expect(examples.count >= 7, "\(examples)")
        #expect(examples.contains { $0.contains("archive@-;type=application/x-tar") })
    }

    @Test(arguments: try readmeExamples())
    func readmeExampleRunsAsPasted(example: String) async throws {
        #expect(!Self.hasUnquotedSemicolon(example), "a shell would end the command at ';'")
        try await expectRuns(example)
    }

    @Test func helpExamplesFitTheScreenAndRunAsPasted() async throws {
        let help = try await UploaderProcess.run(["--help"]).outputText
        let section = help.components(separatedBy: "EXAMPLES").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        for line in section.split(separator: "\n").dropFirst() {
            // A wrapped fragment starts at the margin, where a reader takes it for a command.
            #expect(line.hasPrefix("  "), "--help wrapped an example: \(line)")
        }
        let examples = Self.helpExamples(help)
        #expect(examples.count == 6, "\(examples)")
        for example in examples {
            #expect(!Self.hasUnquotedSemicolon(example), "a shell would end \(example) at ';'")
            try await expectRuns(example)
        }
    }

    private func expectRuns(_ example: String) async throws {
        let server = try await TestHTTPServer.start()
        let directory = try Self.exampleFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.run(example, against: server, in: directory)
        try await server.stop()
        #expect(result.status == 0, "\(example): \(result.standardError)")
        if example.contains("--dry-run") {
            #expect(result.outputText.hasPrefix("POST /upload HTTP/1.1\r\n"), "\(example)")
            #expect(server.requests.isEmpty)
            return
        }
        let request = try #require(server.requests.first, "\(example) sent nothing")
        #expect(server.requests.count == 1)
        // Each item's name or value reached the server: none was cut off by the shell.
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        if example.contains("type=application/x-tar"), !example.contains("--gzip") { #expect(body.contains("Content-Type: application/x-tar"), "\(example)") }
        if example.contains("filename=Q3.pdf") { #expect(body.contains(#"filename="Q3.pdf""#), "\(example)") }
        if example.contains("Bearer") { #expect(request.header("Authorization")?.hasPrefix("Bearer ") == true, "\(example)") }
        if example.contains("X-Api-Key:@key.txt") { #expect(request.header("X-Api-Key") == "k-123" && body.contains(#""tags": ["a", "b"]"#), "\(example)") }
        if example.contains("files@photos -r") { #expect(body.contains(#"name="files"; filename="photos/2024/a.jpg""#), "\(example)") }
    }
}
