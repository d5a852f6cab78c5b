import Foundation
import TestSupport
import Testing

/// `--print/-p` with HTTPie's letters, and `HEAD` on a terminal.
@Suite struct UploaderPrintTests {
    static func server() async throws -> TestHTTPServer {
        try await TestHTTPServer.start(script: .sequence([.status(200, headers: [("X-Answer", "42")], body: "the body\n")]))
    }

    @Test func theLettersChooseWhatIsWrittenInHTTPiesOrder() async throws {
        let server = try await Self.server()
        let scratch = try ScratchFolder()
        let file = try scratch.file("note.txt", "a note\n")
        let url = "127.0.0.1:\(server.port)/up"
        let heads = try await UploaderProcess.run(["-p", "Hh", url, "f@\(file)", "--boundary", "B"])
        let all = try await UploaderProcess.run(["--print=HBhb", url, "f@\(file)", "--boundary", "B"])
        let body = try await UploaderProcess.run(["--print", "b", url])
        let plain = try await UploaderProcess.run([url])
        try await server.stop()
        #expect(heads.status == 0 && all.status == 0, "\(heads.standardError)\(all.standardError)")
        #expect(heads.outputText.hasPrefix("POST /up HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"), "\(heads.outputText)")
        #expect(heads.outputText.contains("\r\n\r\nHTTP/1.1 200 OK\r\n") && heads.outputText.contains("X-Answer: 42\r\n"), "\(heads.outputText)")
        #expect(!heads.outputText.contains("a note") && !heads.outputText.contains("the body"))
        let order = ["POST /up HTTP/1.1", "filename=\"note.txt\"", "a note\n", "--B--", "HTTP/1.1 200 OK", "the body\n"].map { all.outputText.range(of: $0)?.lowerBound }
        #expect(!order.contains(nil) && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(all.outputText)")
        #expect(body.outputText == "the body\n" && plain.outputText == "the body\n")
    }

    /// A dry run writes the parts of the request the letters name, as
    /// HTTPie's `--offline` does; both, or no letter, write the whole request.
    @Test func aDryRunWritesTheRequestPartsTheLettersName() async throws {
        let command = ["--dry-run", "127.0.0.1:1/up", "a=b"]
        let whole = try await UploaderProcess.run(command)
        let head = try await UploaderProcess.run(command + ["-p", "H"])
        let body = try await UploaderProcess.run(command + ["--print=B"])
        let both = try await UploaderProcess.run(command + ["-p", "HBhb"])
        let response = try await UploaderProcess.run(command + ["-p", "hb"])
        #expect([whole, head, body, both, response].allSatisfy { $0.status == 0 })
        #expect(whole.outputText.hasPrefix("POST /up HTTP/1.1\r\n") && whole.outputText.hasSuffix("\r\n\r\n{\"a\":\"b\"}"), "\(whole.outputText)")
        #expect(head.outputText + body.outputText == whole.outputText, "\(head.outputText)|\(body.outputText)")
        #expect(body.outputText == #"{"a":"b"}"#)
        #expect(both.outputText == whole.outputText)
        #expect(response.standardOutput.isEmpty)
    }

    @Test func aHeadRequestShowsItsHeadOnATerminalOnly() async throws {
        let server = try await Self.server()
        let terminal = try await UploaderProcess.runShell("/usr/bin/script -qec \"\\\"$UPLOADER\\\" HEAD 127.0.0.1:\(server.port)/x\" /dev/null")
        let pipe = try await UploaderProcess.run(["HEAD", "127.0.0.1:\(server.port)/x"])
        try await server.stop()
        #expect(terminal.status == 0)
        #expect(terminal.outputText.contains("HTTP/1.1 200 OK\r\r\n") && terminal.outputText.contains("X-Answer: 42"), "\(terminal.outputText.debugDescription)")
        #expect(pipe.status == 0 && pipe.standardOutput.isEmpty)
    }

    @Test func lettersItDoesNotKnowAreBadInput() async throws {
        let result = try await UploaderProcess.run(["--print", "Hx", "127.0.0.1:1/x"])
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: --print 'Hx': give letters of HBhb: H request head, B request body, h response head, b response body (see 'uploader --help')\n")
    }
}
