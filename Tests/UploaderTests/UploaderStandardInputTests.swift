import Foundation
import TestSupport
import Testing

/// Standard input as HTTPie and curl users pipe it, through the built
/// binary to a real server: the body when nothing else is (HTTPie's rule),
/// always sent with its length (read first, as curl reads `-F f=@-`), so a
/// server that takes no chunked body gets it and a retry can send it again.
@Suite struct UploaderStandardInputTests {
    static func run(_ arguments: [String], input: [UInt8]?, environment: [String: String] = [:]) async throws -> UploaderProcess.Result {
        try await UploaderProcess.run(arguments + ["--no-progress"], standardInput: input, environment: environment)
    }

    @Test func pipedInputIsTheBodyWithItsLength() async throws {
        let server = try await TestHTTPServer.start()
        let json = Array(#"{"a":1}"#.utf8)
        let put = try await Self.run(["PUT", "127.0.0.1:\(server.port)/put"], input: json)
        let post = try await Self.run(["127.0.0.1:\(server.port)/post"], input: json)
        try await server.stop()
        #expect(put.status == 0, "\(put.standardError)")
        #expect(post.status == 0, "\(post.standardError)")
        let requests = server.requests
        #expect(requests.map(\.method) == ["PUT", "POST"])
        for request in requests {
            #expect(request.body == json)
            #expect(request.header("Content-Length") == "7")
            #expect(request.header("Transfer-Encoding") == nil)
            #expect(request.header("Content-Type") == "application/json")
        }
        #expect(put.standardError.isEmpty && post.standardError.isEmpty)
    }

    /// Past the memory bound the input goes to a temporary file that no
    /// run leaves behind: the server gets every byte, with its length.
    @Test func aLargePipedBodyIsSentWholeAndLeavesNoFile() async throws {
        let server = try await TestHTTPServer.start()
        let folder = try TemporaryFolder("stdin-spill")
        let input = (0..<(3 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let result = try await Self.run(["PUT", "127.0.0.1:\(server.port)/big", "--data", "-"], input: input, environment: ["TMPDIR": folder.url.path])
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.header("Content-Length") == "\(input.count)")
        #expect(request.bodyByteCount == Int64(input.count))
        #expect(request.body.map { $0 == input } ?? true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// A body from standard input can be sent again: `--retry` after a 503.
    @Test func aPipedBodyIsRetried() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(503), .status(200)]))
        let result = try await Self.run(["--retry", "3", "PUT", "127.0.0.1:\(server.port)/again", "--data", "-"], input: Array("hi\n".utf8))
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.map(\.body) == [Array("hi\n".utf8), Array("hi\n".utf8)])
    }

    /// A part from standard input has a length too, as curl sends `-F f=@-`.
    @Test func aPartFromStandardInputHasALength() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await Self.run(["127.0.0.1:\(server.port)/form", "-F", "f=@-", "note=x"], input: Array("piped\n".utf8))
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.header("Transfer-Encoding") == nil)
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        #expect(request.header("Content-Length") == "\(request.body?.count ?? -1)")
        #expect(body.contains("filename=\"-\"\r\nContent-Type: application/octet-stream\r\n\r\npiped\n\r\n"), "\(body)")
    }

    /// With items, piped bytes are not read, and never dropped without a
    /// word; `--ignore-stdin` says so and silences it. `--chunked` streams.
    @Test func itemsWinAndPipedBytesAreNamed() async throws {
        let server = try await TestHTTPServer.start()
        let withItems = try await Self.run(["127.0.0.1:\(server.port)/items", "a=b"], input: Array("ignored\n".utf8))
        let ignored = try await Self.run(["127.0.0.1:\(server.port)/ignored", "--ignore-stdin"], input: Array("ignored\n".utf8))
        let chunked = try await Self.run(["PUT", "127.0.0.1:\(server.port)/chunked", "--chunked"], input: Array("streamed\n".utf8))
        let empty = try await Self.run(["127.0.0.1:\(server.port)/empty"], input: [])
        let lonely = try await Self.run(["127.0.0.1:\(server.port)/lonely", "a=b", "--chunked"], input: [])
        try await server.stop()
        #expect(withItems.status == 0)
        #expect(withItems.standardError == "uploader: warning: standard input is not read: the request's body comes from its items (--ignore-stdin says so and silences this)\n")
        #expect(ignored.status == 0 && ignored.standardError.isEmpty, "\(ignored.standardError)")
        #expect(chunked.status == 0, "\(chunked.standardError)")
        #expect(empty.status == 0 && empty.standardError.isEmpty)
        #expect(lonely.status == 2)
        #expect(lonely.standardError == "uploader: --chunked applies to a body read from standard input (--data -, name@- or piped input); drop it\n")
        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "GET", "PUT", "GET"])
        #expect(requests.map(\.body) == [Array(#"{"a":"b"}"#.utf8), [], Array("streamed\n".utf8), []])
        #expect(requests[2].header("Transfer-Encoding") == "chunked")
    }

    /// The kinds that send the files they are given never read piped bytes,
    /// and never drop them without a word; `--ignore-stdin` silences it.
    @Test func kindsThatSendFilesNamePipedBytes() async throws {
        let scratch = try ScratchFolder()
        let file = try scratch.file("f.txt", "hello")
        let form = try scratch.file("form.json", #"{"url": "http://127.0.0.1:1/bucket", "fields": {"key": "k"}}"#)
        let environment = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_PROFILE": ""]
        let object = ["--dry-run", "s3://bucket/key", file, "--endpoint-url", "http://127.0.0.1:1"]
        let post = ["--dry-run", "--presigned-post", form, file]
        for (command, kind) in [(object, "s3:// uploads"), (post, "--presigned-post")] {
            let piped = try await Self.run(command, input: Array("piped\n".utf8), environment: environment)
            let ignored = try await Self.run(command + ["--ignore-stdin"], input: Array("piped\n".utf8), environment: environment)
            #expect(piped.status == 0 && ignored.status == 0, "\(piped.standardError)\(ignored.standardError)")
            #expect(piped.standardError == "uploader: warning: standard input is not read by \(kind) (--ignore-stdin says so and silences this)\n")
            #expect(ignored.standardError.isEmpty, "\(ignored.standardError)")
        }
    }

    /// A file redirected to standard input is read as a pipe is; `/dev/null`
    /// never is.
    @Test func aRedirectedFileIsTheBodyAndDevNullIsNot() async throws {
        let server = try await TestHTTPServer.start()
        let folder = try TemporaryFolder("stdin-file")
        try Data("from a file\n".utf8).write(to: folder.appending(path: "meta.txt"))
        let file = try await UploaderProcess.runShell("\"$UPLOADER\" --no-progress PUT 127.0.0.1:\(server.port)/file < meta.txt", currentDirectory: folder.url)
        let null = try await UploaderProcess.runShell("\"$UPLOADER\" --no-progress 127.0.0.1:\(server.port)/null < /dev/null", currentDirectory: folder.url)
        try await server.stop()
        #expect(file.status == 0, "\(file.standardError)")
        #expect(null.status == 0, "\(null.standardError)")
        #expect(server.requests.map(\.method) == ["PUT", "GET"])
        #expect(server.requests.first?.body == Array("from a file\n".utf8))
        #expect(server.requests.first?.header("Content-Length") == "12")
    }
}

