import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The contract's "Edges (version 2)" rules about responses and the output
/// file, driven through the built executable against servers on 127.0.0.1:
/// no signal death on any status line, `-o` opened only when the head
/// arrives, responses of any size streamed, an answered POST never sent again.
@Suite struct UploaderResponseEdgeTests {
    @Test(arguments: ["000 X", "042 Y", "099 Z"], ["", "body"])
    func statusBelowOneHundredExitsThreeWithOneLine(status: String, body: String) async throws {
        for prefix in ["", "HTTP/1.1 100 Continue\r\n\r\n"] {
            let server = try await RawResponseServer.start { _ in
                .bytes(Array((prefix + "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body).utf8))
            }
            let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1"])
            #expect(result.status == 3, "\(result.standardError)")
            #expect(result.standardError.contains("invalid status line"), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            try await server.stop()
        }
    }

    @Test func printsTheServersOwnReasonPhraseEscaped() async throws {
        // NIO's parser lets ESC through; U+009B is a C1 control, the
        // one-byte form of ESC [ to a terminal, sent as obs-text.
        let server = try await RawResponseServer.start { _ in
            .text("HTTP/1.1 503 Slow\u{1B}[31m Down\u{9B}0m", headers: ["Content-Length: 0"])
        }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1"])
        #expect(result.status == 5)
        // The transport keeps the ESC as `\x1b` text (swift-http-types would
        // make it a space); the C1 control is escaped as the message is written.
        #expect(result.standardError.contains("the server answered 503 Slow\\x1b[31m Down\\u{9b}0m"), "\(result.standardError)")
        #expect(!result.standardError.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
        try await server.stop()
    }

    @Test func responseThatIsNotHTTPExitsThreeSayingSo() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 200 O\rK", headers: ["Content-Length: 0"]) }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("not valid HTTP/1.1"), "\(result.standardError)")
        try await server.stop()
    }

    @Test func outputIsLeftAloneWhenTheConnectionIsRefused() async throws {
        let scratch = try ScratchFolder()
        let output = try scratch.file("keep.txt", "precious")
        // Held, not freed: a port freed by stopping a server can be taken by
        // a parallel test, which would answer.
        let refusing = try RefusingPort()
        let result = try await UploaderProcess.run(["127.0.0.1:\(refusing.port)/up", "a=1", "-o", output])
        #expect(result.status == 3)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        refusing.close()
    }

    @Test func outputNamingAnInputFileIsBadInput() async throws {
        let scratch = try ScratchFolder()
        let input = try scratch.file("keep.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: scratch.url.appending(path: "alias.txt").path, withDestinationPath: input)
        let server = try await TestHTTPServer.start()
        for (item, output) in [("f@\(input)", input), ("f@\(input)", scratch.url.appending(path: "alias.txt").path)] {
            let result = try await UploaderProcess.run(["localhost:\(server.port)/up", item, "-o", output])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("is also an input"), "\(result.standardError)")
        }
        let data = try await UploaderProcess.run(["PUT", "localhost:\(server.port)/up", "--data", "@\(input)", "-o", input])
        #expect(data.status == 2)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "precious")
        #expect(server.requests.isEmpty)
        try await server.stop()
    }

    @Test func dashOutputIsStandardOutput() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "answer")]))
        let scratch = try ScratchFolder()
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "-o", "-"], currentDirectory: scratch.url)
        #expect(result.status == 0)
        #expect(result.outputText == "answer")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appending(path: "-").path))
        try await server.stop()
    }

    @Test(arguments: ["SIGTERM", "SIGINT"])
    func signalBeforeTheHeadLeavesOutputAlone(signal: String) async throws {
        let scratch = try ScratchFolder()
        let output = try scratch.file("keep.txt", "precious")
        // The answer waits as long as the liveness guard: with the whole suite
        // on two cores this test's polling task was once starved past a
        // 30 s delay, the server answered first and the upload ended 0.
        let server = try await RawResponseServer.start { _ in .delayed(TestTime.liveness, Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)) }
        let pidFile = scratch.url.appending(path: "pid").path
        let run = Task {
            try await UploaderProcess.runShell(
                "\"$UPLOADER\" localhost:\(server.port)/up a=1 -o '\(output)' & echo $! > '\(pidFile)'; wait $!"
            )
        }
        // The signal goes once the request has arrived: the uploader is then
        // waiting for the head with its handlers in place. (A fixed sleep
        // raced a slow start on a busy machine: a background job of sh
        // starts with SIGINT ignored until the uploader handles it.)
        let arrived = ContinuousClock.now + TestTime.liveness
        while server.requestCount == 0, ContinuousClock.now < arrived {
            try await Task.sleep(for: .milliseconds(20))
        }
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let uploader = try #require(pid_t(pid), "the shell wrote no pid: '\(pid)'")
        try #require(uploader > 1)
        kill(uploader, signal == "SIGINT" ? SIGINT : SIGTERM)
        let result = try await run.value
        #expect(result.status == (signal == "SIGINT" ? 130 : 143), "\(result.standardError)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        try await server.stop()
    }

    @Test func interruptedProgressBarEndsItsLine() async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("big.bin", [UInt8](repeating: 0x61, count: 32 * 1024 * 1024))
        // Reads nothing, so the upload stalls with the bar drawn.
        let server = try SilentListener()
        let errors = scratch.url.appending(path: "stderr.txt").path
        // Interrupted once the bar is on standard error (an event, not a
        // fixed wait a busy machine can outlast), for at most the liveness
        // guard; then its standard error is passed on for the expectations.
        let polls = Int(TestTime.liveness / .milliseconds(50))
        let result = try await UploaderProcess.runShell(
            "\"$UPLOADER\" --progress PUT localhost:\(server.port)/up --data @'\(path)' 2> '\(errors)' & pid=$!; "
                + "n=0; until grep -q % '\(errors)' || [ $n -ge \(polls) ]; do sleep 0.05; n=$((n + 1)); done; "
                + "kill -INT $pid; wait $pid; status=$?; cat '\(errors)' >&2; exit $status"
        )
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.contains("%"), "the bar was drawn: \(result.standardError.debugDescription)")
        #expect(result.standardError.hasSuffix("\n"), "\(result.standardError.debugDescription)")
        withExtendedLifetime(server) {}
    }

    @Test func largeResponseStreamsToOutputAndIsNotSentAgain() async throws {
        let scratch = try ScratchFolder()
        let output = scratch.url.appending(path: "answer.bin").path
        let chunk = [UInt8](repeating: 0x7A, count: 1 << 20)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nContent-Length: \(96 << 20)\r\n\r\n", chunk: chunk, count: 96)
        }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "--retry", "3", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
        #expect(size == 96 << 20)
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    @Test func bodyBreakingOffAfterAnAnswerExitsThreeWithoutARetry() async throws {
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x10000) + Array("\r\n".utf8)
        let server = try await RawResponseServer.start { _ in
            .repeating(head: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunk: chunk, count: 1200)  // 75 MiB, then it hangs up
        }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "--retry", "3", "-o", "/dev/null"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(server.requestCount == 1)
        try await server.stop()
    }

    @Test func verboseRetryExplainsTheWait() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([
            .status(503, headers: [("Retry-After", "1")]), .status(200),
        ]))
        let result = try await UploaderProcess.run(["-v", "--retry", "2", "localhost:\(server.port)/up", "a=1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the server answered 503 Service Unavailable with Retry-After: 1; retrying in 1 second (attempt 2 of 3)"), "\(result.standardError)")
        #expect(server.requests.count == 2)
        try await server.stop()
    }

    /// A backoff wait is jittered: a fraction of a second with 18 digits,
    /// shown to a tenth (#24.15).
    @Test func verboseRetryWaitIsShownToATenthOfASecond() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(503), .status(200)]))
        let result = try await UploaderProcess.run(["-v", "--retry", "1", "localhost:\(server.port)/up", "a=1"])
        #expect(result.status == 0, "\(result.standardError)")
        let wait = try #require(result.standardError.firstMatch(of: /retrying in ([0-9.]+) seconds? \(attempt 2 of 2\)/), "\(result.standardError)")
        let digits = String(wait.1)
        #expect(digits.firstIndex(of: ".").map { digits[$0...].count == 2 } ?? true, "\(wait.0)")
        try await server.stop()
    }

    @Test func closedStandardDescriptorsActAsDevNull() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "answer")]))
        let result = try await UploaderProcess.runShell("\"$UPLOADER\" localhost:\(server.port)/up a=1 <&- >&-; echo \"exit $?\" >&2")
        #expect(result.standardError.contains("exit 0"), "\(result.standardError)")
        #expect(server.requests.count == 1)
        let dryRun = try await UploaderProcess.runShell("\"$UPLOADER\" --dry-run localhost:1/up a=1 >&- 2>&-; echo \"exit $?\"")
        #expect(dryRun.outputText == "exit 0\n")
        try await server.stop()
    }
}
