import Foundation
import TestSupport
import Testing

/// curl's and HTTPie's options as their users type them: one that means
/// something else or nothing here is answered with the uploader's spelling
/// (exit 2, nothing sent), not "Unknown option"; HTTPie's --offline,
/// --check-status and --ignore-stdin are taken with HTTPie's meaning.
@Suite struct PeerSpellingTests {
    @Test(arguments: [
        (["-X", "PUT", "127.0.0.1:1/x"], "-X: give the method first: uploader PUT URL"),
        (["--request=PUT", "127.0.0.1:1/x"], "--request: give the method first: uploader PUT URL"),
        (["-d", "a=1", "127.0.0.1:1/x"], "-d: a raw body is --data (--data @file, --data -, --data 'text')"),
        (["--data-binary", "@f", "127.0.0.1:1/x"], "--data-binary: a raw body is --data (--data @file, --data -, --data 'text')"),
        (["-u", "ada:pw", "127.0.0.1:1/x"], "-u: credentials are -a user:password (or -a user to be asked)"),
        (["-T", "f.bin", "127.0.0.1:1/x"], "-T: upload a file as the body with: uploader PUT URL --data @FILE"),
        (["-I", "127.0.0.1:1/x"], "-I: ask for the head only with: uploader HEAD URL"),
        (["-O", "127.0.0.1:1/x"], "-O: name the output file with -o FILE"),
        (["-s", "127.0.0.1:1/x"], "-s: no progress bar is drawn unless standard error is a terminal; --no-progress turns it off"),
        (["-f", "127.0.0.1:1/x"], "-f: an error status already exits 4 (4xx) or 5 (5xx)"),
        (["--json", #"{"a":1}"#, "127.0.0.1:1/x"], #"'{"a":1}' is not a URL: to send JSON text as the body, give it with --data (curl's --json DATA); --json here sends name=value fields as JSON"#),
        (["-F", "127.0.0.1:1/x"], "no URL given: -F took '127.0.0.1:1/x' as a form part (name=value); HTTPie's -F, follow redirects, is -L here"),
    ])
    func aPeersOptionIsAnsweredWithTheUploadersSpelling(arguments: [String], message: String) async throws {
        let result = try await UploaderProcess.run(arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError == "uploader: \(message)\n")
        #expect(result.standardOutput.isEmpty)
    }

    /// HTTPie's --offline is the dry run; --check-status is what every run does.
    @Test func httpiesOfflineAndCheckStatusAreTaken() async throws {
        let offline = try await UploaderProcess.run(["--offline", "--boundary", "B", "example.com/x", "a=1"])
        let dryRun = try await UploaderProcess.run(["--dry-run", "--boundary", "B", "example.com/x", "a=1"])
        #expect(offline.status == 0 && offline.standardOutput == dryRun.standardOutput && !offline.standardOutput.isEmpty)
        let server = try await TestHTTPServer.start(script: .sequence([.status(404)]))
        let checked = try await UploaderProcess.run(["--check-status", "127.0.0.1:\(server.port)/missing"])
        try await server.stop()
        #expect(checked.status == 4)
    }
}
