import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The contract's "Edges (version 2)" rules about the command line, driven
/// through the built executable: every bad input exits 2 with one line and
/// sends nothing, and what is sent is what the user asked for.
@Suite struct UploaderInputEdgeTests {
    /// Runs the uploader at a fresh test server; returns the result and the server.
    private func run(_ arguments: [String], standardInput: [UInt8]? = nil) async throws -> (UploaderProcess.Result, TestHTTPServer) {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "ok")]))
        let expanded = arguments.map { $0.replacingOccurrences(of: "$PORT", with: String(server.port)) }
        return (try await UploaderProcess.run(expanded, standardInput: standardInput), server)
    }

    private func expectBadInput(_ arguments: [String], naming culprit: String, standardInput: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (result, server) = try await run(arguments, standardInput: standardInput)
        #expect(result.status == 2, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(culprit), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError.debugDescription)", sourceLocation: sourceLocation)
        #expect(server.requests.isEmpty, sourceLocation: sourceLocation)
        try await server.stop()
    }

    @Test(arguments: ["65536", "99999", "12345678901234567890"], [false, true])
    func portOutOfRangeExitsTwo(port: String, dryRun: Bool) async throws {
        try await expectBadInput((dryRun ? ["--dry-run"] : []) + ["localhost:\(port)/up", "a=1"], naming: "0 to 65535")
    }

    @Test(arguments: [
        ["--timeout", "9.3e9"], ["--timeout", "1e10"], ["--timeout", "1e300"], ["--timeout", "nan"], ["--timeout", "inf"],
        ["--timeout", "-1"], ["--timeout", "0"], ["--timeout", "1000001"],
        ["--retry", "9223372036854775807"], ["--retry", "101"], ["--retry", "-1"],
    ], [false, true])
    func numbersOutOfRangeExitTwoNamingTheOption(option: [String], dryRun: Bool) async throws {
        try await expectBadInput((dryRun ? ["--dry-run"] : []) + ["localhost:$PORT/up", "a=1"] + option, naming: option[0])
        let (result, server) = try await run(["localhost:$PORT/up", "a=1"] + option)
        #expect(!result.standardError.contains("Missing value"))
        try await server.stop()
    }

    @Test func tinyTimeoutIsReportedExactly() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, delay: .seconds(5))]))
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "--timeout", "0.0001"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("timed out after 0.0001 seconds"), "\(result.standardError)")
        try await server.stop()
    }

    @Test func hostItemIsTheOneHostLineInTheDryRunVerboseAndOnTheWire() async throws {
        let (result, server) = try await run(["-v", "localhost:$PORT/up", "Host:example.org", "a=1"])
        #expect(result.status == 0, "\(result.standardError)")
        let hosts = try #require(server.requests.first).headers.filter { $0.name.lowercased() == "host" }
        #expect(hosts.map(\.value) == ["example.org"])
        #expect(result.standardError.contains("\r\nHost: example.org\r\n"))
        #expect(!result.standardError.contains("Host: localhost"))
        let dryRun = try await UploaderProcess.run(["--dry-run", "localhost:\(server.port)/up", "Host:example.org", "a=1"])
        #expect(dryRun.outputText.components(separatedBy: "\r\nHost: ").count == 2)
        #expect(dryRun.outputText.contains("\r\nHost: example.org\r\n"))
        try await server.stop()
    }

    @Test func twoHostItemsExitTwo() async throws {
        try await expectBadInput(["localhost:$PORT/up", "Host:a.example", "-H", "Host: b.example"], naming: "one Host")
    }

    @Test(arguments: [["-F", "a=b", "-F", "c=d"], ["-Fa=b", "-Fc=d"], ["--form-part=a=b", "c=d"]])
    func formPartsAlwaysMakeMultipart(parts: [String]) async throws {
        let (result, server) = try await run(["localhost:$PORT/up"] + parts)
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        #expect(body.contains("name=\"a\"\r\n\r\nb\r\n") && body.contains("name=\"c\"\r\n\r\nd\r\n"), "\(body)")
        try await server.stop()
    }

    @Test(arguments: [["a@-", "b@-"], ["PUT", "localhost:$PORT/up", "--data", "-", "a@-"]])
    func standardInputReadTwiceExitsTwo(items: [String]) async throws {
        let arguments = items.first == "PUT" ? items : ["localhost:$PORT/up"] + items
        try await expectBadInput(arguments, naming: "standard input", standardInput: Array("data".utf8))
    }

    @Test(arguments: ["localhost:$PORT/a b", "localhost:$PORT/a\rb", "localhost:$PORT/a\nb", "localhost:$PORT/\tx", "localhost:$PORT/\u{7F}"])
    func urlWithSpaceOrControlExitsTwo(url: String) async throws {
        try await expectBadInput([url, "a=1"], naming: "spaces or control characters")
    }

    @Test(arguments: [["a=1"], ["--form", "a=1"], ["--data", "x"], [], ["f@Samples/hello.txt"]])
    func invalidBoundaryExitsTwoWhateverTheBody(body: [String]) async throws {
        try await expectBadInput(["localhost:$PORT/up", "--boundary", "bad\"boundary"] + body, naming: "--boundary")
    }

    @Test func userinfoIsSentAsBasicCredentialsAndItsPasswordNeverShown() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["-v", "http://ada:s3cr%40t@127.0.0.1:\(server.port)/up", "a=1"])
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.header("Authorization") == "Basic " + Data("ada:s3cr@t".utf8).base64EncodedString())
        #expect(!result.standardError.contains("s3cr"))
        // An Authorization item wins.
        let explicit = try await UploaderProcess.run(["http://ada:s3cret@127.0.0.1:\(server.port)/up", "Authorization:Bearer T"])
        #expect(explicit.status == 0)
        #expect(server.requests.last?.header("Authorization") == "Bearer T")
        // A message about the URL masks the password.
        let bad = try await UploaderProcess.run(["http://ada:s3cret@127.0.0.1:99999/up", "a=1"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("ada:***@127.0.0.1:99999"), "\(bad.standardError)")
        #expect(!bad.standardError.contains("s3cret"))
        try await server.stop()
    }

    @Test func fifoIsNotARegularFileAndIsNeverWaitedOn() async throws {
        let scratch = try ScratchFolder()
        let fifo = scratch.url.appending(path: "pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await UploaderProcess.runShell("timeout 60 \"$UPLOADER\" --dry-run localhost:1/up f@'\(fifo)'; echo \"exit $?\" >&2")
        #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(result.standardError.contains("exit 2"))
    }

    /// Under a descriptor limit of 64 the uploader holds no file open from
    /// sizing to sending (`HeldFile.budget` is 0), so the second file is
    /// opened again by name when its turn comes, and finds the FIFO.
    @Test func fifoSwappedInForALaterPartEndsTheUploadInsteadOfHanging() async throws {
        let scratch = try ScratchFolder()
        let (first, second, server) = try await Self.secondFileSwappedForAFIFO(in: scratch, recordLimit: 0)
        let result = try await UploaderProcess.runShell(
            "(ulimit -n 64; exec timeout 60 \"$UPLOADER\" localhost:\(server.port)/up a@'\(first)' b@'\(second)'); echo \"exit $?\" >&2"
        )
        #expect(result.standardError.contains("exit 3"), "\(result.standardError)")
        #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
        try await server.stop()
    }

    /// Each file is sent through the descriptor that sized and sniffed it:
    /// one replaced under its name mid-upload (by a FIFO no one writes) is
    /// sent as it was sniffed, and the upload completes.
    @Test func fileReplacedAfterSniffingIsSentAsSniffed() async throws {
        let scratch = try ScratchFolder()
        let (first, second, server) = try await Self.secondFileSwappedForAFIFO(in: scratch)
        let result = try await UploaderProcess.runShell(
            "timeout 60 \"$UPLOADER\" --no-progress localhost:\(server.port)/up a@'\(first)' b@'\(second)' > /dev/null; echo \"exit $?\" >&2"
        )
        #expect(result.standardError.contains("exit 0"), "\(result.standardError)")
        let body = String(decoding: server.requests.first?.body ?? [], as: UTF8.self)
        #expect(body.contains("filename=\"second.txt\"\r\nContent-Type: text/plain\r\n\r\nsecond part\r\n--"), "\(body.suffix(300))")
        try await server.stop()
    }

    /// Two files to send, 32 MiB and a line, and a server that, when the
    /// request's head arrives, replaces the second by a FIFO no one writes.
    static func secondFileSwappedForAFIFO(
        in scratch: ScratchFolder, recordLimit: Int = 64 * 1024 * 1024
    ) async throws -> (first: String, second: String, server: TestHTTPServer) {
        let first = try scratch.file("first.bin", [UInt8](repeating: 0x61, count: 32 * 1024 * 1024))
        let second = try scratch.file("second.txt", "second part")
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            unlink(second)
            mkfifo(second, 0o600)
            return .status(200)
        }, recordLimit: recordLimit)
        return (first, second, server)
    }

    @Test func echoedValuesAreOneLineAndCut() async throws {
        let longJSON = "j:=[" + String(repeating: "x", count: 20_000)
        let (long, server) = try await run(["localhost:$PORT/up", longJSON])
        #expect(long.status == 2)
        #expect(long.standardError.count < 600, "\(long.standardError.count) characters")
        #expect(long.standardError.contains("…"))
        try await server.stop()
        try await expectBadInput(["localhost:$PORT/up", "bad\nname:v"], naming: "bad\\nname")
        try await expectBadInput(["localhost:$PORT/up", "na\u{1B}[2Jme"], naming: "na\\x1b[2Jme")
    }

    @Test func misspeltParameterIsNamed() async throws {
        try await expectBadInput(["localhost:$PORT/up", "f@Samples/hello.txt;foo=bar"], naming: "unknown parameter 'foo'")
    }

    @Test(arguments: ["localhost:2/b", "http://example.com/", "example.com:8080"])
    func secondURLIsNamedAsSuch(second: String) async throws {
        try await expectBadInput(["localhost:$PORT/a", second], naming: "looks like a second URL")
    }
}

extension UploaderInputEdgeTests {
    @Test func fileNameThatIsNotUTF8IsUploadedByteForByte() async throws {
        let scratch = try ScratchFolder()
        let server = try await TestHTTPServer.start()
        // The shell writes the name's bytes: Swift strings cannot hold them.
        let result = try await UploaderProcess.runShell(
            "name=$(printf '\\377\\376.txt'); printf hello > \"$name\"; \"$UPLOADER\" localhost:\(server.port)/up \"f@$name\"",
            currentDirectory: scratch.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        let body = try #require(server.requests.first?.body)
        let disposition = Array("name=\"f\"; filename=\"".utf8) + [0xFF, 0xFE] + Array(".txt\"".utf8)
        #expect(body.firstRange(of: disposition) != nil, "\(String(decoding: body, as: UTF8.self))")
        #expect(body.firstRange(of: Array("\r\n\r\nhello\r\n".utf8)) != nil)
        try await server.stop()
    }
}
