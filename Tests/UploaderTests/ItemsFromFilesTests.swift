import Foundation
import TestSupport
import Testing

/// The contract's "Items from files (HTTPie)": `name=@path`, `name:=@path`,
/// `Header:@path`, `name==@path`, and `\@` for a value that starts with a
/// literal `@`, through the built executable against the recording server.
/// The expected values are what HTTPie 3.2.4 sends for the same items
/// (`http --offline`), except that a query value from a file is trimmed of
/// all surrounding whitespace, as the contract says (HTTPie drops only
/// trailing newlines there).
@Suite struct ItemsFromFilesTests {
    /// A folder of small files for one test.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "items-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in files {
            try Data(bytes).write(to: directory.appending(path: name))
        }
        return directory
    }

    static let files: [String: [UInt8]] = [
        "note.txt": Array("line 1\nline 2\n".utf8),
        "meta.json": Array("{\"x\": [1, 2.50], \"n\": 9007199254740993}\n".utf8),
        "token.txt": Array("  s3cret \n\n".utf8),
        "query.txt": Array(" a b \n".utf8),
        "binary.dat": [0xFF, 0x00, 0x41, 0x0A],
        "bad.json": Array("{\"x\": }".utf8),
        "blank.txt": Array(" \n".utf8),
    ]

    @Test func jsonFieldsHeadersAndQueriesReadTheirValuesFromFiles() async throws {
        let directory = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(
            ["--no-progress", "127.0.0.1:\(server.port)/up", "note=@note.txt", "meta:=@meta.json", "X-Token:@token.txt", "q==@query.txt", "lit=\\@home", "mid=a\\@b"],
            currentDirectory: directory
        )
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.uri == "/up?q=a%20b")
        #expect(request.header("X-Token") == "s3cret")
        // The file's text as it is (newlines kept); the JSON as written
        // (2.50 and the 17-digit integer unrounded); `\@` sends a literal `@`
        // at the start of a value only.
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        #expect(body == #"{"note":"line 1\nline 2\n","meta":{"x": [1, 2.50], "n": 9007199254740993},"lit":"@home","mid":"a\\@b"}"#)
    }

    @Test func formAndMultipartFieldsCarryTheFilesBytesAsTheyAre() async throws {
        let directory = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let form = try await UploaderProcess.run(["--no-progress", "--form", "127.0.0.1:\(server.port)/form", "note=@note.txt", "bin=@binary.dat", "lit=\\@x"], currentDirectory: directory)
        let multipart = try await UploaderProcess.run(["--no-progress", "127.0.0.1:\(server.port)/multipart", "note=@note.txt", "bin=@binary.dat", "meta:=@meta.json", "-F", "curl=\\@x"], currentDirectory: directory)
        try await server.stop()
        #expect(form.status == 0, "\(form.standardError)")
        #expect(multipart.status == 0, "\(multipart.standardError)")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(String(decoding: requests[0].body ?? [], as: UTF8.self) == "note=line%201%0Aline%202%0A&bin=%FF%00A%0A&lit=%40x")
        let parts = try ReceivedPart.parts(of: requests[1])
        try #require(parts.count == 4, "\(parts)")
        #expect(parts[0].headers == [#"Content-Disposition: form-data; name="note""#])
        #expect(parts[0].content == Self.files["note.txt"])
        #expect(parts[1].content == Self.files["binary.dat"])
        #expect(parts[2].headers.contains("Content-Type: application/json"))
        #expect(parts[2].content == Array(#"{"x": [1, 2.50], "n": 9007199254740993}"#.utf8))
        // curl's -F knows no `\@`: the value goes as typed, as curl sends it.
        #expect(parts[3].content == Array("\\@x".utf8))
    }

    /// A file that cannot give the item its value is bad input naming the
    /// item: exit 2, one line, and the server sees no request.
    @Test(arguments: [
        (["token=@missing.txt"], "'token=@missing.txt': No such file: missing.txt"),
        (["meta:=@missing.json"], "'meta:=@missing.json': No such file: missing.json"),
        (["X-Token:@missing.txt"], "'X-Token:@missing.txt': No such file: missing.txt"),
        (["q==@missing.txt"], "'q==@missing.txt': No such file: missing.txt"),
        (["meta:=@bad.json"], "'meta:=@bad.json': Invalid JSON at line 1, column 7"),
        (["meta:=@binary.dat"], "'meta:=@binary.dat': the file is not UTF-8 text"),
        (["bin=@binary.dat"], "'bin=@binary.dat': a JSON field's name and value must be UTF-8"),
        (["X-Token:@blank.txt"], "'X-Token:@blank.txt': the file holds no value"),
        (["a=@."], "'a=@.': . is a directory, not a file"),
        (["a=@"], "'a=@': the file path after '@' is empty"),
    ])
    func aValueFileThatCannotBeReadIsBadInput(arguments: [String], message: String) async throws {
        let directory = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "ok=1"] + arguments, currentDirectory: directory)
        try await server.stop()
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("uploader: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(server.requests.isEmpty)
    }
}

/// The fixes of issue 28 found by the differential test against HTTPie.
@Suite struct HTTPieDifferencesTests {
    /// HTTPie sends no Content-Type after `Content-Type:` (an empty value);
    /// the item was silently ignored. A multipart body cannot go without
    /// one (it carries the boundary): refused, not ignored.
    @Test func anEmptyContentTypeItemSendsNoContentType() async throws {
        let server = try await TestHTTPServer.start()
        let base = "127.0.0.1:\(server.port)"
        var statuses: [Int32] = []
        for arguments in [["\(base)/json", "a=1"], ["--form", "\(base)/form", "a=1"], ["\(base)/raw", "--data", "text"], ["\(base)/file", "--data", "@/etc/hostname"]] {
            let result = try await UploaderProcess.run(["--no-progress"] + arguments + ["Content-Type:"])
            statuses.append(result.status)
        }
        let multipart = try await UploaderProcess.run(["--no-progress", "\(base)/multipart", "Content-Type:", "-F", "a=1"])
        try await server.stop()
        #expect(statuses == [0, 0, 0, 0])
        let requests = server.requests
        try #require(requests.count == 4)
        for request in requests {
            #expect(request.header("Content-Type") == nil, "\(request.uri): \(request.headers)")
        }
        #expect(String(decoding: requests[0].body ?? [], as: UTF8.self) == #"{"a":"1"}"#)
        #expect(multipart.status == 2)
        #expect(multipart.standardError.contains("'Content-Type:': a multipart body cannot go without its Content-Type"), "\(multipart.standardError)")
    }

    /// RFC 8259's grammar allows a `\u` escape of a lone surrogate, and `:=`
    /// values are sent as written.
    @Test func aLoneSurrogateEscapeIsSentAsWritten() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/", #"a:="\ud800""#, #"b:=["\udc00x"]"#])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.hasSuffix(#"{"a":"\ud800","b":["\udc00x"]}"#), "\(result.outputText)")
    }
}
