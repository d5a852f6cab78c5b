import Foundation
import TestSupport
import Testing

/// `--timeout` bounds every request's whole exchange, for every kind of
/// upload: a server that sends a head with `Content-Length: 100000`, 10
/// bytes and then nothing, or trickles its body, ends the run with exit 3
/// and one line naming the host and the limit. Before, the run hung (the
/// timeout ended with the head, and `s3://` ignored it).
@Suite struct UploaderTimeoutTests {
    /// How a server misbehaves once it has read the request.
    enum Misbehaviour: String, CaseIterable, CustomTestStringConvertible {
        case stallsMidBody, tricklesBody
        var testDescription: String { rawValue }

        func reply(head: String) -> RawResponseServer.Reply {
            let head = "HTTP/1.1 200 OK\r\n\(head)Content-Length: 100000\r\n\r\n"
            return switch self {
            case .stallsMidBody: .stalling(Array((head + "0123456789").utf8))
            case .tricklesBody: .trickling(head: head, byte: UInt8(ascii: "."), interval: .milliseconds(250))
            }
        }
    }

    /// The kinds of upload, each with its command line for `url` and `file`
    /// and the fields its first answer needs to be read further.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case plain, s3Put, tusOptions
        var testDescription: String { rawValue }

        var answerFields: String {
            switch self {
            case .plain, .s3Put: ""
            case .tusOptions: "Tus-Resumable: 1.0.0\r\nTus-Version: 1.0.0\r\nTus-Extension: creation\r\n"
            }
        }

        func arguments(port: Int, file: String, stateDirectory: String) -> [String] {
            switch self {
            case .plain:
                ["http://127.0.0.1:\(port)/up", "f@\(file)"]
            case .s3Put:
                ["s3://bucket/key.bin", file, "--endpoint-url", "http://127.0.0.1:\(port)", "--state-dir", stateDirectory]
            case .tusOptions:
                ["--tus", "http://127.0.0.1:\(port)/files/", "f@\(file)", "--state-dir", stateDirectory]
            }
        }
    }

    @Test(arguments: Kind.allCases, Misbehaviour.allCases)
    func timeoutBoundsTheWholeExchange(kind: Kind, misbehaviour: Misbehaviour) async throws {
        let server = try await RawResponseServer.start { _ in misbehaviour.reply(head: kind.answerFields) }
        let fixture = try UploadFixture(size: 1000)
        defer { fixture.remove() }
        let arguments = kind.arguments(port: server.port, file: fixture.file.path, stateDirectory: fixture.folder.appending(path: "state").path)
            + ["--timeout", "2", "--retry", "0", "--no-progress"]
        // `timeout` ends a hang (exit 124) so a regression fails instead of stalling the run.
        let budget = TestTime.liveness.components.seconds
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let environment = "HOME='\(fixture.folder.path)' AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret AWS_REGION=us-east-1"
        let result = try await UploaderProcess.runShell("\(environment) timeout -k 5 \(budget) \"$UPLOADER\" \(quoted)")
        try await server.stop()
        #expect(result.status == 3, "status \(result.status) (124: still running after \(budget) s): \(result.standardError)")
        #expect(result.standardError.contains("127.0.0.1:\(server.port)"), "\(result.standardError)")
        #expect(result.standardError.contains("timed out after 2 seconds"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(server.requestCount == 1)
    }
}