/// curl's `-F 'name=<file'`: a text field holding the file's content.
@Suite struct UploaderCurlTextFromFileTests {
    @Test func curlsTextFieldFromAFile() async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("note.txt", "hello <world>\n")
        let result = try await UploaderProcess.run(["--dry-run", "--boundary", "B", "example.com/f", "-F", "j=<\(path)", "-F", "k=<\(path);type=text/x-foo"])
        #expect(result.status == 0, "\(result.standardError)")
        let body = String(decoding: try UploaderCommandTests.DryRunRequest(result.standardOutput).body, as: UTF8.self)
        #expect(body == "--B\r\nContent-Disposition: form-data; name=\"j\"\r\n\r\nhello <world>\n\r\n--B\r\nContent-Disposition: form-data; name=\"k\"\r\nContent-Type: text/x-foo\r\n\r\nhello <world>\n\r\n--B--\r\n")
        let missing = try await UploaderProcess.run(["--dry-run", "example.com/f", "-F", "j=</no/such/file"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("uploader: '-F j=</no/such/file': "), "\(missing.standardError)")
        let named = try await UploaderProcess.run(["--dry-run", "example.com/f", "-F", "j=<\(path);filename=x"])
        #expect(named.status == 2)
        #expect(named.standardError == "uploader: 'j=<\(path);filename=x': a text field read with '<' carries no filename; use name=@path for a file part\n")
    }
}
