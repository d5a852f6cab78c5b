import Foundation
import TestSupport
import Testing

/// `--pretty` through the built executable (contract, "The real network
/// (version 6)": response output): a JSON body indented and coloured on a
/// terminal or when asked, the server's exact bytes in a file or a pipe,
/// and bodies that are not JSON, or too large to hold, always as sent.
@Suite struct UploaderPrettyOutputTests {
    static let body = Array("{\"id\":7,  \"tags\":[\"a\",\"b\"],\"big\":12345678901234567890}".utf8)

    private func server(body: [UInt8] = body, type: String = "application/json") async throws -> TestHTTPServer {
        try await TestHTTPServer.start(script: .init { _, _ in
            var reply = TestHTTPServer.Reply.status(200, headers: [("Content-Type", type)])
            reply.body = body
            return reply
        })
    }

    /// The uploads that write the server's final answer as it came refuse
    /// `--pretty` rather than accept it and do nothing (exit 2, nothing sent).
    @Test(arguments: [["--tus"], ["--resumable"], ["--presigned-post", "form.json"]])
    func uploadsThatWriteTheAnswerAsItCameRefusePretty(kind: [String]) async throws {
        let server = try await server()
        let scratch = try ScratchFolder()
        let file = try scratch.file("f.txt", "hello")
        let result = try await UploaderProcess.run(kind + [server.url(path: "/up").absoluteString, "f@\(file)", "--pretty=format"], currentDirectory: scratch.url)
        #expect(result.status == 2, "\(result.standardError)")
        let named = kind[0] == "--presigned-post" ? "--presigned-post, which writes" : "\(kind[0]) uploads, which write"
        #expect(result.standardError == "uploader: --pretty does not apply to \(named) the server's final answer as it came; drop --pretty\n")
        #expect(server.requests.isEmpty)
        try await server.stop()
    }

    @Test func anObjectUploadRefusesPretty() async throws {
        let scratch = try ScratchFolder()
        let file = try scratch.file("f.txt", "hello")
        let result = try await UploaderProcess.run(["s3://bucket/key", file, "--pretty=colors"], currentDirectory: scratch.url)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "uploader: --pretty does not apply to s3:// uploads, which write the server's final answer as it came; drop --pretty\n")
    }

    @Test func aPipeGetsTheExactBytesUnlessFormattingIsAsked() async throws {
        let server = try await server()
        let plain = try await UploaderProcess.run([server.url(path: "/item").absoluteString])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardOutput == Self.body)

        let formatted = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "--pretty=format"])
        #expect(formatted.status == 0, "\(formatted.standardError)")
        #expect(formatted.outputText == """
            {
                "id": 7,
                "tags": [
                    "a",
                    "b"
                ],
                "big": 12345678901234567890
            }

            """)
        try await server.stop()
    }

    @Test func allColoursAndNoneIsTheServersBytesEvenWhenAsked() async throws {
        let server = try await server()
        let all = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "--pretty", "all"])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.outputText.hasPrefix("{\n    \u{1B}[34m\"id\"\u{1B}[0m: \u{1B}[36m7\u{1B}[0m,\n"), "\(all.outputText.debugDescription)")
        let colours = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "--pretty=colors"])
        #expect(colours.outputText.hasPrefix("{\u{1B}[34m\"id\"\u{1B}[0m:\u{1B}[36m7\u{1B}[0m,  \u{1B}[34m\"tags\""), "\(colours.outputText.debugDescription)")
        let none = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "--pretty=none"])
        #expect(none.standardOutput == Self.body)
        try await server.stop()
    }

    /// On a terminal (a pseudo-terminal from `script`) that takes colour
    /// (`TERM` not `dumb`, no `NO_COLOR`, whatever the test run's are), the
    /// default is `all`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aTerminalGetsItIndentedAndColouredByDefault() async throws {
        let server = try await server()
        let result = try await UploaderProcess.runShell("/usr/bin/script -qec \"env -u NO_COLOR TERM=xterm \\\"$UPLOADER\\\" \(server.url(path: "/item").absoluteString)\" /dev/null")
        #expect(result.status == 0, "\(result.standardError)")
        // The terminal turns each newline into CR LF.
        #expect(result.outputText.contains("{\r\n    \u{1B}[34m\"id\"\u{1B}[0m: \u{1B}[36m7\u{1B}[0m,\r\n"), "\(result.outputText.debugDescription)")
        try await server.stop()
    }

    /// `-o FILE` gets the server's bytes unless a style is asked for, which
    /// applies wherever the body goes.
    @Test func aFileGetsTheExactBytesUnlessAStyleIsAsked() async throws {
        let server = try await server()
        let scratch = FileManager.default.temporaryDirectory.appending(path: "pretty-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "-o", scratch.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Array(try Data(contentsOf: scratch)) == Self.body)
        let asked = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "-o", scratch.path, "--pretty=format"])
        #expect(asked.status == 0, "\(asked.standardError)")
        #expect(try String(contentsOf: scratch, encoding: .utf8).hasPrefix("{\n    \"id\": 7,\n    \"tags\": [\n"))
        try await server.stop()
    }

    /// Bodies that are not JSON, not valid JSON, or larger than what is held
    /// for formatting pass through as sent, even with `--pretty=all`.
    @Test func whatCannotBeFormattedPassesThroughExactly() async throws {
        let large = Array(("[" + String(repeating: "1,", count: 2_200_000) + "1]").utf8)  // past the 4 MiB held
        let cases: [(body: [UInt8], type: String)] = [
            (Self.body, "text/plain"),
            (Array("{\"a\":1,}".utf8), "application/json"),
            (large, "application/json"),
        ]
        for (body, type) in cases {
            let server = try await server(body: body, type: type)
            let result = try await UploaderProcess.run([server.url(path: "/item").absoluteString, "--pretty=all"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput == body, "\(type), \(body.count) bytes")
            try await server.stop()
        }
    }

    @Test func anUnknownStyleIsBadInput() async throws {
        let result = try await UploaderProcess.run(["localhost:9/item", "--pretty=fancy"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--pretty"), "\(result.standardError)")
        #expect(result.standardError.contains("all") && result.standardError.contains("none"), "\(result.standardError)")
    }
}
