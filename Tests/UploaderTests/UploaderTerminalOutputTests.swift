import Foundation
import TestSupport
import Testing

/// What a person at a terminal sees, in a real pseudo-terminal (`script`,
/// which turns each LF into CR LF: a dry run's CR LF shows as CR CR LF):
/// no raw binary bytes, a progress bar that fits the width and never shares
/// a line with a message, a body's last line ended before a message, no
/// colour when `NO_COLOR` says so.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct UploaderTerminalOutputTests {
    /// Runs `arguments` in a pseudo-terminal of `columns` columns; what the
    /// terminal showed comes back as standard output.
    static func onTerminal(_ arguments: String, columns: Int = 80, environment: String = "") async throws -> UploaderProcess.Result {
        try await UploaderProcess.runShell("/usr/bin/script -qec \"stty cols \(columns); \(environment) \\\"$UPLOADER\\\" \(arguments)\" /dev/null")
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D] + Array(repeating: 0, count: 100)

    @Test func aBinaryBodyIsANoteOnATerminalAndBytesInAPipe() async throws {
        let server = try await TestHTTPServer.start(script: .init { _, _ in
            var reply = TestHTTPServer.Reply.status(200, headers: [("Content-Type", "image/png")])
            reply.body = Self.png
            return reply
        })
        let terminal = try await Self.onTerminal("127.0.0.1:\(server.port)/image.png")
        let pipe = try await UploaderProcess.run(["127.0.0.1:\(server.port)/image.png"])
        try await server.stop()
        #expect(terminal.status == 0)
        #expect(!terminal.standardOutput.contains(0), "raw bytes reached the terminal")
        #expect(terminal.outputText.contains("[binary data not shown on a terminal: 112 B, image/png; -o FILE or a pipe gets it]"), "\(terminal.outputText.debugDescription)")
        #expect(pipe.standardOutput == Self.png)
    }

    @Test func aDryRunOfABinaryFileShowsItsHeadAndANote() async throws {
        let scratch = try ScratchFolder()
        let image = try scratch.file("cat.png", Self.png)
        let terminal = try await Self.onTerminal("--dry-run --boundary B example.com/up photo@\(image)")
        #expect(terminal.status == 0)
        #expect(!terminal.standardOutput.contains(0))
        #expect(terminal.outputText.contains("Content-Disposition: form-data; name=\"photo\"; filename=\"cat.png\"\r\r\nContent-Type: image/png\r\r\n"), "\(terminal.outputText.debugDescription)")
        #expect(terminal.outputText.contains("[binary data not shown on a terminal: "), "\(terminal.outputText.debugDescription)")
    }

    /// At 50 columns every frame of the bar fits in 49 with a bar of ten
    /// columns at least, and `-v`'s status line starts a line of its own.
    @Test func theProgressBarFitsTheWidthAndEndsBeforeAnyOtherLine() async throws {
        let server = try await TestHTTPServer.start(script: .init { _, _ in .status(200, delay: .milliseconds(300)) })
        let fixture = try UploadFixture(size: 4 * 1024 * 1024)
        defer { fixture.remove() }
        let terminal = try await Self.onTerminal("127.0.0.1:\(server.port)/up f@\(fixture.file.path) --progress -v", columns: 50)
        try await server.stop()
        #expect(terminal.status == 0, "\(terminal.outputText.debugDescription)")
        let frames = terminal.outputText.components(separatedBy: "\r").compactMap { $0.components(separatedBy: "\u{1B}[K").first }.filter { $0.contains("%") }
        #expect(!frames.isEmpty, "\(terminal.outputText.debugDescription)")
        for frame in frames {
            let bar = frame.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            #expect(frame.count <= 49 && bar.count >= 10, "\(frame.debugDescription)")
        }
        #expect(!terminal.outputText.contains("sHTTP/1.1") && !terminal.outputText.contains("]HTTP/1.1"), "\(terminal.outputText.debugDescription)")
        #expect(terminal.outputText.contains("\nHTTP/1.1 200 OK") || terminal.outputText.contains("\u{1B}[KHTTP/1.1 200 OK"), "\(terminal.outputText.debugDescription)")
    }

    /// A body with no final newline is ended before the message that follows.
    @Test func aMessageNeverFollowsABodyOnItsLine() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(404, body: "not here")]))
        let terminal = try await Self.onTerminal("127.0.0.1:\(server.port)/missing")
        try await server.stop()
        #expect(terminal.status == 4)
        #expect(terminal.outputText.contains("not here\r\nuploader: "), "\(terminal.outputText.debugDescription)")
    }

    @Test(arguments: ["NO_COLOR=1", "TERM=dumb"])
    func noColourWhenTheEnvironmentSaysSo(variable: String) async throws {
        let server = try await TestHTTPServer.start(script: .init { _, _ in
            .status(200, headers: [("Content-Type", "application/json")], body: #"{"id":7}"#)
        })
        let plain = try await Self.onTerminal("127.0.0.1:\(server.port)/item", environment: "env -u NO_COLOR TERM=xterm \(variable)")
        let coloured = try await Self.onTerminal("127.0.0.1:\(server.port)/item", environment: "env -u NO_COLOR TERM=xterm")
        try await server.stop()
        #expect(plain.outputText.contains("{\r\n    \"id\": 7\r\n}"), "\(plain.outputText.debugDescription)")
        #expect(!plain.outputText.contains("\u{1B}[3"), "\(plain.outputText.debugDescription)")
        #expect(coloured.outputText.contains("\u{1B}[34m\"id\""), "\(coloured.outputText.debugDescription)")
    }
}
