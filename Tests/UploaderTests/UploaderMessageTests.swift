import Foundation
import TestSupport
import Testing

/// #24.9 and #24.15: messages are sentences a user can act on, with no
/// password, no library type names or API advice, and the option echoed as
/// typed.
@Suite struct UploaderMessageTests {
    /// Runs the uploader at a server that must receive nothing.
    private func expectBadInput(_ arguments: [String], message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let server = try await TestHTTPServer.start()
        let expanded = arguments.map { $0.replacingOccurrences(of: "$PORT", with: String(server.port)) }
        let result = try await UploaderProcess.run(expanded + ["--no-progress"])
        #expect(result.status == 2, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("uploader: \(message)"), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(!result.standardError.contains("SECRET"), sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(server.requests.isEmpty, sourceLocation: sourceLocation)
        try await server.stop()
    }

    @Test(arguments: [
        (["--resumable", "--resume-from", "ftp://x:SECRET@h/"], "--resume-from ftp://x:***@h/: give the upload's http or https URL"),
        (["--tus", "--resume-from", "http://x:SECRET@127.0.0.1:$PORT/u"], "--resume-from http://x:***@127.0.0.1:$PORT/u: the upload URL cannot carry a user name or password"),
        (["--resumable", "--resume-from", "http://x:SECRET@127.0.0.1:$PORT/u"], "--resume-from http://x:***@127.0.0.1:$PORT/u: the upload URL cannot carry a user name or password"),
    ])
    func resumeFromURLShowsNoPassword(options: [String], message: String) async throws {
        let file = try ScratchFolder()
        let path = file.url.appending(path: "f.txt").path
        try Data("hello".utf8).write(to: URL(filePath: path))
        try await expectBadInputAt(options + ["--state-dir", file.url.appending(path: "state").path], item: "f@\(path)", message: message)
    }

    private func expectBadInputAt(_ options: [String], item: String, message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let server = try await TestHTTPServer.start()
        let expanded = options.map { $0.replacingOccurrences(of: "$PORT", with: String(server.port)) }
        let result = try await UploaderProcess.run(expanded + ["localhost:\(server.port)/up", item, "--no-progress"])
        #expect(result.status == 2, "\(result.standardError)", sourceLocation: sourceLocation)
        let expected = message.replacingOccurrences(of: "$PORT", with: String(server.port))
        #expect(result.standardError.hasPrefix("uploader: \(expected)"), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(!result.standardError.contains("SECRET"), sourceLocation: sourceLocation)
        #expect(!result.standardError.contains(".authorization"), sourceLocation: sourceLocation)
        #expect(server.requests.isEmpty, sourceLocation: sourceLocation)
        try await server.stop()
    }

    @Test(arguments: [
        "ftp://x:SECRET@h/",
        "http://x:SECRET@127.0.0.1:1/",
    ])
    func endpointURLShowsNoPassword(endpoint: String) async throws {
        try await expectBadInput(["s3://bucket-ok/k", "Package.swift", "--endpoint-url", endpoint], message: "--endpoint-url \(endpoint.replacingOccurrences(of: "SECRET", with: "***")): ")
    }
}

extension UploaderMessageTests {
    @Test func unknownMethodIsCalledThat() async throws {
        try await expectBadInput(["FOO", "localhost:$PORT/up"], message: "'FOO' is not a known method; give GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS, then the URL")
    }

    @Test func parserAlternativesStayOnOneLineWithoutEscapedNewline() async throws {
        try await expectBadInput(["-verbose", "localhost:$PORT/up"], message: "Unknown option '-verbose'. Did you mean '--verbose'? (or: Missing value for '-b <data|file>' in '-verbose')")
    }
}
