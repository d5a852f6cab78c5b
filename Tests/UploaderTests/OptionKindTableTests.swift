import Foundation
import TestSupport
import Testing
@testable import uploader

/// Every cell of the options × kinds table (``OptionRule/table``) through
/// the built binary: each option given to each kind of upload, as a dry
/// run. A refused cell exits 2 with the one message naming the option and
/// the kind, nothing written; a cell the table allows is never refused
/// that way. A row with no example here fails, so a new option's row is
/// run as soon as it is added.
///
/// What the table allows is checked not to be refused here; that it changes
/// what is sent or printed is each option's own tests' to show.
@Suite struct OptionKindTableTests {
    /// The command of each kind, as a dry run: the files are the scratch
    /// folder's, the servers closed ports (a refusal must come first).
    static func command(for kind: UploadKind, in scratch: ScratchFolder) throws -> [String] {
        let file = try scratch.file("f.txt", "hello")
        let tree = scratch.url.appending(path: "tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Data("one".utf8).write(to: tree.appending(path: "one.txt"))
        let form = try scratch.file("form.json", #"{"url": "http://127.0.0.1:1/bucket", "fields": {"key": "k"}}"#)
        switch kind {
        case .plain: return ["--dry-run", "127.0.0.1:1/up"]
        case .resumable: return ["--dry-run", "--resumable", "127.0.0.1:1/up", "f@\(file)"]
        case .tus: return ["--dry-run", "--tus", "127.0.0.1:1/files", "f@\(file)"]
        case .object: return ["--dry-run", "s3://bucket/key", file, "--endpoint-url", "http://127.0.0.1:1"]
        case .objectTree: return ["--dry-run", "s3://bucket/p/", tree.path, "-r", "--endpoint-url", "http://127.0.0.1:1"]
        case .presignedPost: return ["--dry-run", "--presigned-post", form, file]
        }
    }

    /// How each row's option is given, by the option's name in messages.
    static func example(of option: String, in scratch: ScratchFolder) -> [String]? {
        let path = scratch.url.path
        return [
            "-F/--form-part": ["-F", "x=y"], "--multipart": ["--multipart"], "--form": ["--form"], "--json": ["--json"],
            "--data": ["--data", "x"], "-H/--header": ["-H", "X-A: b"], "--ignore-stdin": ["--ignore-stdin"], "--chunked": ["--chunked"], "--gzip": ["--gzip"], "--boundary": ["--boundary", "b"],
            "--dry-run/--offline": ["--offline"], "--check-status": ["--check-status"], "-p/--print": ["--print", "hb"], "-o/--output": ["-o", "\(path)/out"], "--timeout": ["--timeout", "5"], "--retry": ["--retry", "1"], "--retry-max-time": ["--retry-max-time", "30"],
            "--resumable": ["--resumable"], "--tus": ["--tus"], "--chunk-size": ["--chunk-size", "8M"],
            "--resume-from": ["--resume-from", "http://127.0.0.1:1/u/1"], "--state-dir": ["--state-dir", "\(path)/state"],
            "--endpoint-url": ["--endpoint-url", "http://127.0.0.1:2"], "--region": ["--region", "eu-west-1"],
            "--part-size": ["--part-size", "8M"], "--concurrency": ["--concurrency", "2"], "--multipart-threshold": ["--multipart-threshold", "8M"],
            "--presigned-post": ["--presigned-post", "\(path)/form.json"], "-r/--recursive": ["-r"],
            "--max-redirects": ["-L", "--max-redirects", "5"], "-L/--follow": ["-L"], "--profile": ["--profile", "p"],
            "--cacert": ["--cacert", "\(path)/ca.pem"], "-k/--insecure": ["-k"], "--cert": ["--cert", "\(path)/c.pem", "--key", "\(path)/k.pem"],
            "--key": ["--cert", "\(path)/c.pem", "--key", "\(path)/k.pem"], "--proxy": ["--proxy", "http://127.0.0.1:1"],
            "--noproxy": ["--noproxy", "*"], "-a/--auth": ["-a", "u:p"], "--bearer": ["--bearer", "T"], "--netrc": ["--netrc"], "--netrc-file": ["--netrc-file", "\(path)/netrc"], "--netrc-optional": ["--netrc-optional"],
            "--progress/--no-progress": ["--no-progress"], "-v/--verbose": ["-v"], "--print-response-headers": ["--print-response-headers"],
            "--pretty": ["--pretty=format"],
            "-b/--cookie": ["-b", "a=1"], "-c/--cookie-jar": ["-c", "\(path)/jar"],
            "--session": ["--session", "\(path)/session.json"], "--session-read-only": ["--session-read-only", "\(path)/read-only.json"],
        ][option]
    }

    /// Keys that sign nothing real; the store is never reached.
    static let environment = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_PROFILE": "", "NETRC": "/nonexistent"]

    @Test(arguments: UploadKind.allCases)
    func everyOptionIsRefusedOrTakenAsTheTableSays(kind: UploadKind) async throws {
        let scratch = try ScratchFolder()
        let command = try Self.command(for: kind, in: scratch)
        for rule in OptionRule.table {
            let example = try #require(Self.example(of: rule.option, in: scratch), "no example for \(rule.option)")
            let result = try await UploaderProcess.run(command + example, environment: Self.environment)
            if let message = rule.message(for: kind) {
                #expect(result.status == 2, "\(rule.option) for \(kind): \(result.standardError)")
                #expect(result.standardError == "uploader: \(message)\n", "\(rule.option) for \(kind)")
                #expect(result.standardOutput.isEmpty, "\(rule.option) for \(kind) wrote a request")
                #expect(message.contains(rule.option) && message.contains(kind.name))
            } else {
                // An option that chooses a kind of its own (--presigned-post
                // given with --resumable) may leave another refused there.
                #expect(!result.standardError.contains("does not apply to \(kind.name)"), "\(rule.option) for \(kind): \(result.standardError)")
            }
        }
    }

    /// The kind is decided from the options and the positionals together:
    /// two that each choose one are bad input naming both.
    @Test(arguments: [
        (["--resumable", "--tus", "127.0.0.1:1/up", "f@/etc/hostname"], "--resumable and --tus are two protocols; choose one"),
        (["--presigned-post", "form.json", "s3://bucket/key", "/etc/hostname"], "--presigned-post posts to the form's own URL; drop the s3:// location"),
    ])
    func twoKindsAreBadInput(arguments: [String], message: String) async throws {
        let result = try await UploaderProcess.run(["--dry-run"] + arguments, environment: Self.environment)
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: \(message)\n")
    }
}

/// The docs' copy of the options × kinds table is the uploader's own.
@Suite struct OptionKindTableDocsTests {
    @Test(arguments: ["options-by-kind", "exit-status"])
    func theCLIReferenceHoldsTheTable(marker: String) throws {
        let made = marker == "exit-status" ? ExitStatus.markdownTable : OptionRule.markdownTable
        let docs = TestPackage.root.appending(path: "docs/uploader.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = "<!-- \(marker): begin -->\n", end = "<!-- \(marker): end -->"
        let start = try #require(text.range(of: begin)), finish = try #require(text.range(of: end))
        let copied = String(text[start.upperBound..<finish.lowerBound])
        if copied != made, ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" {
            try (String(text[..<start.upperBound]) + made + String(text[finish.lowerBound...])).write(to: docs, atomically: true, encoding: .utf8)
        }
        #expect(copied == made, "docs/uploader.md's \(marker) table differs from the uploader's: run with RECORD_DOCS=1 to copy it")
    }
}
